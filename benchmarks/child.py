"""One bot in a fresh process, for the startup and memory benchmarks:
`python -m benchmarks.child KIND --rest URL --gateway URL [--db PATH]` with the stand-in's token
in DISCORD_TOKEN.

KIND is `laurel` (the path `laurel run` takes: instance lock, database open with migrations, the
bundled catalogue loaded if the database is empty, LaurelBot with its cogs, translator, command
sync and scheduler), `bare` (a discord.py Client and nothing else: the floor) or `python` (the
interpreter alone, for memory). `laurel-eager` is `laurel` importing matplotlib's chart modules
up front, as bot.render.charts did before it deferred them to the first chart: the "before" of
that change, measured next to the "after" in one run. Both bots wait 0.01 s after the last
GUILD_CREATE instead of discord.py's 2 s, or that wait would be most of what is measured.

It prints one JSON line per phase ({"phase": name, "ns": CLOCK_MONOTONIC, "cpu_ns": its CPU
time}) up to "ready", then
answers lines on stdin: "memory" with {"rss_kib", "hwm_kib"} from /proc/self/status, "stop" by
closing and exiting. Imports that matter are inside `main`, so "imported" is a phase of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from pathlib import Path
from typing import Any


def say(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


def phase(name: str) -> None:
    # cpu_ns: this process's CPU time so far, which waiting for a busy machine's CPUs leaves out.
    say(phase=name, ns=time.monotonic_ns(), cpu_ns=time.process_time_ns())


def memory() -> dict[str, int]:
    """VmRSS and VmHWM (peak RSS) in KiB: what the kernel counts as resident, no psutil."""
    found: dict[str, int] = {}
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                found[key] = int(value.split()[0])
    return {"rss_kib": found["VmRSS"], "hwm_kib": found["VmHWM"]}


async def nothing() -> None:
    """Closing the interpreter alone: there is nothing to close."""


async def serve_commands(close: Any) -> None:
    """Answer the parent's requests on stdin until it says stop (or goes away)."""
    loop = asyncio.get_running_loop()
    while True:
        line = (await loop.run_in_executor(None, sys.stdin.readline)).strip()
        if line == "memory":
            say(**memory())
        elif line in ("stop", ""):
            await close()
            return


async def run_bare(rest: str, gateway: str, token: str) -> None:
    import discord
    import yarl

    phase("imported")
    discord.http.Route.BASE = rest
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.01)
    async with client:
        running = asyncio.create_task(client.start(token))
        await client.wait_until_ready()
        phase("ready")
        await serve_commands(client.close)
        await running


async def run_laurel(rest: str, gateway: str, token: str, path: Path, eager: bool) -> None:
    if eager:
        # What bot.render.charts imported at module level before matplotlib became lazy.
        import matplotlib.backends.backend_agg
        import matplotlib.figure
        import matplotlib.patches
        import matplotlib.ticker  # noqa: F401
    import aiohttp
    from apscheduler.schedulers.asyncio import AsyncIOScheduler

    from bot.app import LaurelBot, use_endpoints
    from bot.catalog.bundled import load_bundled_into
    from bot.catalog.parts import CatalogParts
    from bot.dburl import SqliteTarget
    from bot.domain.clock import SystemClock
    from bot.settings import DiscordSettings, Settings
    from bot.store.backends import open_database
    from bot.store.lock import InstanceLock

    phase("imported")
    endpoint = DiscordSettings(api_base_url=rest, gateway_url=gateway)
    settings = Settings(discord=endpoint)
    with InstanceLock(path):
        async with await open_database(SqliteTarget(path), clock=SystemClock()) as db:
            await load_bundled_into(CatalogParts.over(db, SystemClock()), only_if_empty=True)
            phase("database")
            use_endpoints(rest, gateway)
            scheduler = AsyncIOScheduler(timezone="UTC")
            async with (
                aiohttp.ClientSession() as session,
                LaurelBot(
                    settings=settings,
                    db=db,
                    scheduler=scheduler,
                    clock=SystemClock(),
                    http_session=session,
                    guild_ready_timeout=0.01,
                ) as bot,
            ):
                running = asyncio.create_task(bot.start(token))
                await bot.wait_until_ready()
                phase("ready")
                await serve_commands(bot.close)
                await running


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.child", description=__doc__)
    parser.add_argument("kind", choices=("laurel", "laurel-eager", "bare", "python"))
    parser.add_argument("--rest", default="")
    parser.add_argument("--gateway", default="")
    parser.add_argument("--db", type=Path)
    args = parser.parse_args()
    token = os.environ.get("DISCORD_TOKEN", "")
    if args.kind == "python":
        phase("ready")
        asyncio.run(serve_commands(nothing))
    elif args.kind == "bare":
        asyncio.run(run_bare(args.rest, args.gateway, token))
    else:
        if args.db is None:
            parser.error("laurel needs --db")
        asyncio.run(
            run_laurel(args.rest, args.gateway, token, args.db, args.kind == "laurel-eager")
        )


if __name__ == "__main__":
    main()
