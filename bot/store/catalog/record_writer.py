"""Writing records one at a time inside an open transaction: each under a savepoint, with its
audit row, or rejected with a reason and nothing left behind (`bot.store.catalog.writer` and
`bot.store.catalog.edits` build on it)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from bot.domain.models import Rejection
from bot.domain.plan import Action, Change, Entity
from bot.domain.writes import WriteContext
from bot.store import rows
from bot.store.catalog.curated import curated_fields
from bot.store.sql import Connection, integrity_errors

# The tables whose rows have an `id` an insert returns (venues are keyed by `key`).
_ID_TABLES = frozenset({"editions", "papers", "awards"})


class Rejected(Exception):
    """A record that cannot be written as it is; the message says why (in English), and
    `key` and `params` name the message a member reads (`rejected-<key>`)."""

    def __init__(self, message: str, /, *, key: str, **params: str | int) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


class KeptRemoved(Exception):
    """Under `bundle`: a record a curator removed, which the bundled catalogue still has."""


# What undoes one record alone: a rejection, a record kept removed, or a broken constraint
# (unique, check, foreign key) on either engine.
_UNDONE_ALONE: tuple[type[Exception], ...] = (Rejected, KeptRemoved, *integrity_errors())


class RecordWriter:
    """Writes records one by one inside the open transaction, each under a savepoint, and keeps
    what became of them (`changes`, `rejected`) for the write's `Plan`."""

    def __init__(self, conn: Connection, context: WriteContext) -> None:
        self.conn = conn
        self.context = context
        self.changes: list[Change] = []
        self.rejected: list[Rejection] = []
        # Search-index rows are written once, after the last record: FTS5 flushes its pending
        # data at every savepoint, which made each record's savepoint ~4x dearer.
        self._to_index: list[tuple[int, dict[str, Any]]] = []

    def record(self, where: str, write: Callable[[], None]) -> None:
        """Write one record under a savepoint; on failure undo it alone and say why."""
        self.conn.execute("SAVEPOINT record")
        marks = len(self.changes), len(self._to_index)
        try:
            write()
        except _UNDONE_ALONE as exc:
            self.conn.execute("ROLLBACK TO record")
            del self.changes[marks[0] :]
            del self._to_index[marks[1] :]
            if isinstance(exc, KeptRemoved):
                self.changes.append(Change("unchanged", "award", f"{where}: {exc}"))
            else:
                key, params = (
                    (exc.key, exc.params) if isinstance(exc, Rejected) else ("conflict", {})
                )
                self.rejected.append(
                    Rejection(where=where, reason=str(exc), key=key, params=params)
                )
        self.conn.execute("RELEASE record")

    def flush_index(self) -> None:
        """Write the FTS5 rows of the papers written (SQLite's; PostgreSQL has no FTS5, and
        the derived index follows the audit instead)."""
        if self.conn.dialect != "sqlite":
            self._to_index.clear()
            return
        latest = dict(self._to_index)  # a paper written twice in one batch: its last version
        self.conn.executemany(
            "DELETE FROM paper_search WHERE rowid = ?", [(paper_id,) for paper_id in latest]
        )
        self.conn.executemany(
            """
            INSERT INTO paper_search (rowid, title, authors, affiliations, summaries, abstract)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [(paper_id, *rows.search_document(paper)) for paper_id, paper in latest.items()],
        )
        self._to_index.clear()

    def _curated(self, entity: Entity, entity_id: str) -> frozenset[str]:
        if self.context.policy != "bundle":
            return frozenset()
        return curated_fields(self.conn, entity, entity_id, self.context.actor)

    def _one(self, sql: str, value: str | int | None) -> int | None:
        if value is None:
            return None
        row = self.conn.execute(sql, (value,)).fetchone()
        return None if row is None else int(row[0])

    # -- writing and auditing ----------------------------------------------------------

    def _insert(self, table: str, values: dict[str, Any]) -> int:
        """Insert a row; its id (0 for a venue, which has none)."""
        columns = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        sql = f"INSERT INTO {table} ({columns}) VALUES ({marks})"  # noqa: S608
        params = [rows.to_column(k, v) for k, v in values.items()]
        if self.conn.dialect == "sqlite":  # lastrowid: no RETURNING to read on the hot path
            return int(self.conn.execute(sql, params).lastrowid or 0)
        if table not in _ID_TABLES:
            self.conn.execute(sql, params)
            return 0
        return int(self.conn.execute(f"{sql} RETURNING id", params).fetchone()[0])

    def _update(
        self,
        table: str,
        where: str,
        key: tuple[Any, ...],
        before: dict[str, Any],
        after: dict[str, Any],
    ) -> None:
        changed = {k: v for k, v in after.items() if before.get(k) != v}
        if not changed:
            return
        assignments = ", ".join(f"{column} = ?" for column in changed)
        self.conn.execute(
            f"UPDATE {table} SET {assignments} WHERE {where}",  # noqa: S608
            [*(rows.to_column(k, v) for k, v in changed.items()), *key],
        )

    def _note(
        self,
        action: Action,
        entity: Entity,
        entity_id: str,
        label: str,
        before: dict[str, Any] | None,
        after: dict[str, Any],
    ) -> None:
        if before is not None:
            fields = tuple(k for k in after if before.get(k) != after[k])
            if not fields:
                self.changes.append(Change("unchanged", entity, label))
                return
        else:
            fields = ()
        self.changes.append(Change(action, entity, label, fields))
        self.conn.execute(
            """
            INSERT INTO audit (at, actor, batch, action, entity, entity_id, before, after)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            (
                self.context.stamp,
                self.context.actor,
                self.context.batch_id,
                action,
                entity,
                entity_id,
                None if before is None else json.dumps(before, ensure_ascii=False),
                json.dumps(after, ensure_ascii=False),
            ),
        )
