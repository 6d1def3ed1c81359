"""SQLite faults a test holds for the length of a block: another program's write lock past the
busy timeout, and the database made read-only (PRAGMA query_only)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, closing

from bot.store.database import Database
from bot.store.sqlite import SqliteDatabase

Fault = Callable[[Database], AbstractAsyncContextManager[None]]


@asynccontextmanager
async def locked(db: SqliteDatabase) -> AsyncIterator[None]:
    await db.snapshot(lambda conn: conn.execute("PRAGMA busy_timeout = 50"))
    with closing(sqlite3.connect(db.path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")  # another program's write lock, held past the timeout
        yield
        other.execute("ROLLBACK")


@asynccontextmanager
async def read_only(db: SqliteDatabase) -> AsyncIterator[None]:
    await db.snapshot(lambda conn: conn.execute("PRAGMA query_only = ON"))
    yield
    await db.snapshot(lambda conn: conn.execute("PRAGMA query_only = OFF"))
