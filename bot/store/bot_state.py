"""What the bot remembers about itself between runs (not catalogue data, so not audited), and
the leases by which one of several processes on one database does a job alone."""

from __future__ import annotations

import datetime as dt
import json

from bot.store.database import Database
from bot.store.sql import Connection, Dialect

_LEASE = "lease:"
# A lease's holder, read from its JSON value: each engine has its own JSON functions.
_RELEASE: dict[Dialect, str] = {
    "sqlite": "DELETE FROM bot_state WHERE key = ? AND json_extract(value, '$.holder') = ?",
    "postgresql": "DELETE FROM bot_state WHERE key = ? AND value::json ->> 'holder' = ?",
}


class BotStateRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, key: str) -> str | None:
        row = await self._db.fetchone("SELECT value FROM bot_state WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def put(self, key: str, value: str) -> None:
        def write(conn: Connection) -> None:
            _put(conn, key, value)

        await self._db.write(write)

    async def take_lease(
        self, name: str, holder: str, *, now: dt.datetime, ttl: dt.timedelta
    ) -> bool:
        """Hold `name` until `now + ttl`, unless another holder's lease on it is still running.

        Read and written in one write transaction (`BEGIN IMMEDIATE`: the database's write
        lock), so of several processes asking at once exactly one gets it. A holder that dies
        holding it loses it when it expires; asking again while holding it extends it.
        """
        key = _LEASE + name

        def write(conn: Connection) -> bool:
            row = conn.execute("SELECT value FROM bot_state WHERE key = ?", (key,)).fetchone()
            if row is not None:
                held = json.loads(row[0])
                running = dt.datetime.fromisoformat(held["expires"]) > now
                if running and held["holder"] != holder:
                    return False
            lease = {"holder": holder, "expires": (now + ttl).isoformat()}
            _put(conn, key, json.dumps(lease, sort_keys=True))
            return True

        return await self._db.write(write)

    async def release_lease(self, name: str, holder: str) -> None:
        """Give `name` up, if `holder` holds it (a lease taken over since is left alone)."""

        def write(conn: Connection) -> None:
            conn.execute(_RELEASE[conn.dialect], (_LEASE + name, holder))

        await self._db.write(write)


def _put(conn: Connection, key: str, value: str) -> None:
    conn.execute(
        """
        INSERT INTO bot_state (key, value) VALUES (?, ?)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value
        """,
        (key, value),
    )
