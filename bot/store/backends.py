"""Opening the database the settings name: SQLite (the default) or PostgreSQL (issue 15)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from typing import Any

from bot.domain.clock import Clock
from bot.settings import DatabaseSettings
from bot.store.errors import StoreError
from bot.store.sql import Database


async def open_database(
    settings: DatabaseSettings, *, create: bool = True, clock: Clock | None = None
) -> Database:
    """The database at [database] url (or path), its schema brought up to date; a write waits
    [database] busy_timeout_ms for another's write lock before the store answers "busy"."""
    if (url := settings.postgresql) is not None:
        try:
            from bot.store.postgres.database import PostgresDatabase
        except ImportError as exc:  # psycopg, from the postgresql extra
            raise StoreError(
                f"a postgresql:// database needs psycopg: pip install 'laurel[postgresql]' ({exc})"
            ) from None
        return await PostgresDatabase.connect(
            url, create=create, busy_timeout_ms=settings.busy_timeout_ms, clock=clock
        )
    return await Database.open(
        settings.sqlite_path, create=create, busy_timeout_ms=settings.busy_timeout_ms, clock=clock
    )


def instance_lock(settings: DatabaseSettings, *, shared: bool) -> AbstractContextManager[Any]:
    """The lock that keeps one bot per database: a file lock beside a SQLite file, an advisory
    lock on PostgreSQL. Shard processes take it `shared` (they share the database by design),
    never beside an unsharded bot."""
    if (url := settings.postgresql) is not None:
        from bot.store.postgres.lock import PostgresInstanceLock

        return PostgresInstanceLock(url, shared=shared)
    from bot.store.lock import InstanceLock

    return InstanceLock(settings.sqlite_path, shared=shared)
