"""Databases opened as the bot opens them (`bot.store.backends.open_database`, the one way in),
and the same database opened again, as another process would (tests on both backends).

The wall clock is the default here: it only names a pre-migration backup and paces a retry's
back-off; a test about time hands its own ManualClock.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from bot.dburl import PostgresTarget, SqliteTarget
from bot.domain.clock import Clock, SystemClock
from bot.store.backends import BUSY_TIMEOUT_MS, open_database
from bot.store.database import Database
from bot.store.sqlite import SqliteDatabase

if TYPE_CHECKING:
    from bot.store.postgres.database import PostgresDatabase


async def open_sqlite(
    path: Path,
    *,
    clock: Clock | None = None,
    create: bool = True,
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
) -> SqliteDatabase:
    """The SQLite database at `path`, its schema brought up to date."""
    db = await open_database(
        SqliteTarget(path),
        clock=clock or SystemClock(),
        create=create,
        busy_timeout_ms=busy_timeout_ms,
    )
    assert isinstance(db, SqliteDatabase)
    return db


async def open_postgres(
    url: str,
    *,
    clock: Clock | None = None,
    create: bool = True,
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
) -> PostgresDatabase:
    """The PostgreSQL database at `url`, its schema brought up to date."""
    from bot.store.postgres.database import PostgresDatabase  # psycopg: the postgresql extra

    db = await open_database(
        PostgresTarget(url),
        clock=clock or SystemClock(),
        create=create,
        busy_timeout_ms=busy_timeout_ms,
    )
    assert isinstance(db, PostgresDatabase)
    return db


async def open_again(db: Database) -> Database:
    """Another `Database` on `db`'s storage: its own writer and readers, as in another process."""
    if isinstance(db, SqliteDatabase):
        return await open_sqlite(db.path)
    from bot.store.postgres.database import PostgresDatabase

    assert isinstance(db, PostgresDatabase)
    return await open_postgres(db.url)
