"""Matching a paper to an arXiv entry by title: equal titles, a plausible year, one id."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.catalog.arxiv.atom import ArxivEntry
from bot.catalog.arxiv.titles import Outcome, match_title
from bot.domain.identifiers import ArxivId


def entry(arxiv: str, title: str, year: int, version: int = 1) -> ArxivEntry:
    return ArxivEntry(
        id=ArxivId(arxiv),
        version=version,
        title=title,
        authors=("A. Author",),
        abstract="An abstract.",
        published=dt.datetime(year, 6, 1, tzinfo=dt.UTC),
        abs_url=f"https://arxiv.org/abs/{arxiv}v{version}",
    )


def test_equal_titles_match_whatever_their_case_accents_and_punctuation() -> None:
    found = match_title(
        "Train for the Worst, Plan for the Best: Über Tokens",
        2025,
        [
            entry("2502.00001", "Train for the Worst, Plan for the Best", 2025),  # only a prefix
            entry("2502.06768", "train for the worst -- plan for the best: uber tokens!", 2025),
        ],
    )
    assert found.outcome is Outcome.FOUND
    assert found.entry is not None
    assert found.entry.id.id == "2502.06768"


@pytest.mark.parametrize(
    ("published", "outcome"),
    [
        (2022, Outcome.FOUND),  # two years before the venue
        (2024, Outcome.FOUND),  # the venue's year
        (2021, Outcome.NOT_FOUND),  # too early: another paper of the same name
        (2025, Outcome.NOT_FOUND),  # after the venue: not this paper's preprint
    ],
)
def test_the_year_must_be_plausible(published: int, outcome: Outcome) -> None:
    assert (
        match_title("Same Title", 2024, [entry("2201.00001", "Same Title", published)]).outcome
        is outcome
    )


def test_several_ids_with_the_title_are_ambiguous_but_versions_of_one_are_not() -> None:
    ambiguous = match_title(
        "Same Title",
        2024,
        [entry("2401.00002", "Same Title", 2024), entry("2301.00001", "Same title.", 2023)],
    )
    assert ambiguous.outcome is Outcome.AMBIGUOUS
    assert ambiguous.candidates == ("2301.00001", "2401.00002")
    versions = [entry("2401.00002", "Same Title", 2024, v) for v in (1, 2)]
    assert match_title("Same Title", 2024, versions).outcome is Outcome.FOUND
    # One of the two out of the year range: no longer ambiguous.
    older = [entry("2401.00002", "Same Title", 2024), entry("1801.00001", "Same Title", 2018)]
    assert match_title("Same Title", 2024, older).candidates == ("2401.00002",)


def test_no_entry_no_match() -> None:
    assert match_title("Anything", 2024, []).outcome is Outcome.NOT_FOUND
