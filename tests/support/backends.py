"""The same database opened again, as another process would (tests on both backends)."""

from __future__ import annotations

from bot.store.database import Database, SqliteDatabase


async def open_again(db: Database) -> Database:
    """Another `Database` on `db`'s storage: its own writer and readers, as in another process."""
    if isinstance(db, SqliteDatabase):
        return await Database.open(db.path)
    from bot.store.postgres.database import PostgresDatabase

    assert isinstance(db, PostgresDatabase)
    return await PostgresDatabase.connect(db.url)
