"""Curators' writes that a batch cannot say: set a paper to exact values, remove, revert.

`apply_batch` merges what it is given into what is stored, so it can neither clear a field nor
shrink a list, and it finds papers by identity (arXiv id, DOI, title in the edition), which an
edited title would defeat. These writes name the row instead. They run in the same transaction
machinery, under the same savepoint per record, and leave the same audit rows as every other
write (`RecordWriter` does both); removal is soft, so that an undo can bring a row back.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Literal

from bot.domain.audit import UndoRefused
from bot.domain.models import Award, Paper
from bot.domain.plan import Action, Entity
from bot.domain.text import title_key
from bot.domain.writes import WriteContext
from bot.store import rows
from bot.store.catalog.record_writer import Rejected
from bot.store.catalog.writer import CatalogWriter
from bot.store.sql import Connection

Removable = Literal["paper", "award"]
# entity -> table, stored fields, key column
_TABLES: dict[str, tuple[str, tuple[str, ...], str]] = {
    "paper": ("papers", rows.PAPER_FIELDS, "id"),
    "award": ("awards", rows.AWARD_FIELDS, "id"),
    "edition": ("editions", rows.EDITION_FIELDS, "id"),
    "venue": ("venues", rows.VENUE_FIELDS, "key"),
}
_SOFT = frozenset({"paper", "award"})  # the entities with a removed_at column


UNDO_BATCH = "undo-{change}-{nonce}"  # an undo's batch names the change it undid


def undo_batch(change: int, nonce: str) -> str:
    return UNDO_BATCH.format(change=change, nonce=nonce)


def undone(batch: str) -> int | None:
    """The change an undo's batch undid (None for any other write)."""
    parts = batch.split("-")
    if len(parts) == 3 and parts[0] == "undo" and parts[1].isdigit():
        return int(parts[1])
    return None


def standing_changes(change: int, later: list[tuple[int, str]]) -> list[int]:
    """Which of `change` and the `later` rows on its record still stand, oldest first: an
    undo takes back the newest standing change it names, and is then no obstacle itself (an
    undo of an undo stands, as it put the change back)."""
    standing = [change]
    for row_id, batch in later:
        target = undone(batch)
        if standing and target == standing[-1]:
            standing.pop()
        else:
            standing.append(row_id)
    return standing


