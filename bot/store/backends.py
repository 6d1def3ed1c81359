"""Opening the database the settings name: SQLite (the default) or PostgreSQL (issue 15)."""

from __future__ import annotations

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
