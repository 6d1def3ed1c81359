"""Opening a database: SQLite (the default) or PostgreSQL, as the parsed target says.

`target` is `DatabaseSettings.target` (or a target the command line parsed from a URL): the
store reads no settings itself, and the backend follows the target's kind, never the type of
an argument.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from bot.dburl import DatabaseTarget, PostgresTarget, SqliteTarget
from bot.domain.clock import Clock
from bot.errors import StoreError
from bot.store.database import Database

BUSY_TIMEOUT_MS = 5_000  # the default of [database] busy_timeout_ms


async def open_database(
    target: DatabaseTarget,
    *,
    clock: Clock,
    create: bool = True,
    busy_timeout_ms: int = BUSY_TIMEOUT_MS,
) -> Database:
    """The database at `target`, its schema brought up to date; a write waits
    `busy_timeout_ms` for another's write lock before the store answers "busy". `clock`
    stamps what opening writes (the pre-migration backup's name)."""
    match target:
        case SqliteTarget(path):
            from bot.store.sqlite import SqliteDatabase

            return await SqliteDatabase.open(
                path, create=create, busy_timeout_ms=busy_timeout_ms, clock=clock
            )
        case PostgresTarget(url):
            try:
                from bot.store.postgres.database import PostgresDatabase
            except ImportError as exc:  # psycopg, from the postgresql extra
                raise StoreError(_NEEDS_PSYCOPG.format(exc)) from None
            return await PostgresDatabase.connect(
                url, create=create, busy_timeout_ms=busy_timeout_ms, clock=clock
            )


def instance_lock(target: DatabaseTarget, *, shared: bool) -> AbstractContextManager[Any]:
    """The lock that keeps one bot per database: a file lock beside a SQLite file, an advisory
    lock on PostgreSQL. Shard processes take it `shared` (they share the database by design),
    never beside an unsharded bot."""
    match target:
        case SqliteTarget(path):
            from bot.store.lock import InstanceLock

            return InstanceLock(path, shared=shared)
        case PostgresTarget(url):
            try:
                from bot.store.postgres.lock import PostgresInstanceLock
            except ImportError as exc:  # psycopg, from the postgresql extra
                raise StoreError(_NEEDS_PSYCOPG.format(exc)) from None
            return PostgresInstanceLock(url, shared=shared)


_NEEDS_PSYCOPG = "a postgresql:// database needs psycopg: pip install 'laurel[postgresql]' ({})"
