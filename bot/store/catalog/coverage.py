"""Every live paper as its model, for measuring what the catalogue covers (bot.domain.coverage)."""

from __future__ import annotations

from bot.domain.coverage import FieldCoverage, measure
from bot.domain.models import Paper
from bot.store import rows
from bot.store.catalog_sql import names_json
from bot.store.database import Database

_PAPERS = {
    d: f"""
    SELECT p.title, p.year, p.arxiv, p.arxiv_version, p.doi, p.links, p.abstract, p.summaries,
           p.area, p.task, p.aliases, p.authors_incomplete, p.sources, p.alternatives,
           {names_json("paper_authors", d)} AS authors,
           {names_json("paper_affiliations", d)} AS affiliations
    FROM live_papers AS p
    ORDER BY p.id
    """  # noqa: S608 (constant fragments)
    for d in ("sqlite", "postgresql")
}


async def live_papers(db: Database) -> list[Paper]:
    found = await db.fetchall(_PAPERS[db.dialect])
    return [rows.paper_model(rows.from_row(r, rows.PAPER_FIELDS), trusted=True) for r in found]


async def field_coverage(db: Database) -> FieldCoverage:
    return measure(await live_papers(db))
