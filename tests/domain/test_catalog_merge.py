"""The catalogue's merge rules (bot/domain/catalog_merge.py), pure: how an incoming record
meets the stored one under each policy, without a database."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.domain.catalog_merge import merge
from bot.domain.writes import Policy, WriteContext

AT = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)


def _context(policy: Policy) -> WriteContext:
    return WriteContext("import by test", policy, "b1", AT)


def _paper(**fields: Any) -> dict[str, Any]:
    return {"title": "T", "sources": [], "alternatives": [], **fields}


def test_a_source_that_says_part_of_one_stored_adds_nothing_and_any_other_is_added() -> None:
    stored = {"url": "https://a.example/p", "covers": ["title"], "document": "A"}
    before = _paper(sources=[stored])
    link_only = {"url": "https://a.example/p"}
    assert merge(_context("update"), before, {"sources": [link_only]}, None)["sources"] == [stored]
    same = merge(_context("update"), before, {"sources": [dict(stored)]}, None)["sources"]
    assert same == [stored]
    other = {"url": "https://a.example/p", "covers": ["authors"]}  # says more than is stored
    after = merge(_context("update"), before, {"sources": [other]}, None)
    assert after["sources"] == [stored, other]
    unlike = {"url": "https://b.example/q"}
    assert merge(_context("update"), before, {"sources": [unlike]}, None)["sources"] == [
        stored,
        unlike,
    ]
    assert merge(_context("update"), _paper(aliases=["A"]), {"aliases": ["A", "B"]}, None)[
        "aliases"
    ] == ["A", "B"]  # not a dict: held only when it is there


def test_a_text_alias_is_held_only_by_the_same_text() -> None:
    before = _paper(aliases=["GPT-3"])
    after = merge(_context("update"), before, {"aliases": ["GPT"]}, None)
    assert after["aliases"] == ["GPT-3", "GPT"]


def test_under_fill_a_disagreement_is_kept_as_an_alternative_with_its_source() -> None:
    source = {"url": "https://b.example/q", "covers": ["year"]}
    after = merge(_context("fill"), _paper(year=2019), {"year": 2020}, [source])
    assert after["year"] == 2019
    assert after["alternatives"] == [
        {
            "field": "year",
            "value": 2020,
            "source": source,
            "reason": "given by a later import; the value already in the catalogue is kept",
        }
    ]
    again = merge(_context("fill"), after, {"year": 2020}, [source])
    assert again["alternatives"] == after["alternatives"]  # one alternative per value


def test_an_alternative_without_a_source_names_the_import_as_json() -> None:
    after = merge(_context("fill"), _paper(year=2019), {"year": 2020}, None)
    (alternative,) = after["alternatives"]
    assert alternative["source"] == {"document": "import by import by test", "covers": []}
    assert type(alternative["source"]["covers"]) is list  # JSON's form, as the audit keeps it


def test_a_record_without_alternatives_keeps_its_value_and_records_nothing() -> None:
    before = {"key": "icml", "name": "ICML"}  # a venue: no alternatives column
    assert merge(_context("fill"), before, {"name": "Intl. Conf. on ML"}, None) == before


def test_a_cut_short_mark_follows_the_byline_it_describes() -> None:
    complete = _paper(authors=["A", "B"], authors_incomplete=False)
    short = {"authors": ["A"], "authors_incomplete": True}
    after = merge(_context("fill"), complete, short, None)
    assert (after["authors"], after["authors_incomplete"]) == (["A", "B"], False)
    same = {"authors": ["A", "B"], "authors_incomplete": True}
    assert merge(_context("fill"), complete, same, None)["authors_incomplete"] is True
    # no byline given: the mark alone says nothing
    empty = _paper(authors=[], authors_incomplete=False)
    alone = {"authors": [], "authors_incomplete": True}
    assert merge(_context("update"), empty, alone, None)["authors_incomplete"] is False
    assert (
        merge(_context("update"), empty, {"authors_incomplete": True}, None)["authors_incomplete"]
        is False
    )
    curated = merge(_context("bundle"), complete, same, None, frozenset({"authors_incomplete"}))
    assert curated["authors_incomplete"] is False
