"""Bots in fresh processes against a stand-in in this one: for startup and memory.

The stand-in (LocalDiscord) runs in the benchmark's process; each bot is a child process
(benchmarks/child.py) that connects to it over 127.0.0.1 exactly as it would to Discord. The
parent drives the bot through the stand-in (slash commands go out as gateway events), so the
bot's process holds nothing of the stand-in: its memory is its own.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.dburl import SqliteTarget
from bot.domain.clock import SystemClock
from bot.store.backends import open_database
from laurel_console.localdiscord.config import Config
from laurel_console.localdiscord.server import LocalDiscord
from laurel_console.localdiscord.state import GUILD_ANNOUNCEMENT, Perm, World, default_world

HOUR_MS = 3_600_000  # a heartbeat interval that never comes round during a run
READY_TIMEOUT = 120.0  # seconds; 1,000 guilds on a slow machine still come in well within it


def world_of(guilds: int, channels: int = 3) -> World:
    """The default world ("Laurel Lab") plus `guilds - 1` servers of `channels` channels each
    (one an announcement channel), the bot a member of all with its managed role."""
    world = default_world(Config(heartbeat_interval_ms=HOUR_MS, lean=True))
    owner = world.find_user("ada")
    for n in range(1, guilds):
        guild = world.add_guild(f"Server {n}", owner=owner)
        role = world.add_role(
            guild, world.bot.username, Perm.BOT_DEFAULT, managed=True, bot_id=world.bot.id
        )
        world.add_member(guild, world.bot, role)
        for c in range(channels):
            kind = GUILD_ANNOUNCEMENT if c == channels - 1 else 0
            world.add_channel(guild, f"channel-{c}", kind)
    return world


@dataclass
class Child:
    """A bot in its own process; `phases` are ms from exec to each phase it reported."""

    kind: str
    process: asyncio.subprocess.Process
    phases: dict[str, float] = field(default_factory=dict)

    async def _line(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        raw = await asyncio.wait_for(self.process.stdout.readline(), READY_TIMEOUT)
        if not raw:
            code = await self.process.wait()
            raise RuntimeError(f"the {self.kind} process exited ({code}) before answering")
        answer: dict[str, Any] = json.loads(raw)
        return answer

    async def ask(self, command: str) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{command}\n".encode())
        await self.process.stdin.drain()
        return await self._line()

    async def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"stop\n")
        await self.process.stdin.drain()
        try:
            await asyncio.wait_for(self.process.wait(), 30)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
        if self.process.returncode:
            raise RuntimeError(f"the {self.kind} process exited with {self.process.returncode}")


async def start_child(
    kind: str, server: LocalDiscord | None, db: Path | None = None, *, cwd: Path | None = None
) -> Child:
    """Exec a bot of `kind` and wait for it to be ready (on_ready), timing each phase. `cwd`:
    run it from there (another checkout's `bot` and `benchmarks`), not from this one."""
    args = [sys.executable, "-m", "benchmarks.child", kind]
    env = dict(os.environ)
    if server is not None:
        args += ["--rest", server.rest_url, "--gateway", server.gateway_url]
        env["DISCORD_TOKEN"] = server.token
    if db is not None:
        args += ["--db", str(db)]
    started = time.monotonic_ns()  # CLOCK_MONOTONIC is the same clock in the child
    process = await asyncio.create_subprocess_exec(
        *args, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env, cwd=cwd
    )
    child = Child(kind, process)
    while "ready" not in child.phases:
        line = await child._line()
        child.phases[line["phase"]] = (line["ns"] - started) / 1e6
        if "cpu_ns" in line:  # the child's own CPU time to the phase, as "cpu PHASE"
            child.phases[f"cpu {line['phase']}"] = line["cpu_ns"] / 1e6
    return child


async def database(path: Path, papers: int, seed: int) -> Path:
    """The benchmark database at `path`: reused when it exists, else built as
    benchmarks.interactions builds it (synthetic awards through the one write path)."""
    if path.exists():  # noqa: ASYNC240 (one stat, before the benchmark starts)
        print(f"reusing {path}: not rebuilt")
        return await with_index(path)
    from benchmarks.interactions import build, synthesize

    raw, _ = synthesize(papers, 6, seed)
    await build(path, raw)
    return await with_index(path)


async def bundled_database(path: Path) -> Path:
    """A database holding the bundled catalogue only, as a first `laurel run` leaves it (with
    its derived search index beside it)."""
    from bot.catalog.bundled import load_bundled_into
    from bot.catalog.parts import CatalogParts

    async with await open_database(SqliteTarget(path), clock=SystemClock()) as db:
        await load_bundled_into(CatalogParts.over(db, SystemClock()))
    return await with_index(path)


async def with_index(path: Path) -> Path:
    """`path` with the derived search index beside it, where `laurel run` keeps it, built or
    brought up to date now: a bot measured on it opens the index, as a running deployment does,
    instead of rebuilding it while it is measured (a rebuild is a start's work, not its
    steady state)."""
    from bot.settings import SearchSettings
    from bot.store.search.index import SearchIndex
    from bot.store.search.semantic import load_embedder

    settings = SearchSettings()  # as the bot's defaults: with the papers' vectors, by default
    embedder = load_embedder if settings.meaning else None
    index = SearchIndex(path, settings.index_for(path), embedder=embedder)
    await index.start(background_over=2**62)
    await index.close()
    return path


async def count_papers(path: Path) -> int:

    async with await open_database(SqliteTarget(path), clock=SystemClock(), create=False) as db:
        row = await db.fetchone("SELECT count(*) FROM papers")
    return int(row[0]) if row else 0
