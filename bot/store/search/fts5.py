"""The SQL of search that is not the derived index's: FTS5's ranking (the fallback, and the
engine when Laurel runs without the index; SQLite only), and what autocomplete loads for a
choice."""

from __future__ import annotations

import json
from dataclasses import dataclass

from bot.domain.models import PaperChoice
from bot.store.sql import Row

# bm25 weights per column: title, authors, affiliations, summaries, abstract.
RANK = "bm25(paper_search, 10.0, 4.0, 2.0, 1.0, 1.0)"


@dataclass(frozen=True, slots=True)
class Scope:
    venue: str | None
    year: int | None
    kind: str | None
    area: str | None


# Its latest award first, as StoredPaper.awards orders them: [venue name, year] as JSON text.
CHOICE_COLUMNS = {
    "sqlite": """
    p.id, p.title,
    (SELECT json_array(v.name, e.year)
     FROM live_awards AS a
     JOIN editions AS e ON e.id = a.edition_id
     JOIN venues AS v ON v.key = e.venue
     WHERE a.paper_id = p.id
     ORDER BY e.year DESC, e.venue, a.id LIMIT 1) AS latest
""",
    "postgresql": """
    p.id, p.title,
    (SELECT CAST(json_build_array(v.name, e.year) AS TEXT)
     FROM live_awards AS a
     JOIN editions AS e ON e.id = a.edition_id
     JOIN venues AS v ON v.key = e.venue
     WHERE a.paper_id = p.id
     ORDER BY e.year DESC, e.venue, a.id LIMIT 1) AS latest
""",
}


def fts_hits(select: str) -> str:
    """FTS5's ranking of ids first, then `select` (`FROM ... AS p`) of a page of them only:
    loading every match before sorting (authors, affiliations, abstract) made common words
    several times slower."""
    return f"""
        WITH hits AS (
            SELECT rowid AS id, {RANK} AS score
            FROM paper_search
            WHERE paper_search MATCH :query
              AND (:venue IS NULL AND :year IS NULL AND :kind IS NULL OR EXISTS (
                    SELECT 1 FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
                    WHERE a.paper_id = paper_search.rowid
                      AND (:venue IS NULL OR e.venue = :venue)
                      AND (:year IS NULL OR e.year = :year)
                      AND (:kind IS NULL OR a.kind = :kind)))
              AND (:area IS NULL OR rowid IN (SELECT id FROM papers WHERE area = :area))
            ORDER BY score, rowid
            LIMIT :limit OFFSET :offset
        )
        {select}
        FROM hits JOIN live_papers AS p ON p.id = hits.id
        ORDER BY hits.score, p.id
    """  # noqa: S608


# Similar by FTS5 (search/similar.py.fts5_query's match): scores within the filters, the paper
# itself always among them (its own score is the floor's measure).
FTS_SIMILAR = f"""
    SELECT rowid AS id, {RANK} AS score FROM paper_search
    WHERE paper_search MATCH :query
      AND (rowid = :paper_id OR (:venue IS NULL AND :year IS NULL AND :kind IS NULL)
           OR EXISTS (
            SELECT 1 FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
            WHERE a.paper_id = paper_search.rowid
              AND (:venue IS NULL OR e.venue = :venue)
              AND (:year IS NULL OR e.year = :year)
              AND (:kind IS NULL OR a.kind = :kind)))
      AND (rowid = :paper_id OR :area IS NULL
           OR rowid IN (SELECT id FROM papers WHERE area = :area))
    ORDER BY score, rowid
    LIMIT :limit
"""  # noqa: S608 (constant fragments)


def fts_count() -> str:
    """How many papers `fts_hits` would rank in all (its WHERE, without a page)."""
    where = fts_hits("").split("WHERE", 1)[1].split("ORDER BY", 1)[0]
    return f"SELECT count(*) FROM paper_search WHERE {where}"  # noqa: S608


def fts_params(query: str, scope: Scope, limit: int, offset: int) -> dict[str, object]:
    return {
        "query": query,
        "venue": scope.venue,
        "year": scope.year,
        "kind": scope.kind,
        "area": scope.area,
        "limit": limit,
        "offset": offset,
    }


def choices(found: list[Row]) -> list[PaperChoice]:
    result = []
    for r in found:
        venue_name, year = json.loads(r["latest"]) if r["latest"] else (None, None)
        result.append(PaperChoice(int(r["id"]), r["title"], venue_name, year))
    return result
