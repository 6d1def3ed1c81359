"""What the derived search index is built from: the catalogue's documents and its change sequence.

SQLite stays the truth. Every catalogue write leaves audit rows in the same transaction
(`catalog_writer`), and the audit table is append-only with increasing ids: its latest id is
the catalogue's *generation*. An index that reflects generation g catches up by reading the
audit rows after g, mapping them to the papers they touch (a paper's own rows; an award's
paper, whose filters changed) and reloading those papers as they are now. Nothing here is
in-process: any number of processes can each follow one store.

On PostgreSQL (issue 15) the same holds: ids come from a sequence, and sequence values can in
general commit out of order, but every write transaction there first takes one advisory lock
(`pg_advisory_xact_lock`, held to its commit): writes commit one after another, each with ids
above those of every write committed before it. A reader that sees audit row g sees every row
below g, so "the latest id" is a generation there too.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from bot.store.catalog_sql import ids_in, names_json
from bot.store.search import prefixes, tokens
from bot.store.sql import Connection, Row

# Each award gives its paper one filter token per combination of venue, year and kind, so that
# one term answers "an award at this venue, in this year, of this kind" for any of them given.
ANY = "*"


@dataclass(frozen=True, slots=True)
class SearchDocument:
    """One live paper as the index holds it: space-joined tokens per field."""

    id: int
    fields: dict[str, str]
    filters: tuple[str, ...]


def _documents(dialect: str) -> str:
    if dialect == "postgresql":
        awards = """(SELECT CAST(coalesce(json_agg(json_build_array(e.venue, e.year, a.kind)),
                    '[]') AS TEXT)
                FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
                WHERE a.paper_id = p.id)"""
    else:
        awards = """(SELECT json_group_array(json_array(e.venue, e.year, a.kind))
                FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
                WHERE a.paper_id = p.id)"""
    return f"""
        SELECT p.id, p.title, p.abstract, p.summaries, p.area,
            {names_json("paper_authors", dialect)} AS authors,
            {names_json("paper_affiliations", dialect)} AS affiliations,
            {awards} AS awards
        FROM live_papers AS p
        WHERE CAST(:ids AS TEXT) IS NULL OR {ids_in(":ids", dialect)}
        ORDER BY p.id
        """  # noqa: S608 (constant fragments)


# The live papers (those of the JSON array `:ids`, or all when it is NULL) as the index reads
# them; lists as JSON text.
_DOCUMENTS = {d: _documents(d) for d in ("sqlite", "postgresql")}


def filter_token(venue: str | None, year: int | None, kind: str | None) -> str:
    return f"{venue or ANY}|{year if year is not None else ANY}|{kind or ANY}"


def area_token(area: str) -> str:
    return f"area:{area}"


def generation(conn: Connection) -> int:
    """The id of the latest audit row: which catalogue write the store is at."""
    return int(conn.execute("SELECT ifnull(max(id), 0) FROM audit").fetchone()[0])


def changed_papers(conn: Connection, since: int, until: int) -> set[int]:
    """The papers whose document or filters changed after generation `since`, up to `until`."""
    found = conn.execute(
        """
        SELECT CAST(entity_id AS INTEGER) FROM audit
        WHERE id > :since AND id <= :until AND entity = 'paper'
        UNION
        SELECT a.paper_id FROM audit AS u JOIN awards AS a ON a.id = CAST(u.entity_id AS INTEGER)
        WHERE u.id > :since AND u.id <= :until AND u.entity = 'award'
        """,
        {"since": since, "until": until},
    )
    return {int(r[0]) for r in found}


def documents(conn: Connection, ids: Iterable[int] | None = None) -> Iterator[SearchDocument]:
    """The live papers (all, or those of `ids` that are live) as the index holds them."""
    wanted = None
    if ids is not None:
        wanted = json.dumps(sorted(ids))
        if wanted == "[]":
            return
    found = conn.execute(_DOCUMENTS[conn.dialect], {"ids": wanted})
    memo: dict[str, str] = {}
    for row in found:
        yield _document(row, memo)


def _document(row: Row, memo: dict[str, str]) -> SearchDocument:
    summaries = json.loads(row["summaries"] or "{}") or {}
    words = {
        "title": tokens(row["title"]),
        "authors": tokens(" ; ".join(json.loads(row["authors"]))),
        "affiliations": tokens(" ; ".join(json.loads(row["affiliations"]))),
        "summaries": tokens("\n".join(summaries.values())),
        "abstract": tokens(row["abstract"] or ""),
    }
    fields = {name: " ".join(found) for name, found in words.items()}
    fields |= {
        "title_prefix": prefixes(words["title"], memo),
        "authors_prefix": prefixes(words["authors"], memo),
        "affiliations_prefix": prefixes(words["affiliations"], memo),
        "text_prefix": prefixes(words["summaries"] + words["abstract"], memo),
    }
    filters: set[str] = set()
    for venue, year, kind in json.loads(row["awards"]):
        for v in (venue, None):
            for y in (year, None):
                for k in (kind, None):
                    if (v, y, k) != (None, None, None):
                        filters.add(filter_token(v, y, k))
    if row["area"]:
        filters.add(area_token(row["area"]))
    return SearchDocument(id=int(row["id"]), fields=fields, filters=tuple(sorted(filters)))
