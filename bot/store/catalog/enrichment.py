"""Reading the papers `laurel enrich` can complete from arXiv, with one award each to write by.

Only live papers and awards (not removed by a curator) are read: the writer refuses the others.
Papers with an arXiv id are completed by id; those without one are looked up by title first.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from bot.domain.models import Award, AwardKind, Paper
from bot.store import rows
from bot.store.catalog_sql import json_field, names_json
from bot.store.database import Database

# A paper lacks what arXiv can give when it has no abstract, no authors or only the first few
# (a source cut the list short), or no abs or pdf link.
# Only papers with a live award: the one write path takes papers through their awards.
_DIALECTS = ("sqlite", "postgresql")
_INCOMPLETE = {
    d: f"""
    p.arxiv IS NOT NULL
    AND EXISTS (SELECT 1 FROM live_awards AS la WHERE la.paper_id = p.id)
    AND (
        p.abstract IS NULL OR p.abstract = ''
        OR NOT EXISTS (SELECT 1 FROM paper_authors AS pa WHERE pa.paper_id = p.id)
        OR p.authors_incomplete <> 0
        OR {json_field("p.links", "arxiv", d)} IS NULL
        OR {json_field("p.links", "pdf", d)} IS NULL
    )
"""  # noqa: S608 (constant fragments)
    for d in _DIALECTS
}
_SELECT = {
    d: f"""
    SELECT p.id, p.title, p.year, p.arxiv, p.arxiv_version, p.doi, p.links, p.abstract,
           p.summaries, p.area, p.task, p.aliases, p.authors_incomplete, p.sources, p.alternatives,
           {names_json("paper_authors", d)} AS authors,
           {names_json("paper_affiliations", d)} AS affiliations,
           e.venue, e.year AS award_year, a.name AS award_name, a.kind, a.track
    FROM live_papers AS p
    JOIN live_awards AS a ON a.id = (SELECT min(id) FROM live_awards WHERE paper_id = p.id)
    JOIN editions AS e ON e.id = a.edition_id
"""  # noqa: S608 (constant fragments)
    for d in _DIALECTS
}
# No limit: the largest LIMIT both engines take (SQLite's -1 is refused by PostgreSQL).
_ALL = sys.maxsize


@dataclass(frozen=True, slots=True)
class Incomplete:
    """A paper to enrich, and the award (its first) through which the one write path takes it."""

    paper_id: int
    paper: Paper
    award: Award

    @property
    def year(self) -> int:
        """The year the paper appeared: its own where known, else its (first) award's."""
        return self.paper.year or self.award.year


class EnrichmentRepository:
    def __init__(self, db: Database) -> None:
        self._db = db

    async def incomplete(self, *, limit: int | None = None) -> list[Incomplete]:
        """Papers with an arXiv id that lack an abstract, authors or links, oldest row first."""
        return await self._read(_INCOMPLETE[self._db.dialect], limit)

    async def without_arxiv(self, *, limit: int | None = None) -> list[Incomplete]:
        """Papers with no arXiv id (to look up by title), oldest row first."""
        return await self._read("p.arxiv IS NULL", limit)

    async def _read(self, condition: str, limit: int | None) -> list[Incomplete]:
        found = await self._db.fetchall(
            f"{_SELECT[self._db.dialect]} WHERE {condition} ORDER BY p.id LIMIT ?",
            (_ALL if limit is None else limit,),
        )
        result = []
        for r in found:
            paper = rows.paper_model(rows.from_row(r, rows.PAPER_FIELDS))
            award = Award(
                venue=r["venue"],
                year=r["award_year"],
                name=r["award_name"],
                kind=AwardKind(r["kind"]),
                track=r["track"],
                paper=paper,
            )
            result.append(Incomplete(int(r["id"]), paper, award))
        return result

    async def count_incomplete(self) -> int:
        row = await self._db.fetchone(
            f"SELECT count(*) FROM live_papers AS p WHERE {_INCOMPLETE[self._db.dialect]}"  # noqa: S608
        )
        return int(row[0]) if row else 0
