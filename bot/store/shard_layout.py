"""The shard layout in the database (issue 22): one shard count for every process on it, each
shard run by one live process, and the shards nobody runs (with the subscriptions they hold).

A shard process claims its shards at start and renews the claim while it runs (`claim` again);
a claim not renewed expires, so a process killed outright frees its shards by itself. The count
changes only when no live process runs under the old one.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass

from bot.domain.shards import Shards
from bot.errors import StoreError
from bot.store.database import Database
from bot.store.sql import Connection
from bot.store.subscriptions import on_shards


class ShardLayoutError(StoreError):
    """This process's shards do not fit the layout the live processes run; said in one line."""


@dataclass(frozen=True, slots=True)
class Unowned:
    """Shards of the layout no live process runs, and the active subscriptions on them."""

    shards: tuple[int, ...]
    count: int
    waiting: int

    def __str__(self) -> str:
        if not self.shards:
            return f"every shard of {self.count} is run"
        return (
            f"shard(s) {ranges(self.shards)} of {self.count} run by no live process: "
            f"{self.waiting} subscription(s) waiting"
        )


class ShardLayout:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def claim(
        self,
        shards: Shards,
        holder: str,
        *,
        now: dt.datetime,
        ttl: dt.timedelta,
        gone: Callable[[str], bool] = lambda holder: False,
    ) -> None:
        """Record `shards` as `holder`'s until `now + ttl` (again: renewed); ShardLayoutError if
        live processes run another count, or any of these shards. A claim whose holder `gone`
        says has ended (a process of this host no longer running) counts as expired."""

        def write(conn: Connection) -> None:
            live = _stamp(now)
            claims = conn.execute(
                "SELECT shard, holder FROM shard_claims WHERE holder <> ? AND expires > ? "
                "ORDER BY shard",
                (holder, live),
            ).fetchall()
            others = [r for r in claims if not gone(str(r[1]))]
            row = conn.execute("SELECT shard_count FROM shard_layout WHERE id = 1").fetchone()
            recorded = None if row is None else int(row[0])
            who = ", ".join(sorted({str(r[1]) for r in others}))
            if recorded not in (None, shards.count) and others:
                raise ShardLayoutError(
                    f"the processes running on this database ({who}) run {recorded} shards; "
                    f"this one was started with {shards.count}: use --shard-count {recorded}, "
                    "or stop them all to change the count"
                )
            taken = [int(r[0]) for r in others if int(r[0]) in shards.ids]
            if taken:
                mine = {str(r[1]) for r in others if int(r[0]) in shards.ids}
                raise ShardLayoutError(
                    f"shard(s) {ranges(taken)} of {shards.count} already run in another live "
                    f"process ({', '.join(sorted(mine))}): each shard runs in one process"
                )
            if recorded != shards.count:
                conn.execute("DELETE FROM shard_claims")  # the old count's, none of them live
                conn.execute(
                    "INSERT INTO shard_layout (id, shard_count) VALUES (1, ?) "
                    "ON CONFLICT (id) DO UPDATE SET shard_count = excluded.shard_count",
                    (shards.count,),
                )
            conn.execute(
                "DELETE FROM shard_claims WHERE holder = ? OR expires <= ?", (holder, live)
            )
            for ended in {str(r[1]) for r in claims} - {str(r[1]) for r in others}:
                conn.execute("DELETE FROM shard_claims WHERE holder = ?", (ended,))
            until = _stamp(now + ttl)
            conn.executemany(
                "INSERT INTO shard_claims (shard, holder, expires) VALUES (?, ?, ?)",
                [(shard, holder, until) for shard in shards.ids],
            )

        await self._db.write(write)

    async def release(self, holder: str) -> None:
        """Give up `holder`'s shards (a clean stop): others see them unowned at once."""

        def write(conn: Connection) -> None:
            conn.execute("DELETE FROM shard_claims WHERE holder = ?", (holder,))

        await self._db.write(write)

    async def count(self) -> int | None:
        row = await self._db.fetchone("SELECT shard_count FROM shard_layout WHERE id = 1")
        return None if row is None else int(row[0])

    async def unowned(self, *, now: dt.datetime) -> Unowned | None:
        """The recorded layout's shards no live process claims, with the active subscriptions
        on them; None where no layout is recorded (no shard process ever ran)."""
        count = await self.count()
        if count is None:
            return None
        rows = await self._db.fetchall(
            "SELECT shard FROM shard_claims WHERE expires > ?", (_stamp(now),)
        )
        owned = {int(r[0]) for r in rows}
        missing = tuple(s for s in range(count) if s not in owned)
        if not missing:
            return Unowned((), count, 0)
        condition, params = on_shards(Shards(missing, count))
        row = await self._db.fetchone(
            f"SELECT count(*) FROM subscriptions WHERE status = 'active' AND {condition}",  # noqa: S608
            params,
        )
        return Unowned(missing, count, int(row[0]) if row is not None else 0)


def ranges(ids: tuple[int, ...] | list[int]) -> str:
    """Sorted ids as ranges: 0-1,5."""
    spans: list[list[int]] = []
    for i in sorted(ids):
        if spans and i == spans[-1][1] + 1:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def _stamp(at: dt.datetime) -> str:
    return at.astimezone(dt.UTC).isoformat(timespec="microseconds")
