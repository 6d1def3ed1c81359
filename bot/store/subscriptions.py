"""Digest subscriptions in SQLite: the schedule of every themed post, per channel."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from bot.domain.shards import Shards
from bot.domain.subscriptions import (
    MAX_SUBSCRIPTIONS_PER_GUILD,
    Cadence,
    DigestFilter,
    PausedReason,
    ScheduledRow,
    Status,
    Subscription,
    Timing,
)
from bot.errors import UserError
from bot.store.database import Database
from bot.store.sql import Connection, Row

_NAMES = (
    "guild_id", "channel_id", "theme", "cadence", "days", "time", "timezone", "language",
    "role_id", "filters", "status", "paused_reason", "created_by", "created_at",
)  # fmt: skip
_COLUMNS = ", ".join(_NAMES)
_PLACEHOLDERS = ", ".join(f":{name}" for name in _NAMES)


# Ids to a query in `by_ids`: well under SQLite's 32,766 bound parameters.
_IDS_AT_ONCE = 500
# Rows to a page in `active_timings` (a test of the paging hands in a smaller page).
PAGE = 1_000


def on_shards(shards: Shards | None, guild: str = "guild_id") -> tuple[str, dict[str, int]]:
    """A condition (and its named parameters) true for rows whose guild `shards` carry:
    `(guild_id >> 22) % shard_count` among the ids; always true for None (not sharded)."""
    if shards is None:
        return "TRUE", {}
    names = [f":shard_{i}" for i in range(len(shards.ids))]
    params = {f"shard_{i}": shard for i, shard in enumerate(shards.ids)}
    condition = f"(({guild} >> 22) % :shard_count) IN ({', '.join(names)})"
    return condition, {**params, "shard_count": shards.count}


def days_mask(days: frozenset[int]) -> int:
    return sum(1 << day for day in days)


def mask_days(mask: int) -> frozenset[int]:
    return frozenset(day for day in range(7) if mask & (1 << day))


def _params(sub: Subscription) -> dict[str, Any]:
    """The stored row's values by column name, in the order of `_NAMES`."""
    return {
        "guild_id": sub.guild_id,
        "channel_id": sub.channel_id,
        "theme": sub.theme,
        "cadence": sub.cadence.value,
        "days": days_mask(sub.days),
        "time": sub.time.strftime("%H:%M"),
        "timezone": sub.timezone,
        "language": sub.language,
        "role_id": sub.role_id,
        "filters": sub.filters.model_dump_json(exclude_none=True),
        "status": sub.status,
        "paused_reason": sub.paused_reason,
        "created_by": sub.created_by,
        "created_at": sub.created_at.isoformat(),
    }


def fingerprint(sub: Subscription) -> int:
    """A number that changes whenever the stored subscription does (equal to the one
    `active_timings` gives for its row): the digest schedule keeps it instead of the model."""
    return hash((sub.id, *(_params(sub)[name] for name in _NAMES)))


def _scheduled(row: Row) -> ScheduledRow:
    return ScheduledRow(
        id=row["id"],
        fingerprint=hash(tuple(row)),
        timing=Timing(
            Cadence(row["cadence"]),
            mask_days(row["days"]),
            dt.time.fromisoformat(row["time"]),
            row["timezone"],
        ),
        created_at=dt.datetime.fromisoformat(row["created_at"]),
    )


def subscription_model(row: Row) -> Subscription:
    return Subscription(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        theme=row["theme"],
        cadence=row["cadence"],
        days=mask_days(row["days"]),
        time=dt.time.fromisoformat(row["time"]),
        timezone=row["timezone"],
        language=row["language"],
        role_id=row["role_id"],
        filters=DigestFilter.model_validate_json(row["filters"]),
        status=row["status"],
        paused_reason=row["paused_reason"],
        created_by=row["created_by"],
        created_at=dt.datetime.fromisoformat(row["created_at"]),
    )


