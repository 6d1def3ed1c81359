"""Shard processes for benchmarks.sharded: `laurel run` processes of one bot on one shared
database, the stand-in `python -m laurel_console.localdiscord` in a process of its own, and
the CPU each of them used (read from /proc, so the stand-in's cost is counted apart).

The database is SQLite (a file the processes share) or PostgreSQL (an embedded server started
here, a database per scenario copied from a template holding the bundled catalogue).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import aiohttp

from bot.dburl import PostgresTarget, SqliteTarget
from bot.domain.clock import SystemClock
from bot.domain.subscriptions import Subscription, Theme
from bot.store.backends import open_database
from bot.store.database import Database
from bot.store.subscriptions import SubscriptionRepository

TICK = os.sysconf("SC_CLK_TCK")
THEMES = (Theme.PAPER_OF_THE_DAY, Theme.TEST_OF_TIME)
POST = "POST /channels/{channel_id}/messages"
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


def _stat(pid: int) -> list[str]:
    """/proc/PID/stat's fields after the command name (state first); [] once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
            return stat.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return []


def cpu_seconds(pid: int, *, reaped_children: bool = False) -> float:
    """User + system CPU seconds of process `pid` so far (0 once it is gone); with
    `reaped_children`, also those of its children that have ended."""
    fields = _stat(pid)
    if not fields:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if reaped_children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICK


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds of `root`, of its children that ended, and of those still running."""
    live = [int(p) for p in os.listdir("/proc") if p.isdigit()]
    children = [pid for pid in live if (fields := _stat(pid)) and int(fields[1]) == root]
    return cpu_seconds(root, reaped_children=True) + sum(map(cpu_seconds, children))


class Store(Protocol):
    """Where the scenario's database lives: a fresh one for each scenario."""

    dialect: str
    folder: Path  # a scratch folder of the benchmark's own (the bots' logs go there)

    def env(self) -> dict[str, str]: ...

    async def open(self) -> Database: ...

    def fresh(self) -> None: ...

    def server_cpu(self) -> float:
        """CPU seconds of a database server (none for SQLite: it works inside the bots)."""
        ...


def _init(env: dict[str, str]) -> None:
    """`laurel db init`: the schema and the bundled catalogue, as a first start makes them."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("LAUREL_")}
    subprocess.run([sys.executable, "-m", "bot", "db", "init"], env=base | env, check=True,
                   capture_output=True)  # fmt: skip


class SqliteStore:
    dialect = "sqlite"

    def __init__(self, folder: Path) -> None:
        self.folder = self._folder = folder
        self._template = folder / "template.db"
        _init({"LAUREL_DATABASE__PATH": str(self._template)})
        self._n = 0
        self.path = self._template

    def fresh(self) -> None:
        self._n += 1
        self.path = self._folder / f"laurel-{self._n}.db"
        shutil.copyfile(self._template, self.path)

    def env(self) -> dict[str, str]:
        return {"LAUREL_DATABASE__PATH": str(self.path)}

    def server_cpu(self) -> float:
        return 0.0

    async def open(self) -> Database:
        return await open_database(SqliteTarget(self.path), clock=SystemClock(), create=False)


class PostgresStore:
    dialect = "postgresql"

    def __init__(self, folder: Path) -> None:
        from tests.support.postgres import PostgresServer

        self.server = PostgresServer(folder / "pgdata")
        self.server.start()
        self.server.create_database(name="bench_tpl")
        self.url = self.server.url("bench_tpl")
        self.folder = folder
        _init({"LAUREL_DATABASE__URL": self.url})  # the template: schema, bundled catalogue

    def fresh(self) -> None:
        self.url = self.server.url(self.server.create_database(template="bench_tpl"))

    def env(self) -> dict[str, str]:
        return {"LAUREL_DATABASE__URL": self.url}

    def server_cpu(self) -> float:
        """The postmaster's CPU and its backends' (a backend per connection, ended or not)."""
        pid = int((self.server.pgdata / "postmaster.pid").read_text().split()[0])
        return tree_cpu_seconds(pid)

    async def open(self) -> Database:

        return await open_database(PostgresTarget(self.url), clock=SystemClock(), create=False)

    def stop(self) -> None:
        self.server.stop()


@contextmanager
def store_for(dialect: str) -> Iterator[Store]:
    folder = Path(tempfile.mkdtemp(prefix="laurel-bench-sharded-"))
    try:
        if dialect == "sqlite":
            yield SqliteStore(folder)
        else:
            store = PostgresStore(folder)
            try:
                yield store
            finally:
                store.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class StandIn:
    """`python -m laurel_console.localdiscord` with `guilds` spread over `shards` shards."""

    process: subprocess.Popen[str]
    control: str
    rest: str
    token: str
    http: aiohttp.ClientSession

    async def get(self, path: str, **query: str) -> Any:
        async with self.http.get(self.control + path, params=query) as response:
            return await response.json()

    async def post(self, path: str, body: dict[str, Any]) -> Any:
        async with self.http.post(self.control + path, json=body) as response:
            return await response.json()

    def cpu(self) -> float:
        return cpu_seconds(self.process.pid)

    async def spread(self) -> list[dict[str, Any]]:
        """The guilds `--guilds` added ("Guild 0"..), not the stand-in's own."""
        world = await self.get("world")
        return [g for g in world["guilds"] if g["name"].startswith("Guild ")]

    async def posts(self) -> list[dict[str, Any]]:
        return list((await self.get("requests", route=POST))["requests"])


