"""Resident memory of a ready bot: `python -m benchmarks.memory [--papers N] [--guilds G]
[--subscriptions S] [--searches Q] [--db PATH] [--json PATH]`.

Each bot is a fresh process (benchmarks/child.py) against a LocalDiscord in this one; once it is
ready (and, for Laurel, has answered Q `/paper search` interactions, so that SQLite's page caches
and discord.py's caches hold what a working bot holds), it reads its own VmRSS and VmHWM from
/proc/self/status. Next to it the floors, measured in the same run: the interpreter alone, and a
bare discord.py Client in the same world (1 server, and G servers of 3 channels each).

Subscriptions: `seed_subscriptions` fills a copy of the database with S subscriptions spread
over the G servers' channels, none of them due while the bot is measured: `on_ready` builds the
digest schedule (every active subscription, held in memory), and no digest is posted (checked).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import shutil
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from zoneinfo import ZoneInfo

from benchmarks.catalog import BASE, as_ratio
from benchmarks.processes import (
    bundled_database,
    count_papers,
    database,
    start_child,
    with_index,
    world_of,
)
from benchmarks.report import Rows, machine_line, print_rows, save
from bot.dburl import SqliteTarget
from bot.domain.clock import SystemClock
from bot.domain.subscriptions import MAX_SUBSCRIPTIONS_PER_GUILD, Subscription, Theme
from bot.settings import SearchSettings
from bot.store.backends import open_database
from bot.store.subscriptions import SubscriptionRepository
from laurel_console.localdiscord.server import LocalDiscord
from laurel_console.localdiscord.state import MESSAGEABLE_TYPES, World

POST_MESSAGE = "POST /channels/{channel_id}/messages"
ZONES = ("UTC", "Europe/Berlin", "America/New_York", "Asia/Taipei", "Asia/Shanghai")


@dataclass(frozen=True)
class Variant:
    name: str
    kind: str  # child.py's KIND
    db: Path | None
    guilds: int


async def seed_subscriptions(path: Path, count: int, world: World, folder: Path) -> Path:
    """A copy of `path` in `folder` holding `count` subscriptions, written one by one through
    SubscriptionRepository.add (the one way in) round-robin over `world`'s guilds and their
    channels, with every theme, language and a few time zones. A copy keeps the shared
    benchmark database clean.

    Each is created now and due at a local time an hour or more ago: nothing is due or missed
    while the bot is measured, so the figure is the schedule held in memory, not a fan-out."""
    copy = folder / f"{path.stem}-{count}-subscriptions.db"
    await asyncio.to_thread(shutil.copyfile, path, copy)
    index, copied = SearchSettings().index_for(path), SearchSettings().index_for(copy)
    if index is not None and copied is not None and index.exists():  # not rebuilt: copied
        await asyncio.to_thread(shutil.copytree, index, copied)
    guilds = [
        [c.id for c in guild.channels.values() if c.type in MESSAGEABLE_TYPES and not c.is_thread]
        for guild in world.guilds.values()
    ]
    per_guild = -(-count // len(guilds))
    if per_guild > MAX_SUBSCRIPTIONS_PER_GUILD:
        raise ValueError(f"{count:,} subscriptions need at least {per_guild:,} per server")
    guild_ids = list(world.guilds)
    themes, languages = list(Theme), ("en", "zh-TW", "zh-CN")
    now = dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)
    async with await open_database(SqliteTarget(copy), clock=SystemClock(), create=False) as db:
        repo = SubscriptionRepository(db)
        for n in range(count):
            g = n % len(guild_ids)
            channels = guilds[g]
            zone = ZONES[n % len(ZONES)]
            at = (now - dt.timedelta(hours=1, minutes=n % 600)).astimezone(ZoneInfo(zone))
            sub = Subscription.model_validate(
                {
                    "guild_id": guild_ids[g],
                    "channel_id": channels[(n // len(guild_ids)) % len(channels)],
                    "theme": themes[n % len(themes)],
                    "time": at.time().replace(tzinfo=None),
                    "timezone": zone,
                    "language": languages[n % len(languages)],
                    "created_by": world.bot.id,
                    "created_at": now,
                }
            )
            await repo.add(sub)
    return copy


async def resident(variant: Variant, searches: int) -> dict[str, int]:
    """KiB resident once `variant` is ready and warm, in a fresh world of its size (the same
    ids every time: world_of is deterministic, so seeded subscriptions find their channels)."""
    world = world_of(variant.guilds)
    db = variant.db
    if variant.kind == "python":
        child = await start_child("python", None)
        memory = await child.ask("memory")
        await child.stop()
        return memory
    async with LocalDiscord(world) as server:
        child = await start_child(variant.kind, server, db)
        try:
            if variant.kind == "laurel":
                for i in range(searches):
                    query = BASE[i % len(BASE)]
                    issued = await server.slash("paper", {"query": query}, subcommand="search")
                    await issued.message()
            memory = await child.ask("memory")
        finally:
            await child.stop()
        problems = len(server.errors) + len(server.unhandled) + len(server.violations)
        # Answers go to interaction routes; a channel message would be a digest post.
        posts = len(server.requests_to(POST_MESSAGE))
    if problems:
        raise RuntimeError(f"{variant.name}: the stand-in saw {problems} errors or violations")
    if posts:
        raise RuntimeError(f"{variant.name}: {posts} digests were posted while measuring")
    return memory


def mib(kib: float) -> str:
    return f"{kib / 1024:,.1f} MiB"


async def run(args: argparse.Namespace) -> None:
    print(f"machine: {machine_line()}")
    g, s = args.guilds, args.subscriptions
    with tempfile.TemporaryDirectory(prefix="laurel-memory-") as tmp:
        big = await with_index(
            await database(args.db or Path(tmp) / "papers.db", args.papers, args.seed)
        )
        small = await bundled_database(Path(tmp) / "bundled.db")
        papers = await count_papers(big)
        started = time.perf_counter()
        subscribed = await with_index(await seed_subscriptions(big, s, world_of(g), Path(tmp)))
        seeding = time.perf_counter() - started
        print(f"{s:,} subscriptions stored one by one in {seeding:.1f} s ({s / seeding:,.0f}/s)")
        n = f"{papers:,} papers"
        variants = [
            Variant("python interpreter alone", "python", None, 1),
            Variant("bare discord.py, 1 server", "bare", None, 1),
            Variant(f"bare discord.py, {g:,} servers", "bare", None, g),
            Variant("Laurel, bundled catalogue, 1 server", "laurel", small, 1),
            Variant(f"Laurel, {n}, 1 server", "laurel", big, 1),
            Variant(f"Laurel, {n}, {g:,} servers", "laurel", big, g),
            Variant(f"Laurel, {n}, {g:,} servers, {s:,} subscriptions", "laurel", subscribed, g),
        ]
        kib: dict[str, dict[str, int]] = {}
        for variant in variants:
            kib[variant.name] = found = await resident(variant, args.searches)
            print(f"  {variant.name:<60} {mib(found['rss_kib'])}")
    rss = [kib[variant.name]["rss_kib"] for variant in variants]
    laurel, bare = rss[5], rss[2]
    rows: Rows = [(name, mib(m["rss_kib"])) for name, m in kib.items()]
    rows += [
        (f"Laurel / bare at {g:,} servers", as_ratio(laurel / bare)),
        (f"Laurel above the floor at {g:,} servers", mib(laurel - bare)),
        (f"{papers:,} papers / bundled (1 server)", as_ratio(rss[4] / rss[3])),
        (f"{g:,} servers / 1 server, Laurel (papers)", as_ratio(laurel / rss[4])),
        (f"{s:,} subscriptions / none ({g:,} servers)", as_ratio(rss[6] / laurel)),
        (f"{s:,} subscriptions add", mib(rss[6] - laurel)),
        (f"Laurel with everything / bare at {g:,} servers", as_ratio(rss[6] / bare)),
        (f"storing {s:,} subscriptions one by one", f"{seeding:.1f} s ({s / seeding:,.0f}/s)"),
    ]
    print_rows(rows)
    figures = {
        "papers": papers,
        "guilds": g,
        "subscriptions": s,
        "searches": args.searches,
        "seeding_s": seeding,
        "kib": kib,
    }
    save(args.json, "memory", rows, figures)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memory", description=__doc__)
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--guilds", type=int, default=1_000)
    parser.add_argument("--subscriptions", type=int, default=10_000)
    parser.add_argument("--searches", type=int, default=50, help="/paper search before measuring")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, help="build the database here, or reuse it")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if args.papers < 10 or args.guilds < 1 or args.searches < 0 or args.subscriptions < 1:
        parser.error("--papers >= 10, --guilds >= 1, --searches >= 0, --subscriptions >= 1")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
