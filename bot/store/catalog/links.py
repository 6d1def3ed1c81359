"""How many papers can be opened: an arXiv id, a DOI or a link to the paper (issue 17)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain.models import PAPER_LINKS
from bot.store.catalog_sql import json_field
from bot.store.database import Database


def _linked(dialect: str) -> str:
    """A paper "has a link" when a reader can open it: an arXiv id, a DOI or a stored link to
    the paper itself (bot.domain.models.PAPER_LINKS: a code repository alone does not count)."""
    stored = " OR ".join(
        f"{json_field('p.links', name, dialect)} IS NOT NULL" for name in PAPER_LINKS
    )
    return f"(p.arxiv IS NOT NULL OR p.doi IS NOT NULL OR {stored})"


_DIALECTS = ("sqlite", "postgresql")
_COUNTS = {
    d: f"""
    SELECT count(*), count(p.arxiv), ifnull(sum(CASE WHEN {_linked(d)} THEN 1 ELSE 0 END), 0)
    FROM live_papers AS p
    """  # noqa: S608 (a constant condition)
    for d in _DIALECTS
}
# Each linkless paper with the venue of its first award (SQLite: the row min() picked).
_LINKLESS = {
    "sqlite": f"""
    SELECT p.id, p.title, v.name AS venue, min(e.year) AS year
    FROM live_papers AS p
    JOIN live_awards AS a ON a.paper_id = p.id
    JOIN editions AS e ON e.id = a.edition_id
    JOIN venues AS v ON v.key = e.venue
    WHERE NOT {_linked("sqlite")}
    GROUP BY p.id
    ORDER BY v.name, year, p.title
    """,  # noqa: S608 (a constant condition)
    "postgresql": f"""
    SELECT id, title, venue, year FROM (
        SELECT DISTINCT ON (p.id) p.id, p.title, v.name AS venue, e.year
        FROM live_papers AS p
        JOIN live_awards AS a ON a.paper_id = p.id
        JOIN editions AS e ON e.id = a.edition_id
        JOIN venues AS v ON v.key = e.venue
        WHERE NOT {_linked("postgresql")}
        ORDER BY p.id, e.year, a.id
    ) AS first_awards
    ORDER BY venue, year, title
    """,  # noqa: S608 (a constant condition)
}


@dataclass(frozen=True, slots=True)
class Linkless:
    paper_id: int
    title: str
    venue: str
    year: int


@dataclass(frozen=True, slots=True)
class LinkCoverage:
    papers: int
    with_arxiv: int
    with_link: int
    linkless: tuple[Linkless, ...]

    @property
    def share(self) -> float:
        """The share of papers with a link (1.0 for an empty catalogue: nothing is missing)."""
        return self.with_link / self.papers if self.papers else 1.0


class LinkRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def coverage(self) -> LinkCoverage:
        counts = await self._db.fetchone(_COUNTS[self._db.dialect])
        assert counts is not None
        found = await self._db.fetchall(_LINKLESS[self._db.dialect])
        linkless = tuple(Linkless(r["id"], r["title"], r["venue"], r["year"]) for r in found)
        return LinkCoverage(int(counts[0]), int(counts[1]), int(counts[2]), linkless)
