"""What hiding removed papers and awards costs the readers: `python -m benchmarks.live_views
[--papers N] [--repeat R]`.

Every read goes through the live_papers / live_awards views (migration 0003), which leave out
what curators removed. One run builds a catalogue of N synthetic awards through the one write
path, copies it, and in the copy redefines both views as the plain tables. The same repository
calls then run against both files, alternately; the ratio (with views / plain tables) is the
cost of the filter. Read the ratios, not the milliseconds.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from benchmarks.catalog import Synth
from benchmarks.interactions import build
from bot.dburl import SqliteTarget
from bot.domain.clock import SystemClock
from bot.domain.institutions import load_institutions
from bot.domain.models import AwardKind
from bot.store.backends import open_database
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.leaderboards import LeaderboardRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.sql import Connection

Call = Callable[[PaperRepository, EditionRepository, LeaderboardRepository], Awaitable[object]]
CALLS: dict[str, Call] = {
    "author leaderboard": lambda p, e, b: b.author_awards(),
    "institution leaderboard": lambda p, e, b: b.institution_credit(),
    "awarded paper ids": lambda p, e, b: p.ids(),
    "papers with an award kind": lambda p, e, b: p.with_award(AwardKind.BEST, limit=50),
    "search 'learning'": lambda p, e, b: p.search("learning", kind=AwardKind.BEST),
    "coverage (/about)": lambda p, e, b: e.coverage(),
}

UNFILTERED = (
    "DROP VIEW live_papers",
    "DROP VIEW live_awards",
    "CREATE VIEW live_papers AS SELECT * FROM papers",
    "CREATE VIEW live_awards AS SELECT * FROM awards",
)


def _unfilter(conn: Connection) -> None:
    for statement in UNFILTERED:  # executescript would commit the write's transaction
        conn.execute(statement)


async def _compare(live: Path, plain: Path, call: Call, repeat: int) -> tuple[float, float]:
    """Median seconds of `call` on each file, the two timed alternately so that a busy
    machine slows both alike."""
    aliases = load_institutions()
    async with (
        await open_database(SqliteTarget(live), clock=SystemClock()) as one,
        await open_database(SqliteTarget(plain), clock=SystemClock()) as other,
    ):
        repositories = [
            (PaperRepository(db), EditionRepository(db), LeaderboardRepository(db, aliases))
            for db in (one, other)
        ]
        times: list[list[float]] = [[], []]
        for papers, editions, leaderboards in repositories:
            # warm the page cache and the statement cache
            await call(papers, editions, leaderboards)
        for _ in range(repeat):
            for side, (papers, editions, leaderboards) in enumerate(repositories):
                start = time.perf_counter()
                await call(papers, editions, leaderboards)
                times[side].append(time.perf_counter() - start)
        return statistics.median(times[0]), statistics.median(times[1])


async def run(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="laurel-views-") as folder:
        live, plain = Path(folder) / "live.db", Path(folder) / "plain.db"
        synth = Synth(args.seed)
        await build(live, [synth.award(i) for i in range(args.papers)])
        shutil.copy(live, plain)
        async with await open_database(SqliteTarget(plain), clock=SystemClock()) as db:
            await db.write(_unfilter)
        print(f"\n{'query':<28} {'views / tables':>15}  (medians of {args.repeat}, alternating)")
        for name, call in CALLS.items():
            with_views, tables = await _compare(live, plain, call, args.repeat)
            print(f"{name:<28} {with_views / tables:>14.2f}x  ({tables * 1e3:.1f} ms plain)")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.live_views", description=__doc__)
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--seed", type=int, default=7)
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
