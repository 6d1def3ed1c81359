"""The digest delivery ledger: one row per (subscription, period), reserved before sending.

A reservation also records what the post shows and advances the subscription's picker state
(its shuffled cycle, its new-awards watermark) in the same transaction, so a crash can never
show a paper without the cycle knowing, nor advance the cycle without a row to settle.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from collections.abc import Sequence
from typing import Any

from bot.domain.ledger import Chooser, LedgerEntry
from bot.domain.shards import Shards
from bot.domain.subscriptions import CycleState
from bot.store.batch import GroupCommit
from bot.store.database import Database
from bot.store.sql import Connection, Row
from bot.store.subscriptions import on_shards


def _when(value: str | None) -> dt.datetime | None:
    return None if value is None else dt.datetime.fromisoformat(value)


def _entry(row: Row) -> LedgerEntry:
    return LedgerEntry(
        id=row["id"],
        subscription_id=row["subscription_id"],
        period=row["period"],
        status=row["status"],
        theme=row["theme"],
        late=bool(row["late"]),
        nonce=row["nonce"],
        content=json.loads(row["content"]),
        reserved_at=dt.datetime.fromisoformat(row["reserved_at"]),
        attempted_at=_when(row["attempted_at"]),
        sent_at=_when(row["sent_at"]),
        message_id=row["message_id"],
        error=row["error"],
    )


def _read_cycle(conn: Connection, sub_id: int) -> CycleState:
    row = conn.execute(
        "SELECT cycle, shown FROM digest_cycles WHERE subscription_id = ?", (sub_id,)
    ).fetchone()
    return CycleState() if row is None else CycleState(row[0], tuple(json.loads(row[1])))


class LedgerRepository:
    def __init__(self, db: Database) -> None:
        self._db = db
        # Reservations and marks of posts in flight are committed together (group commit);
        # each call still returns only once its own write is committed.
        self.writes = GroupCommit(db)

    async def reserve(
        self,
        sub_id: int,
        period: str,
        theme: str,
        *,
        late: bool,
        now: dt.datetime,
        choose: Chooser,
    ) -> tuple[LedgerEntry, bool]:
        """The row for (subscription, period) and whether this call made it.

        An existing row is returned untouched (and `choose` is not called): whoever made it
        owns the post. A new row is "pending", or "empty" when `choose` found nothing.
        """

        def write(conn: Connection) -> tuple[LedgerEntry, bool]:
            found = conn.execute(
                "SELECT * FROM digest_ledger WHERE subscription_id = ? AND period = ?",
                (sub_id, period),
            ).fetchone()
            if found is not None:
                return _entry(found), False
            mark = conn.execute(
                "SELECT audit_watermark FROM subscriptions WHERE id = ?", (sub_id,)
            ).fetchone()
            if mark is None:
                raise LookupError(f"no subscription {sub_id}")
            choice = choose(_read_cycle(conn, sub_id), int(mark[0]))
            salt = secrets.token_hex(3)
            row_id = conn.execute(
                """
                INSERT INTO digest_ledger
                    (subscription_id, period, status, theme, late, nonce, content, reserved_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                RETURNING id
                """,
                (
                    sub_id,
                    period,
                    "pending" if choice.content else "empty",
                    theme,
                    int(late),
                    f"tmp-{salt}",
                    json.dumps(choice.content, sort_keys=True),
                    now.isoformat(),
                ),
            ).fetchone()[0]
            # The nonce names the row (Discord allows 25 characters: "L" + id + salt fits).
            conn.execute(
                "UPDATE digest_ledger SET nonce = ? WHERE id = ?", (f"L{row_id}-{salt}", row_id)
            )
            if choice.cycle is not None:
                conn.execute(
                    """
                    INSERT INTO digest_cycles (subscription_id, cycle, shown) VALUES (?, ?, ?)
                    ON CONFLICT (subscription_id)
                    DO UPDATE SET cycle = excluded.cycle, shown = excluded.shown
                    """,
                    (sub_id, choice.cycle.cycle, json.dumps(list(choice.cycle.shown))),
                )
            if choice.watermark is not None:
                conn.execute(
                    "UPDATE subscriptions SET audit_watermark = ? WHERE id = ?",
                    (choice.watermark, sub_id),
                )
            made = conn.execute("SELECT * FROM digest_ledger WHERE id = ?", (row_id,)).fetchone()
            return _entry(made), True

        return await self.writes.write(write)

    async def get(self, entry_id: int) -> LedgerEntry | None:
        row = await self._db.fetchone("SELECT * FROM digest_ledger WHERE id = ?", (entry_id,))
        return None if row is None else _entry(row)

    async def find(self, sub_id: int, period: str) -> LedgerEntry | None:
        row = await self._db.fetchone(
            "SELECT * FROM digest_ledger WHERE subscription_id = ? AND period = ?",
            (sub_id, period),
        )
        return None if row is None else _entry(row)

    async def held(self, sub_id: int, periods: Sequence[str]) -> dict[str, str]:
        """Which of `periods` the subscription's ledger already has a row for, with the row's
        status (whatever it is, a row is that period's post, made or being made)."""
        if not periods:
            return {}
        marks = ", ".join("?" * len(periods))
        found = await self._db.fetchall(
            "SELECT period, status FROM digest_ledger"  # noqa: S608 (only marks)
            f" WHERE subscription_id = ? AND period IN ({marks})",
            (sub_id, *periods),
        )
        return {str(r[0]): str(r[1]) for r in found}

    async def of_subscription(self, sub_id: int) -> list[LedgerEntry]:
        found = await self._db.fetchall(
            "SELECT * FROM digest_ledger WHERE subscription_id = ? ORDER BY id", (sub_id,)
        )
        return [_entry(r) for r in found]

    async def last_sent(self, sub_id: int) -> LedgerEntry | None:
        """The subscription's latest post that was sent (its code is for admins to see)."""
        row = await self._db.fetchone(
            "SELECT * FROM digest_ledger WHERE subscription_id = ? AND status = 'sent'"
            " ORDER BY id DESC LIMIT 1",
            (sub_id,),
        )
        return None if row is None else _entry(row)

    async def periods_since(self, since: dt.datetime) -> set[tuple[int, str]]:
        """(subscription, period) of every row reserved since `since`."""
        found = await self._db.fetchall(
            "SELECT subscription_id, period FROM digest_ledger WHERE reserved_at >= ?",
            (since.isoformat(),),
        )
        return {(int(r[0]), str(r[1])) for r in found}

    async def pending(self, shards: Shards | None = None) -> list[LedgerEntry]:
        """Rows left pending: those of the guilds on `shards` only, when given (a sharded
        process settles its own; another's are that one's to settle)."""
        if shards is None:
            found = await self._db.fetchall(
                "SELECT * FROM digest_ledger WHERE status = 'pending' ORDER BY id"
            )
            return [_entry(r) for r in found]
        ours, params = on_shards(shards, "s.guild_id")
        found = await self._db.fetchall(
            "SELECT l.* FROM digest_ledger AS l JOIN subscriptions AS s"  # noqa: S608 (constant)
            f" ON s.id = l.subscription_id WHERE l.status = 'pending' AND {ours} ORDER BY l.id",
            params,
        )
        return [_entry(r) for r in found]

    async def pending_count(self) -> int:
        row = await self._db.fetchone("SELECT count(*) FROM digest_ledger WHERE status = 'pending'")
        return 0 if row is None else int(row[0])

    async def cycle_state(self, sub_id: int) -> CycleState:
        row = await self._db.fetchone(
            "SELECT cycle, shown FROM digest_cycles WHERE subscription_id = ?", (sub_id,)
        )
        return CycleState() if row is None else CycleState(row[0], tuple(json.loads(row[1])))

    async def attempted(self, entry_id: int, at: dt.datetime) -> None:
        await self._set(entry_id, "attempted_at = ?", (at.isoformat(),))

    async def mark_sent(self, entry_id: int, message_id: int, at: dt.datetime) -> None:
        await self._set(
            entry_id,
            "status = 'sent', message_id = ?, sent_at = ?, error = NULL",
            (message_id, at.isoformat()),
        )

    async def mark_failed(self, entry_id: int, error: str, at: dt.datetime) -> None:
        await self._set(
            entry_id, "status = 'failed', error = ?, attempted_at = ?", (error, at.isoformat())
        )

    async def note_error(self, entry_id: int, error: str) -> None:
        """An attempt failed but the row stays pending: the next start settles it."""
        await self._set(entry_id, "error = ?", (error,))

    async def _set(self, entry_id: int, assignments: str, params: tuple[Any, ...]) -> None:
        def write(conn: Connection) -> None:
            conn.execute(
                f"UPDATE digest_ledger SET {assignments} WHERE id = ?",  # noqa: S608 (constant)
                (*params, entry_id),
            )

        await self.writes.write(write)
