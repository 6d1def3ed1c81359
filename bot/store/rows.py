"""Converting between domain models and the values stored in rows.

A record's stored form is a dict of column values in which JSON columns hold Python lists and
dicts; the writer compares, merges and audits these dicts, and the readers turn them back into
models.
"""

from __future__ import annotations

import json
from typing import Any

from bot.domain.models import Award, AwardKind, AwardRef, Edition, Paper, StoredPaper, Venue
from bot.domain.paper_names import own_names
from bot.store.search.text import index_text
from bot.store.sql import Row

VENUE_FIELDS = ("name", "full_name", "url", "aliases")
EDITION_FIELDS = (
    "start_date", "end_date", "month", "city", "country", "submissions", "accepted",
    "orals", "spotlights", "posters", "reviewers", "area_chairs", "senior_area_chairs",
    "note", "sources", "alternatives", "counts",
)  # fmt: skip
PAPER_FIELDS = (
    "title", "year", "arxiv", "arxiv_version", "doi", "links", "abstract", "summaries",
    "area", "task", "aliases", "sources", "alternatives", "authors", "affiliations",
    "authors_incomplete",
)  # fmt: skip
AWARD_FIELDS = ("name", "sources", "alternatives")
JSON_FIELDS = frozenset({"aliases", "sources", "alternatives", "links", "summaries", "counts"})
# Stored as 0/1 integers, never NULL: an audit row written before the column existed reads False.
BOOL_FIELDS = frozenset({"authors_incomplete"})
# Stored in tables of their own, not as columns of `papers`.
LIST_TABLES = {"authors": "paper_authors", "affiliations": "paper_affiliations"}


def values(model: Venue | Edition | Paper | Award, fields: tuple[str, ...]) -> dict[str, Any]:
    dumped = model.model_dump(mode="json", exclude_none=True, include=set(fields))
    result = {}
    for field in fields:
        value = dumped.get(field)
        if isinstance(value, dict):
            value = {k: v for k, v in value.items() if v is not None}
        result[field] = value
    return result


def from_row(row: Row, fields: tuple[str, ...]) -> dict[str, Any]:
    keys = row.keys()
    result: dict[str, Any] = {}
    for field in fields:
        if field not in keys:
            continue
        value = row[field]
        if field in JSON_FIELDS or field in LIST_TABLES:
            value = json.loads(value) if value is not None else None
        elif field in BOOL_FIELDS:
            value = bool(value)
        result[field] = value
    return result


def to_column(field: str, value: Any) -> Any:
    if field in JSON_FIELDS:
        return json.dumps(value if value is not None else _empty(field), ensure_ascii=False)
    if field in BOOL_FIELDS:
        return int(bool(value))
    return value


def _empty(field: str) -> Any:
    return {} if field in {"links", "summaries"} else []


def search_document(paper: dict[str, Any]) -> tuple[str, str, str, str, str]:
    """The five columns of `paper_search` for a stored paper's values."""
    summaries = paper.get("summaries") or {}
    names = own_names(paper["title"], paper.get("abstract"))  # TRPO of "… (TRPO) …"
    names += [name for name in paper.get("aliases") or [] if name not in names]  # AlexNet
    return (
        index_text(" ; ".join([paper["title"], *names])),
        index_text(" ; ".join(paper.get("authors") or [])),
        index_text(" ; ".join(paper.get("affiliations") or [])),
        index_text("\n".join(summaries.values())),
        index_text(paper.get("abstract") or ""),
    )


def paper_model(stored: dict[str, Any], *, trusted: bool = False) -> Paper:
    """The paper of a stored row. `trusted`: read back for display, whose text and links were
    cleaned and checked on the way in (types and shapes are still validated)."""
    data = {k: v for k, v in stored.items() if v not in (None, [], {})}
    return Paper.model_validate(data, context={"stored": True} if trusted else None)


def edition_model(venue: str, year: int, stored: dict[str, Any]) -> Edition:
    data = {k: v for k, v in stored.items() if v not in (None, [], {})}
    return Edition.model_validate({"venue": venue, "year": year, **data})


def venue_model(key: str, stored: dict[str, Any]) -> Venue:
    data = {k: v for k, v in stored.items() if v not in (None, [], {})}
    return Venue.model_validate({"key": key, **data})


def stored_paper(r: Row) -> StoredPaper:
    """A paper row (`paper_columns`) as its model, with the awards of its `award_list`."""
    return StoredPaper(
        id=int(r["id"]),
        paper=paper_model(from_row(r, PAPER_FIELDS), trusted=True),
        awards=tuple(
            AwardRef(
                venue=venue,
                venue_name=venue_name,
                year=year,
                name=name,
                kind=AwardKind(kind),
                track=track,
                alternatives=alternatives or (),
                sources=sources or (),
            )
            for venue, venue_name, year, name, kind, track, alternatives, sources in json.loads(
                r["award_list"]
            )
        ),
    )


def award_ref(r: Row) -> AwardRef:
    """An award row joined to its edition and venue as the award a paper holds."""
    alternatives = r["alternatives"] if "alternatives" in r.keys() else None  # noqa: SIM118
    return AwardRef(
        venue=r["venue"],
        venue_name=r["venue_name"],
        year=r["year"],
        name=r["name"],
        kind=AwardKind(r["kind"]),
        track=r["track"],
        alternatives=json.loads(alternatives) if alternatives else (),
    )