class SubscriptionRepository:
    def __init__(self, db: Database, *, page: int = PAGE) -> None:
        self._db = db
        self._page = page

    async def add(self, sub: Subscription) -> Subscription:
        """Store a new subscription; a guild holds at most 25 (a `UserError` beyond that).

        Its new-awards watermark starts at the newest audit row: what is already in the
        catalogue (the bundled import above all) is not news to this channel.
        """

        def write(conn: Connection) -> int:
            (count,) = conn.execute(
                "SELECT count(*) FROM subscriptions WHERE guild_id = ?", (sub.guild_id,)
            ).fetchone()
            if count >= MAX_SUBSCRIPTIONS_PER_GUILD:
                raise UserError("digests-too-many", limit=MAX_SUBSCRIPTIONS_PER_GUILD)
            (new_id,) = conn.execute(
                f"""
                INSERT INTO subscriptions ({_COLUMNS}, audit_watermark)
                VALUES ({_PLACEHOLDERS}, (SELECT ifnull(max(id), 0) FROM audit))
                RETURNING id
                """,  # noqa: S608 (constant column and parameter lists)
                _params(sub),
            ).fetchone()
            return int(new_id)

        new_id = await self._db.write(write)
        return sub.model_copy(update={"id": new_id})

    async def get(self, sub_id: int) -> Subscription | None:
        row = await self._db.fetchone("SELECT * FROM subscriptions WHERE id = ?", (sub_id,))
        return None if row is None else subscription_model(row)

    async def in_guild(self, guild_id: int) -> list[Subscription]:
        found = await self._db.fetchall(
            "SELECT * FROM subscriptions WHERE guild_id = ? ORDER BY id", (guild_id,)
        )
        return [subscription_model(r) for r in found]

    async def active(self) -> list[Subscription]:
        found = await self._db.fetchall(
            "SELECT * FROM subscriptions WHERE status = 'active' ORDER BY id"
        )
        return [subscription_model(r) for r in found]

    async def active_timings(self, shards: Shards | None = None) -> list[ScheduledRow]:
        """Every active subscription's id, fingerprint and timing (of the guilds on `shards`
        only, when given), without building models:
        what the digest schedule holds for 10,000 subscriptions is a few MiB, not 30. Read
        a page at a time, so that the rows alive at once (and the memory they leave
        fragmented behind them) stay a page's worth, not 10,000."""
        found: list[ScheduledRow] = []
        after = 0
        ours, shard_params = on_shards(shards)
        while True:
            rows = await self._db.fetchall(
                f"SELECT id, {_COLUMNS} FROM subscriptions"  # noqa: S608 (constant columns)
                f" WHERE status = 'active' AND {ours} AND id > :after ORDER BY id LIMIT :page",
                {**shard_params, "after": after, "page": self._page},
            )
            found += [_scheduled(row) for row in rows]
            if len(rows) < self._page:
                return found
            after = rows[-1]["id"]

    async def by_ids(self, ids: Sequence[int]) -> dict[int, Subscription]:
        """The stored subscriptions among `ids`, by id (those removed since are missing)."""
        found: dict[int, Subscription] = {}
        for start in range(0, len(ids), _IDS_AT_ONCE):
            chunk = ids[start : start + _IDS_AT_ONCE]
            marks = ", ".join("?" * len(chunk))
            rows = await self._db.fetchall(
                f"SELECT * FROM subscriptions WHERE id IN ({marks})",  # noqa: S608 (only marks)
                tuple(chunk),
            )
            found.update((row["id"], subscription_model(row)) for row in rows)
        return found

    async def update(self, sub: Subscription) -> Subscription:
        """Replace the stored subscription `sub.id` with `sub` (its guild and creator stay)."""
        if sub.id is None:
            raise ValueError("update needs a stored subscription")
        return await self._update_one(
            """
            UPDATE subscriptions
            SET channel_id = :channel_id, theme = :theme, cadence = :cadence,
                days = :days, time = :time, timezone = :timezone, language = :language,
                role_id = :role_id, filters = :filters, status = :status,
                paused_reason = :paused_reason
            WHERE id = :id
            """,
            {**_params(sub), "id": sub.id},
        )

    async def set_status(
        self, sub_id: int, status: Status, reason: PausedReason | None
    ) -> Subscription:
        """Pause (with a reason) or resume; raises LookupError for an unknown id."""
        if (status == "paused") != (reason is not None):
            raise ValueError("a pause needs a reason, and only a pause has one")
        return await self._update_one(
            "UPDATE subscriptions SET status = :status, paused_reason = :reason WHERE id = :id",
            {"status": status, "reason": reason, "id": sub_id},
        )

    async def _update_one(self, sql: str, params: dict[str, Any]) -> Subscription:
        """Run an UPDATE of the subscription `params["id"]`, and read it back as stored;
        LookupError if there is no such subscription."""
        sub_id: int = params["id"]

        def write(conn: Connection) -> bool:
            return conn.execute(sql, params).rowcount == 1

        if not await self._db.write(write):
            raise LookupError(f"no subscription {sub_id}")
        stored = await self.get(sub_id)
        assert stored is not None
        return stored

    async def pause_channel(self, channel_id: int, reason: PausedReason) -> list[Subscription]:
        """Pause every active subscription of a channel Laurel may no longer post to.

        Returns only those this call paused, so whoever tells the admins tells them once.
        """

        def write(conn: Connection) -> list[int]:
            found = conn.execute(
                """
                UPDATE subscriptions SET status = 'paused', paused_reason = ?
                WHERE channel_id = ? AND status = 'active'
                RETURNING id
                """,
                (reason, channel_id),
            ).fetchall()
            return sorted(r[0] for r in found)

        paused = await self._db.write(write)
        subs = [await self.get(sub_id) for sub_id in paused]
        return [s for s in subs if s is not None]

    async def remove(self, sub_id: int) -> bool:
        def write(conn: Connection) -> bool:
            return conn.execute("DELETE FROM subscriptions WHERE id = ?", (sub_id,)).rowcount == 1

        return await self._db.write(write)

    async def audit_watermark(self, sub_id: int) -> int:
        row = await self._db.fetchone(
            "SELECT audit_watermark FROM subscriptions WHERE id = ?", (sub_id,)
        )
        return 0 if row is None else int(row["audit_watermark"])
