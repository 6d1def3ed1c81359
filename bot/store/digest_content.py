"""What digests draw from: the filtered catalogue as ids, and awards added since a watermark."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.domain.awards import is_main_award
from bot.domain.models import AwardKind
from bot.domain.subscriptions import DigestFilter
from bot.store.database import Database

# Awards within a digest's filter, joined to their edition as `e`.
# (A parameter's type is said where it is tested for NULL: PostgreSQL must know it there.)
_IN_FILTER = """
    (CAST(:venue AS TEXT) IS NULL OR e.venue = :venue)
    AND (CAST(:kind AS TEXT) IS NULL OR a.kind = :kind)
    AND (CAST(:first AS INTEGER) IS NULL OR e.year >= :first)
    AND (CAST(:last AS INTEGER) IS NULL OR e.year <= :last)
    AND (CAST(:area AS TEXT) IS NULL OR a.paper_id IN (SELECT id FROM papers WHERE area = :area))
"""


def _params(filters: DigestFilter, kind: AwardKind | None = None) -> dict[str, Any]:
    chosen = kind or filters.kind
    return {
        "venue": filters.venue,
        "kind": chosen.value if chosen else None,
        "first": filters.year_from,
        "last": filters.year_to,
        "area": filters.area.value if filters.area else None,
    }


@dataclass(frozen=True, slots=True)
class EditionRef:
    id: int
    venue: str
    year: int


class DigestContentRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def paper_ids(self, filters: DigestFilter, kind: AwardKind | None = None) -> list[int]:
        """Awarded papers within the filter (`kind` overrides the filter's kind). Without a
        kind, those of the main paper awards only (bot.domain.awards.is_main_award): a
        student abstract, a demo or a presentation award comes when a kind asks for it."""
        found = await self._db.fetchall(
            f"""
            SELECT a.paper_id, a.kind, a.name
            FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
            WHERE {_IN_FILTER}
            """,  # noqa: S608 (a constant clause)
            _params(filters, kind),
        )
        main = (kind or filters.kind) is None
        return sorted({int(r[0]) for r in found if not main or is_main_award(r[1], r[2])})

    async def award_edition_ids(self, filters: DigestFilter) -> list[int]:
        """Editions that gave at least one award within the filter."""
        found = await self._db.fetchall(
            f"""
            SELECT DISTINCT e.id
            FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
            WHERE {_IN_FILTER}
            ORDER BY e.id
            """,  # noqa: S608 (a constant clause)
            _params(filters),
        )
        return [int(r[0]) for r in found]

    async def statistics_edition_ids(self, filters: DigestFilter) -> list[int]:
        """Editions with submission numbers, within the filter's venue and years."""
        found = await self._db.fetchall(
            """
            SELECT e.id FROM editions AS e
            WHERE e.submissions IS NOT NULL
              AND (CAST(:venue AS TEXT) IS NULL OR e.venue = :venue)
              AND (CAST(:first AS INTEGER) IS NULL OR e.year >= :first)
              AND (CAST(:last AS INTEGER) IS NULL OR e.year <= :last)
            ORDER BY e.id
            """,
            _params(filters),
        )
        return [int(r[0]) for r in found]

    async def edition(self, edition_id: int) -> EditionRef | None:
        row = await self._db.fetchone(
            "SELECT id, venue, year FROM editions WHERE id = ?", (edition_id,)
        )
        return None if row is None else EditionRef(row["id"], row["venue"], row["year"])

    async def added_awards(self, after: int, filters: DigestFilter) -> list[tuple[int, int]]:
        """(audit id, award id) of awards added after audit row `after`, still in the
        catalogue and within the filter, oldest first."""
        found = await self._db.fetchall(
            f"""
            SELECT au.id, a.id
            FROM audit AS au
            JOIN live_awards AS a ON a.id = CAST(au.entity_id AS INTEGER)
            JOIN editions AS e ON e.id = a.edition_id
            WHERE au.entity = 'award' AND au.action = 'add' AND au.id > :after
              AND {_IN_FILTER}
            ORDER BY au.id
            """,  # noqa: S608 (a constant clause)
            {**_params(filters), "after": after},
        )
        return [(int(r[0]), int(r[1])) for r in found]

    async def watermark(self, sub_id: int) -> int:
        row = await self._db.fetchone(
            "SELECT audit_watermark FROM subscriptions WHERE id = ?", (sub_id,)
        )
        return 0 if row is None else int(row[0])

    async def newest_audit_id(self) -> int:
        row = await self._db.fetchone("SELECT ifnull(max(id), 0) FROM audit")
        return 0 if row is None else int(row[0])

    async def award_papers(self, award_ids: list[int]) -> list[tuple[int, int]]:
        """(award id, paper id) for the given awards, in the order given."""
        if not award_ids:
            return []
        marks = ", ".join("?" for _ in award_ids)
        found = await self._db.fetchall(
            f"SELECT id, paper_id FROM live_awards WHERE id IN ({marks})",  # noqa: S608
            award_ids,
        )
        by_id = {int(r[0]): int(r[1]) for r in found}
        return [(a, by_id[a]) for a in award_ids if a in by_id]