class EditWriter(CatalogWriter):
    def add_award(self, paper_id: int, award: Award) -> None:
        """Give stored paper `paper_id` the award `award` (its `paper` is not written)."""
        self._live("paper", paper_id)
        self.award(award, paper_id)

    def replace_paper(self, paper_id: int, paper: Paper) -> None:
        """Set paper `paper_id` to exactly `paper`: cleared fields are cleared."""
        self._live("paper", paper_id)
        self._set("paper", str(paper_id), rows.values(paper, rows.PAPER_FIELDS), "change")

    def remove(self, entity: Removable, entity_id: int) -> None:
        self._live(entity, entity_id)
        current = self.current(entity, str(entity_id))
        assert current is not None  # _live found it
        self._set(entity, str(entity_id), {**current, "removed_at": self.context.stamp}, "remove")

    def revert(self, audit_id: int) -> None:
        """Undo audit row `audit_id`: its record goes back to what it was before that change."""
        row = self.conn.execute("SELECT * FROM audit WHERE id = ?", (audit_id,)).fetchone()
        if row is None:
            raise UndoRefused("unknown", change=audit_id)
        entity, entity_id = row["entity"], row["entity_id"]
        later = self.conn.execute(
            "SELECT id, batch FROM audit WHERE entity = ? AND entity_id = ? AND id > ? ORDER BY id",
            (entity, entity_id, audit_id),
        ).fetchall()
        standing = standing_changes(audit_id, [(r["id"], r["batch"]) for r in later])
        if audit_id not in standing:
            undone_by = next(r["id"] for r in later if undone(r["batch"]) == audit_id)
            raise UndoRefused("undone", change=audit_id, by=undone_by)
        if standing[-1] != audit_id:
            raise UndoRefused("later", change=audit_id, later=standing[-1])
        current = self.current(entity, entity_id)
        if current is None:
            raise UndoRefused("unknown", change=audit_id)
        if row["before"] is None:  # an addition: undone by removing what was added
            if entity not in _SOFT:
                raise UndoRefused("addition", change=audit_id, entity=entity)
            self._set(entity, entity_id, {**current, "removed_at": self.context.stamp}, "remove")
            return
        target = json.loads(row["before"])
        if entity in _SOFT:
            target.setdefault("removed_at", None)
        removing = bool(target.get("removed_at")) and not current.get("removed_at")
        self._set(entity, entity_id, target, "remove" if removing else "change")

    # -- reading and writing one record ------------------------------------------------------

    def current(self, entity: str, entity_id: str) -> dict[str, Any] | None:
        """The stored record as the audit holds it (with `removed_at` where rows have one)."""
        table, fields, key = _TABLES[entity]
        row = self.conn.execute(
            f"SELECT * FROM {table} WHERE {key} = ?",  # noqa: S608
            (entity_id,),
        ).fetchone()
        if row is None:
            return None
        stored = self._stored_paper(int(entity_id)) if entity == "paper" else None
        stored = stored or rows.from_row(row, fields)
        if entity in _SOFT:
            stored["removed_at"] = row["removed_at"]
        return stored

    def _live(self, entity: Removable, entity_id: int) -> None:
        table = _TABLES[entity][0]
        row = self.conn.execute(
            f"SELECT removed_at FROM {table} WHERE id = ?",  # noqa: S608
            (entity_id,),
        ).fetchone()
        if row is None or row["removed_at"] is not None:
            raise Rejected(
                f"{entity} #{entity_id} is not in the catalogue",
                key=f"missing-{entity}",
                id=entity_id,
            )

    def _set(self, entity: Entity, entity_id: str, target: dict[str, Any], action: Action) -> None:
        """Write `target` over the record (fields it lacks are cleared) and audit the change."""
        table, fields, key = _TABLES[entity]
        before = self.current(entity, entity_id)
        assert before is not None
        after = {field: _blank(target.get(field)) for field in fields}
        if entity in _SOFT:
            after["removed_at"] = target.get("removed_at")
        before = {field: _blank(value) for field, value in before.items()}
        columns = {k: v for k, v in after.items() if k not in rows.LIST_TABLES}
        if entity == "paper":
            columns["title_key"] = title_key(after["title"])
        self._update(table, f"{key} = ?", (entity_id,), before, columns)
        if entity == "paper":
            self._repaint_paper(int(entity_id), before, after)
        label = self._label(entity, entity_id, after)
        self._note(action, entity, entity_id, label, before, after)

    def _repaint_paper(self, paper_id: int, before: dict[str, Any], after: dict[str, Any]) -> None:
        self._write_lists(paper_id, after, before)
        if self.conn.dialect == "sqlite":  # FTS5's row (PostgreSQL's index follows the audit)
            self.conn.execute("DELETE FROM paper_search WHERE rowid = ?", (paper_id,))
        self._to_index = [(i, p) for i, p in self._to_index if i != paper_id]
        if after.get("removed_at") is None:  # a removed paper is not found by search
            self._index(paper_id, after)

    def _label(self, entity: str, entity_id: str, record: dict[str, Any]) -> str:
        if entity == "paper":
            return f"“{str(record['title'])[:60]}”"
        if entity == "award":
            return f"award #{entity_id}: {record.get('name') or ''}"
        if entity == "edition":
            found = self.conn.execute(
                "SELECT venue, year FROM editions WHERE id = ?", (entity_id,)
            ).fetchone()
            return f"{found['venue']} {found['year']}" if found else f"edition #{entity_id}"
        return entity_id


def _blank(value: Any) -> Any:
    """Empty lists and mappings are stored as absent: compare and audit them alike."""
    return None if value in ([], {}, ()) else value


def run_edit(
    conn: Connection,
    write: Callable[[EditWriter], None],
    context: WriteContext,
    *,
    where: str,
) -> EditWriter:
    """Run `write(writer)` as one audited record; its rejection, if any, is in the result."""
    writer = EditWriter(conn, context)
    writer.record(where, lambda: write(writer))
    writer.flush_index()
    return writer
