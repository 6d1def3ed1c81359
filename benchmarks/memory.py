"""Resident memory of a ready bot: `python -m benchmarks.memory [--papers N] [--guilds G]
[--subscriptions S] [--searches Q] [--db PATH] [--json PATH]`.

Each bot is a fresh process (benchmarks/child.py) against a LocalDiscord in this one; once it is
ready (and, for Laurel, has answered Q `/paper search` interactions, so that SQLite's page caches
and discord.py's caches hold what a working bot holds), it reads its own VmRSS and VmHWM from
/proc/self/status. Next to it the floors, measured in the same run: the interpreter alone, and a
bare discord.py Client in the same world (1 server, and G servers of 3 channels each).

Subscriptions: `seed_subscriptions` fills a copy of the database with S subscriptions spread
over the G servers' channels once the digest tables exist (issue 5); until then the figure is
reported as pending rather than measured on a schema without them.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import tempfile
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from benchmarks.catalog import BASE, as_ratio
from benchmarks.processes import bundled_database, count_papers, database, start_child, world_of
from benchmarks.report import Rows, machine_line, print_rows, save
from bot.localdiscord.server import LocalDiscord
from bot.localdiscord.state import World

PENDING = "pending: no subscriptions table yet (issue 5, digests)"


@dataclass(frozen=True)
class Variant:
    name: str
    kind: str  # child.py's KIND
    db: Path | None
    guilds: int


def seed_subscriptions(path: Path, count: int, world: World) -> tuple[Path | None, str]:
    """(a copy of `path` holding `count` subscriptions over `world`'s channels, "") — or
    (None, why the figure is pending). A copy keeps the shared benchmark database clean."""
    with closing(sqlite3.connect(path)) as conn:
        found = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'subscriptions'"
        ).fetchone()
    if found is None:
        return None, PENDING
    # The digest tables exist (issue 5). To fill in: copy `path` to
    # path.with_name(f"{path.stem}-{count}-subscriptions.db"), write `count` subscriptions
    # through the subscriptions repository, spread round-robin over the text channels of
    # world.guilds, and return (the copy, "").
    return None, "pending: seed_subscriptions in benchmarks/memory.py does not write rows yet"


async def resident(variant: Variant, searches: int, world: World | None = None) -> dict[str, int]:
    """KiB resident once `variant` is ready and warm, in `world` (default: its own)."""
    world = world or world_of(variant.guilds)
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
    if problems:
        raise RuntimeError(f"{variant.name}: the stand-in saw {problems} errors or violations")
    return memory


def mib(kib: float) -> str:
    return f"{kib / 1024:,.1f} MiB"


async def run(args: argparse.Namespace) -> None:
    print(f"machine: {machine_line()}")
    g = args.guilds
    with tempfile.TemporaryDirectory(prefix="laurel-memory-") as tmp:
        big = await database(args.db or Path(tmp) / "papers.db", args.papers, args.seed)
        small = await bundled_database(Path(tmp) / "bundled.db")
        papers = await count_papers(big)
        n = f"{papers:,} papers"
        variants = [
            Variant("python interpreter alone", "python", None, 1),
            Variant("bare discord.py, 1 server", "bare", None, 1),
            Variant(f"bare discord.py, {g:,} servers", "bare", None, g),
            Variant("Laurel, bundled catalogue, 1 server", "laurel", small, 1),
            Variant(f"Laurel, {n}, 1 server", "laurel", big, 1),
            Variant(f"Laurel, {n}, {g:,} servers", "laurel", big, g),
        ]
        kib: dict[str, dict[str, int] | None] = {}
        for variant in variants:
            kib[variant.name] = found = await resident(variant, args.searches)
            print(f"  {variant.name:<44} {mib(found['rss_kib'])}")
        subs = f"Laurel, {n}, {g:,} servers, {args.subscriptions:,} subscriptions"
        world = world_of(g)
        seeded, pending = seed_subscriptions(big, args.subscriptions, world)
        variant = Variant(subs, "laurel", seeded, g)
        kib[subs] = None if seeded is None else await resident(variant, args.searches, world)
    rss = {name: None if m is None else m["rss_kib"] for name, m in kib.items()}

    def of(index: int) -> int:
        value = rss[variants[index].name]
        if value is None:
            raise RuntimeError(f"{variants[index].name} was not measured")
        return value

    laurel, bare = of(5), of(2)
    rows: Rows = [(name, pending if v is None else mib(v)) for name, v in rss.items()]
    rows += [
        (f"Laurel / bare at {g:,} servers", as_ratio(laurel / bare)),
        (f"Laurel above the floor at {g:,} servers", mib(laurel - bare)),
        (f"{papers:,} papers / bundled (1 server)", as_ratio(of(4) / of(3))),
        (f"{g:,} servers / 1 server, Laurel (papers)", as_ratio(laurel / of(4))),
    ]
    print_rows(rows)
    figures = {"papers": papers, "guilds": g, "searches": args.searches, "kib": kib}
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
    if args.papers < 10 or args.guilds < 1 or args.searches < 0:
        parser.error("--papers >= 10, --guilds >= 1, --searches >= 0")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
