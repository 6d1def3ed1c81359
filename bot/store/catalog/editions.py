"""Reading venues and editions, and what the catalogue covers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.domain.models import AwardKind, Coverage, Edition, Venue
from bot.store import rows
from bot.store.catalog_sql import ascii_lower
from bot.store.database import Database
from bot.store.model_cache import ModelCache
from bot.store.sql import Row


@dataclass(frozen=True, slots=True)
class AwardTally:
    """How many awards of one kind one edition gave."""

    year: int
    kind: AwardKind
    count: int


def _by_name(column: str, dialect: str) -> str:
    """Ordered by `column` regardless of (ASCII) case: SQLite's NOCASE, and on PostgreSQL A-Z
    alone folded the same way."""
    if dialect == "postgresql":
        return ascii_lower(column, dialect)
    return f"{column} COLLATE NOCASE"


_DIALECTS = ("sqlite", "postgresql")
_VENUES = {d: f"SELECT * FROM venues ORDER BY {_by_name('name', d)}" for d in _DIALECTS}  # noqa: S608
_COVERAGE = {
    d: f"""
    SELECT e.venue, v.name AS venue_name, e.year, e.submissions, e.accepted,
           count(a.id) AS awards, count(DISTINCT a.paper_id) AS papers,
           CASE WHEN e.sources <> '[]' THEN 1 ELSE 0 END AS sourced
    FROM editions AS e
    JOIN venues AS v ON v.key = e.venue
    LEFT JOIN live_awards AS a ON a.edition_id = e.id
    GROUP BY e.id, v.name, e.sources
    ORDER BY {_by_name("v.name", d)}, e.year
    """  # noqa: S608 (constant clauses)
    for d in _DIALECTS
}


class EditionRepository:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._venues: ModelCache[Venue] = ModelCache()
        self._editions: ModelCache[Edition] = ModelCache()

    async def venues(self) -> list[Venue]:
        found = await self._db.fetchall(_VENUES[self._db.dialect])
        return [self._venues.get(r, _venue) for r in found]

    async def edition(self, venue: str, year: int) -> Edition | None:
        row = await self._db.fetchone(
            "SELECT * FROM editions WHERE venue = ? AND year = ?", (venue, year)
        )
        if row is None:
            return None
        return rows.edition_model(venue, year, rows.from_row(row, rows.EDITION_FIELDS))

    async def editions(self, venue: str) -> list[Edition]:
        found = await self._db.fetchall(
            "SELECT * FROM editions WHERE venue = ? ORDER BY year", (venue,)
        )
        return [self._editions.get(r, _edition) for r in found]

    async def editions_in_year(self, year: int) -> list[Edition]:
        """Every venue's edition of `year`, by venue key."""
        found = await self._db.fetchall(
            """
            SELECT * FROM editions
            WHERE year = ?
            ORDER BY venue
            """,
            (year,),
        )
        return [
            rows.edition_model(r["venue"], year, rows.from_row(r, rows.EDITION_FIELDS))
            for r in found
        ]

    async def coverage(self) -> list[Coverage]:
        found = await self._db.fetchall(_COVERAGE[self._db.dialect])
        return [Coverage.model_validate(dict(r)) for r in found]

    async def labels(self, ids: Sequence[int]) -> dict[int, str]:
        """Each edition's name as a reader knows it ("ICML 2025"), by id."""
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        sql = f"""
            SELECT e.id, v.name, e.year FROM editions AS e JOIN venues AS v ON v.key = e.venue
            WHERE e.id IN ({marks})
        """  # noqa: S608 (placeholders only)
        found = await self._db.fetchall(sql, tuple(ids))
        return {int(r["id"]): f"{r['name']} {r['year']}" for r in found}

    async def award_tallies(self, venue: str) -> list[AwardTally]:
        """How many awards of each kind every edition of `venue` gave, newest first."""
        found = await self._db.fetchall(
            """
            SELECT e.year, a.kind, count(*) AS awards
            FROM live_awards AS a
            JOIN editions AS e ON e.id = a.edition_id
            WHERE e.venue = ?
            GROUP BY e.year, a.kind
            ORDER BY e.year DESC, a.kind
            """,
            (venue,),
        )
        return [AwardTally(r["year"], AwardKind(r["kind"]), r["awards"]) for r in found]


def _venue(r: Row) -> Venue:
    return rows.venue_model(r["key"], rows.from_row(r, rows.VENUE_FIELDS))


def _edition(r: Row) -> Edition:
    return rows.edition_model(r["venue"], r["year"], rows.from_row(r, rows.EDITION_FIELDS))
