"""What the bot remembers about itself between runs (not catalogue data, so not audited)."""

from __future__ import annotations

import sqlite3

from bot.store.database import Database


class BotStateRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, key: str) -> str | None:
        row = await self._db.fetchone("SELECT value FROM bot_state WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def put(self, key: str, value: str) -> None:
        def write(conn: sqlite3.Connection) -> None:
            conn.execute(
                """
                INSERT INTO bot_state (key, value) VALUES (?, ?)
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """,
                (key, value),
            )

        await self._db.write(write)
