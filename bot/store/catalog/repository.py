"""Writing the catalogue as a whole, and reading it back out as a document."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from bot.domain.clock import Clock
from bot.domain.models import Award, AwardKind, CatalogBatch, Paper
from bot.domain.plan import Plan
from bot.domain.writes import Policy, WriteContext
from bot.store import rows
from bot.store.catalog.edits import EditWriter, Removable, run_edit, undo_batch
from bot.store.catalog.writer import apply_batch
from bot.store.database import Database
from bot.store.sql import Connection


class CatalogRepository:
    """Every write to the catalogue, each in one transaction and audited; and the export.

    `clock` stamps the audit rows (and removals): the composition root hands in its own, tests
    a `ManualClock` (issue 26: required, so no caller stamps the wall clock by forgetting it).
    """

    def __init__(self, db: Database, clock: Clock) -> None:
        self._db = db
        self._clock = clock

    async def apply(
        self,
        batch: CatalogBatch,
        *,
        actor: str,
        policy: Policy,
        dry_run: bool = False,
        progress: Callable[[int], object] | None = None,
        new_papers_only: bool = False,
    ) -> Plan:
        """Write `batch` in one transaction (or, with `dry_run`, rehearse it and roll back)."""
        batch_id = uuid.uuid4().hex[:12]

        def write(conn: Connection) -> Plan:
            context = self._context(actor, policy, batch_id, new_papers_only=new_papers_only)
            return apply_batch(conn, batch, context, progress)

        return await (self._db.rehearse(write) if dry_run else self._db.write(write))

    async def add_award(
        self, paper_id: int, award: Award, *, actor: str, dry_run: bool = False
    ) -> Plan:
        """Give stored paper `paper_id` the award `award` (with `dry_run`: say what it would do)."""
        where = f"award {award.venue} {award.year} {award.kind.value} for paper #{paper_id}"
        return await self._edit(
            lambda w: w.add_award(paper_id, award), actor=actor, where=where, dry_run=dry_run
        )

    async def replace_paper(self, paper_id: int, paper: Paper, *, actor: str) -> Plan:
        """Set paper `paper_id` to exactly `paper` (a curator's edit: it may clear fields)."""
        where = f"paper #{paper_id}"
        return await self._edit(
            lambda w: w.replace_paper(paper_id, paper), actor=actor, where=where
        )

    async def remove(self, entity: Removable, entity_id: int, *, actor: str) -> Plan:
        """Remove a paper (its awards with it) or an award: hidden from readers, kept in store."""
        where = f"{entity} #{entity_id}"
        return await self._edit(lambda w: w.remove(entity, entity_id), actor=actor, where=where)

    async def revert(self, audit_id: int, *, actor: str) -> Plan:
        """Undo audit row `audit_id` (raises UndoRefused when it cannot be undone)."""
        where = f"change #{audit_id}"
        batch = undo_batch(audit_id, uuid.uuid4().hex[:8])  # names what it undid (see revert)
        return await self._edit(
            lambda w: w.revert(audit_id), actor=actor, where=where, batch_id=batch
        )

    async def _edit(
        self,
        write: Callable[[EditWriter], None],
        *,
        actor: str,
        where: str,
        dry_run: bool = False,
        batch_id: str | None = None,
    ) -> Plan:
        batch_id = batch_id or uuid.uuid4().hex[:12]

        def run(conn: Connection) -> Plan:
            writer = run_edit(conn, write, self._context(actor, "update", batch_id), where=where)
            return Plan(changes=writer.changes, rejected=writer.rejected, batch=batch_id)

        # A dry run is the write itself, rolled back: what it says is what the write would do.
        return await (self._db.rehearse(run) if dry_run else self._db.write(run))

    def _context(
        self, actor: str, policy: Policy, batch_id: str, *, new_papers_only: bool = False
    ) -> WriteContext:
        """Made inside the transaction: the stamp is the time the write got the database."""
        return WriteContext(actor, policy, batch_id, self._clock.now(), new_papers_only)

    async def export(self) -> CatalogBatch:
        return await self._db.snapshot(_export_in_one_read)


def _export_in_one_read(conn: Connection) -> CatalogBatch:
    """Every SELECT of the export in one read transaction: they all see one moment, even while
    a bot beside this process commits writes (in WAL mode readers and the writer never wait for
    each other), so no award points to a paper the export did not see. (On PostgreSQL the
    snapshot is already one: `Database.snapshot` runs it in a REPEATABLE READ transaction.)"""
    if conn.dialect != "sqlite":
        return _export(conn)
    conn.execute("BEGIN DEFERRED")
    try:
        return _export(conn)
    finally:
        conn.execute("COMMIT")


def _export(conn: Connection) -> CatalogBatch:
    venues = [
        rows.venue_model(r["key"], rows.from_row(r, rows.VENUE_FIELDS))
        for r in conn.execute("SELECT * FROM venues ORDER BY key")
    ]
    editions = [
        rows.edition_model(r["venue"], r["year"], rows.from_row(r, rows.EDITION_FIELDS))
        for r in conn.execute("SELECT * FROM editions ORDER BY venue, year")
    ]
    papers = _papers(conn)
    awards = [
        Award.model_validate(
            {
                "venue": r["venue"],
                "year": r["year"],
                "kind": AwardKind(r["kind"]),
                "track": r["track"],
                "paper": papers[r["paper_id"]],
                **{k: v for k, v in rows.from_row(r, rows.AWARD_FIELDS).items() if v},
            }
        )
        for r in conn.execute(
            """
            SELECT a.*, e.venue, e.year
            FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
            ORDER BY e.venue, e.year, a.id
            """
        )
    ]
    return CatalogBatch(venues=tuple(venues), editions=tuple(editions), awards=tuple(awards))


def _papers(conn: Connection) -> dict[int, Paper]:
    lists: dict[str, dict[int, list[str]]] = {}
    for field, table in rows.LIST_TABLES.items():
        grouped: dict[int, list[str]] = {}
        for r in conn.execute(
            f"SELECT paper_id, name FROM {table} ORDER BY paper_id, position"  # noqa: S608
        ):
            grouped.setdefault(r[0], []).append(r[1])
        lists[field] = grouped
    papers = {}
    for r in conn.execute("SELECT * FROM live_papers"):
        stored: dict[str, Any] = rows.from_row(r, rows.PAPER_FIELDS)
        for field, grouped in lists.items():
            stored[field] = grouped.get(r["id"])
        papers[int(r["id"])] = rows.paper_model(stored)
    return papers
