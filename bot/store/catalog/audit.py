"""Reading the audit log: who changed what, when, with the record before and after.

The log is append-only (triggers refuse updates and deletes); undoing a change is itself a new
row, written by `CatalogRepository.revert`.
"""

from __future__ import annotations

import json

from bot.domain.audit import AuditEntry, AuditGroup
from bot.store.database import Database
from bot.store.sql import Row

_COLUMNS = "id, at, actor, batch, action, entity, entity_id, before, after"
# A paper's history is its own rows and those of the awards it holds.
_OF_PAPER = """
    (entity = 'paper' AND entity_id = :paper)
    OR (entity = 'award' AND entity_id IN (
        SELECT CAST(id AS TEXT) FROM awards WHERE paper_id = CAST(:paper AS INTEGER)))
"""


class AuditRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def get(self, audit_id: int) -> AuditEntry | None:
        row = await self._db.fetchone(
            f"SELECT {_COLUMNS} FROM audit WHERE id = ?",  # noqa: S608
            (audit_id,),
        )
        return None if row is None else _entry(row)

    async def in_batch(self, batch: str) -> list[AuditEntry]:
        """The rows one write left, in the order written."""
        found = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM audit WHERE batch = ? ORDER BY id",  # noqa: S608
            (batch,),
        )
        return [_entry(r) for r in found]

    async def history(
        self,
        *,
        paper_id: int | None = None,
        limit: int = 5,
        offset: int = 0,
        upto: int | None = None,
    ) -> tuple[list[AuditEntry], int]:
        """The newest changes first (of one paper, if given), one page, and how many in all.

        `upto`: only changes up to that id, so that later ones do not move a page's rows."""
        where = f"({_OF_PAPER if paper_id is not None else 'TRUE'})"
        if upto is not None:
            where += " AND id <= :upto"
        params = {
            "paper": str(paper_id),
            "limit": max(1, limit),
            "offset": max(0, offset),
            "upto": upto,
        }
        found = await self._db.fetchall(
            f"""
            SELECT {_COLUMNS} FROM audit
            WHERE {where}
            ORDER BY id DESC
            LIMIT :limit OFFSET :offset
            """,  # noqa: S608
            params,
        )
        total = await self._db.fetchone(
            f"SELECT count(*) FROM audit WHERE {where}",  # noqa: S608
            params,
        )
        return [_entry(r) for r in found], int(total[0]) if total else 0

    async def writes(
        self,
        *,
        paper_id: int | None = None,
        limit: int = 5,
        offset: int = 0,
        upto: int | None = None,
    ) -> tuple[list[AuditGroup], int]:
        """The history as writes (one per batch), curators' own first, then bundled loads and
        imports, each newest first; one page of them, and how many in all."""
        where = f"({_OF_PAPER if paper_id is not None else 'TRUE'})"
        if upto is not None:
            where += " AND id <= :upto"
        params: dict[str, object] = {
            "paper": str(paper_id),
            "limit": max(1, limit),
            "offset": max(0, offset),
            "upto": upto,
        }
        return await _groups(self._db, where, params)

    async def of_write(
        self, batch: str, *, paper_id: int | None = None, limit: int = 6
    ) -> list[AuditEntry]:
        """The first rows of one write (of one paper, if given), in the order written."""
        where = f"batch = :batch AND ({_OF_PAPER if paper_id is not None else 'TRUE'})"
        found = await self._db.fetchall(
            f"SELECT {_COLUMNS} FROM audit WHERE {where} ORDER BY id LIMIT :limit",  # noqa: S608
            {"batch": batch, "paper": str(paper_id), "limit": limit},
        )
        return [_entry(r) for r in found]


async def _groups(
    db: Database, where: str, params: dict[str, object]
) -> tuple[list[AuditGroup], int]:
    """The writes behind the rows `where` selects: curators' first, newest first, one page."""
    found = await db.fetchall(
        f"""
        SELECT batch, actor, min(id) AS first, max(id) AS last, count(*) AS count,
               min(at) AS at,
               sum(CASE WHEN action = 'add' THEN 1 ELSE 0 END) AS adds,
               sum(CASE WHEN action = 'remove' THEN 1 ELSE 0 END) AS removes
        FROM audit WHERE {where}
        GROUP BY batch, actor
        ORDER BY CASE WHEN actor LIKE 'discord:%' THEN 0 ELSE 1 END, max(id) DESC
        LIMIT :limit OFFSET :offset
        """,  # noqa: S608 (constant clauses)
        params,
    )
    total = await db.fetchone(
        f"SELECT count(*) FROM (SELECT 1 FROM audit WHERE {where} GROUP BY batch, actor) AS w",  # noqa: S608
        params,
    )
    groups = [
        AuditGroup(
            r["batch"], r["actor"], int(r["first"]), int(r["last"]), int(r["count"]), r["at"],
            int(r["adds"]), int(r["removes"]),
        )
        for r in found
    ]  # fmt: skip
    return groups, int(total[0]) if total else 0


def _entry(row: Row) -> AuditEntry:
    return AuditEntry(
        id=int(row["id"]),
        at=row["at"],
        actor=row["actor"],
        batch=row["batch"],
        action=row["action"],
        entity=row["entity"],
        entity_id=row["entity_id"],
        before=None if row["before"] is None else json.loads(row["before"]),
        after=None if row["after"] is None else json.loads(row["after"]),
    )
