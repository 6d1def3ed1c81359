"""SQL fragments of the catalogue's reads that SQLite and PostgreSQL write differently.

Both engines answer with the same values: JSON arrays come back as text (`json.loads` reads
either spelling), lists of ids go in as one JSON text parameter, names are folded by ASCII case
only (SQLite's lower() and NOCASE fold nothing else). Each fragment is given per dialect, side
by side; the repositories pick theirs by `db.dialect` or `conn.dialect`.
"""

from __future__ import annotations


def names_json(table: str, dialect: str) -> str:
    """The names of paper `p` in `table` (authors, affiliations), in order, as a JSON array."""
    if dialect == "postgresql":
        return f"""(SELECT CAST(coalesce(json_agg(name ORDER BY position), '[]') AS TEXT)
            FROM {table} WHERE paper_id = p.id)"""  # noqa: S608 (a table of ours)
    return f"""(SELECT json_group_array(name) FROM
            (SELECT name FROM {table} WHERE paper_id = p.id ORDER BY position))"""  # noqa: S608


def paper_columns(dialect: str) -> str:
    """A paper's columns, its author and affiliation lists, and its live awards (`award_list`:
    the latest first), each list as JSON text."""
    if dialect == "postgresql":
        award_list = """(SELECT CAST(coalesce(json_agg(json_build_array(
                e.venue, v.name, e.year, a.name, a.kind, a.track, CAST(a.alternatives AS JSON),
                CAST(a.sources AS JSON))
                ORDER BY e.year DESC, e.venue, a.id), '[]') AS TEXT)
            FROM live_awards AS a
            JOIN editions AS e ON e.id = a.edition_id
            JOIN venues AS v ON v.key = e.venue
            WHERE a.paper_id = p.id)"""
    else:
        award_list = """(SELECT json_group_array(
                json_array(venue, venue_name, year, name, kind, track, json(alternatives),
                           json(sources))) FROM
            (SELECT e.venue, v.name AS venue_name, e.year, a.name, a.kind, a.track, a.alternatives,
                    a.sources
             FROM live_awards AS a
             JOIN editions AS e ON e.id = a.edition_id
             JOIN venues AS v ON v.key = e.venue
             WHERE a.paper_id = p.id
             ORDER BY e.year DESC, e.venue, a.id))"""
    return f"""
    p.id, p.title, p.year, p.arxiv, p.arxiv_version, p.doi, p.links, p.abstract, p.summaries,
    p.area, p.task, p.aliases, p.authors_incomplete, p.sources, p.alternatives,
    {names_json("paper_authors", dialect)} AS authors,
    {names_json("paper_affiliations", dialect)} AS affiliations,
    {award_list} AS award_list
"""


# `p.id` among the ids of a JSON array given as one parameter (`:ids` or `?`).
IDS_IN = {
    "sqlite": "p.id IN (SELECT value FROM json_each({}))",
    "postgresql": (
        "p.id IN (SELECT CAST(value AS BIGINT) FROM json_array_elements_text(CAST({} AS JSON)))"
    ),
}


def ids_in(param: str, dialect: str) -> str:
    return IDS_IN[dialect].format(param)


def json_field(column: str, field: str, dialect: str) -> str:
    """The value of `field` of the JSON object in `column` (NULL if absent or null)."""
    if dialect == "postgresql":
        return f"(CAST({column} AS JSONB) ->> '{field}')"
    return f"json_extract({column}, '$.{field}')"


def ascii_lower(expression: str, dialect: str) -> str:
    """`expression` with A-Z folded to a-z and nothing else, as SQLite's lower() folds."""
    if dialect == "postgresql":
        return (
            f"translate({expression}, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz')"
        )
    return f"lower({expression})"


def like_any_case(expression: str, pattern: str, dialect: str) -> str:
    """`expression LIKE pattern` regardless of ASCII case (SQLite's LIKE; `pattern` lower)."""
    if dialect == "postgresql":
        return f"{ascii_lower(expression, dialect)} LIKE {pattern}"
    return f"{expression} LIKE {pattern}"