@asynccontextmanager
async def stand_in(guilds: int, shards: int) -> AsyncIterator[StandIn]:
    argv = [sys.executable, "-m", "laurel_console.localdiscord", "--port", "0"]
    argv += ["--guilds", str(guilds), "--shards", str(shards), "--max-concurrency", str(shards)]
    # Spawned and read before anything else runs on the loop (the benchmark waits for it).
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)  # noqa: ASYNC220
    try:
        assert process.stdout is not None
        lines = dict(process.stdout.readline().split(maxsplit=1) for _ in range(4))
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=120)) as http:
            yield StandIn(process, lines["control"].strip(), lines["REST"].strip(),
                          lines["token"].strip(), http)  # fmt: skip
    finally:
        process.terminate()
        process.wait(10)
        if process.stdout is not None:
            process.stdout.close()


async def subscribe(db: Database, guilds: list[dict[str, Any]], per_guild: int) -> dict[int, int]:
    """`per_guild` digests in each guild's #general, due this minute (UTC): sub id -> guild."""
    minute = dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)
    repository = SubscriptionRepository(db)
    made: dict[int, int] = {}
    for guild in guilds:
        general = next(c for c in guild["channels"] if c["name"] == "general")
        for n in range(per_guild):
            sub = Subscription.model_validate(
                {
                    "guild_id": int(guild["id"]),
                    "channel_id": int(general["id"]),
                    "theme": THEMES[n % len(THEMES)],
                    "time": minute.time(),
                    "timezone": "UTC",
                    "created_by": 1,
                    "created_at": minute - dt.timedelta(minutes=10),
                }
            )
            added = await repository.add(sub)
            assert added.id is not None
            made[added.id] = added.guild_id
    return made


