"""Opening the database the settings name: SQLite (the default) or PostgreSQL (issue 15).

`target` is a PostgreSQL URL or a SQLite file's path: `DatabaseSettings.target`, which the
command line hands in (the store reads no settings itself).
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

from bot import dburl
from bot.domain.clock import Clock
from bot.store.errors import StoreError
from bot.store.sql import Database


async def open_database(
    target: str | Path,
    *,
    create: bool = True,
    busy_timeout_ms: int = 5_000,
    clock: Clock | None = None,
) -> Database:
    """The database at `target`, its schema brought up to date; a write waits
    `busy_timeout_ms` for another's write lock before the store answers "busy"."""
    if isinstance(target, str):
        dburl.parse(target)  # a URL libpq cannot read is refused in words, never echoed
        try:
            from bot.store.postgres.database import PostgresDatabase
        except ImportError as exc:  # psycopg, from the postgresql extra
            raise StoreError(_NEEDS_PSYCOPG.format(exc)) from None
        return await PostgresDatabase.connect(
            target, create=create, busy_timeout_ms=busy_timeout_ms, clock=clock
        )
    return await Database.open(target, create=create, busy_timeout_ms=busy_timeout_ms, clock=clock)


def instance_lock(target: str | Path, *, shared: bool) -> AbstractContextManager[Any]:
    """The lock that keeps one bot per database: a file lock beside a SQLite file, an advisory
    lock on PostgreSQL. Shard processes take it `shared` (they share the database by design),
    never beside an unsharded bot."""
    if isinstance(target, str):
        dburl.parse(target)
        try:
            from bot.store.postgres.lock import PostgresInstanceLock
        except ImportError as exc:  # psycopg, from the postgresql extra
            raise StoreError(_NEEDS_PSYCOPG.format(exc)) from None
        return PostgresInstanceLock(target, shared=shared)
    from bot.store.lock import InstanceLock

    return InstanceLock(target, shared=shared)


_NEEDS_PSYCOPG = "a postgresql:// database needs psycopg: pip install 'laurel[postgresql]' ({})"


def shown(target: str | Path) -> str:
    """The database `target` names, as a message shows it: a file's path, a URL's password left
    out."""
    return dburl.shown(target) if isinstance(target, str) else str(target)