@dataclass
class Fleet:
    """The shard processes of one bot on `store`, against `stand`."""

    stand: StandIn
    store: Store
    count: int
    logs: Path
    extra: dict[str, str] = field(default_factory=dict)
    running: dict[str, subprocess.Popen[str]] = field(default_factory=dict)
    cpu: dict[str, float] = field(default_factory=dict)  # CPU of processes no longer running
    # CPU of the bots and the stand-in, and POSTs so far, when every shard was first connected.
    baseline: tuple[float, float, int] = (0.0, 0.0, 0)
    server_baseline: float = 0.0  # the database server's CPU then
    _started: int = 0

    def start(self, shards: str) -> None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("LAUREL_")}
        env |= {
            "DISCORD_TOKEN": self.stand.token,
            "LAUREL_DISCORD__API_BASE_URL": self.stand.rest,
            "LAUREL_HEALTH__PORT": "0",
            "LAUREL_BACKUPS__ENABLED": "false",
            "LAUREL_DIGESTS__TICK_SECONDS": "1",
            "LAUREL_DIGESTS__RETRY_BASE_SECONDS": "0.1",
            "LAUREL_DISCORD__SHARD_IDS": shards,
            "LAUREL_DISCORD__SHARD_COUNT": str(self.count),
        }
        env |= self.store.env() | self.extra
        self._started += 1
        log = (self.logs / f"bot-{self._started}-{shards}.log").open("w")
        argv = [sys.executable, "-m", "bot", "run"]
        self.running[shards] = subprocess.Popen(
            argv, env=env, stdout=subprocess.DEVNULL, stderr=log, text=True
        )
        log.close()

    def kill(self, shards: str, *, graceful: bool = False) -> None:
        process = self.running.pop(shards)
        used = cpu_seconds(process.pid)  # read before it is reaped
        if graceful:
            process.terminate()
        else:
            process.kill()
        process.wait(60)
        self.cpu[shards] = self.cpu.get(shards, 0.0) + used

    def stop(self) -> None:
        for shards in list(self.running):
            self.kill(shards, graceful=True)

    def bots_cpu(self) -> float:
        live = sum(cpu_seconds(p.pid) for p in self.running.values())
        return live + sum(self.cpu.values())

    async def ready(self, grace: float = 120) -> None:
        """Until the stand-in has a live gateway session for every shard of the fleet."""
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline:
            for shards, process in self.running.items():
                if process.poll() is not None:
                    raise RuntimeError(f"the bot on shards {shards} exited ({process.returncode})")
            world = await self.stand.get("world")
            live = {
                s["shard"][0] for s in world["gateway_sessions"] if s["connected"] and s["shard"]
            }
            if live >= set(range(self.count)):
                if self.baseline == (0.0, 0.0, 0):
                    posted = len(await self.stand.posts())
                    self.baseline = (self.bots_cpu(), self.stand.cpu(), posted)
                    self.server_baseline = self.store.server_cpu()
                return
            await asyncio.sleep(0.2)
        raise TimeoutError("the shard processes did not all connect")

    def errors(self) -> list[str]:
        found = []
        for log in sorted(self.logs.glob("bot-*.log")):
            found += [f"{log.name}: {line.strip()}" for line in log.read_text().splitlines()
                      if " ERROR " in line or "Traceback" in line]  # fmt: skip
        return found


# -- what the ledger and Discord hold ------------------------------------------------------------
async def ledger(db: Database) -> dict[int, tuple[str, str]]:
    rows = await db.fetchall("SELECT subscription_id, nonce, status FROM digest_ledger")
    return {int(r[0]): (str(r[1]), str(r[2])) for r in rows}


async def all_sent(db: Database, subs: dict[int, int]) -> bool:
    rows = await ledger(db)
    return len(rows) == len(subs) and all(status == "sent" for _, status in rows.values())


async def exactly_once(
    stand: Any, db: Database, subs: dict[int, int], guilds: list[dict[str, Any]]
) -> dict[str, Any]:
    """Every ledger row's nonce among Discord's messages once; none missing, nothing else."""
    rows = await ledger(db)
    nonces: Counter[str] = Counter()
    for guild in guilds:
        general = next(c for c in guild["channels"] if c["name"] == "general")
        for message in (await stand.get("messages", channel_id=general["id"]))["messages"]:
            nonces[str(message.get("nonce"))] += 1
    expected = {nonce for nonce, _ in rows.values()}
    return {
        "duplicates": sum(n - 1 for n in nonces.values() if n > 1),
        "skipped": len(set(subs) - set(rows)) + len(expected - set(nonces)),
        "strangers": len(set(nonces) - expected),
    }


async def sent_of(db: Database, among: set[int]) -> int:
    return sum(1 for s, (_, st) in (await ledger(db)).items() if s in among and st == "sent")
