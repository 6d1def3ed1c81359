"""The bundled 2024 awards of ICLR and IJCAI: every award announced, every paper findable."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.catalog.bundled import documents, load_bundled
from bot.catalog.document import merge, read_document
from bot.domain.clock import SystemClock
from bot.domain.models import Award
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.backends import open_sqlite

BUNDLED = load_bundled()
# The hand-written documents alone: the generated ones (data/awards/) only add to these.
HAND_WRITTEN = merge(
    read_document(text, name) for name, text in documents() if not name.startswith("awards/")
)


def _awards(venue: str) -> list[Award]:
    return [a for a in HAND_WRITTEN.awards if a.venue == venue and a.year == 2024]


@pytest.fixture
async def loaded(tmp_path: Path) -> AsyncIterator[Database]:
    async with await open_sqlite(tmp_path / "laurel.db") as db:
        plan = await CatalogRepository(db, SystemClock()).apply(
            BUNDLED, actor="bundled", policy="update"
        )
        assert plan.rejected == []
        yield db


@pytest.mark.parametrize(
    ("venue", "expected"),
    [
        ("iclr", {"outstanding": 5, "honorable-mention": 11, "test-of-time": 2}),
        ("ijcai", {"distinguished": 3}),
    ],
)
async def test_2024_awards_per_kind(loaded: Database, venue: str, expected: dict[str, int]) -> None:
    papers = await PaperRepository(loaded).awarded_at(venue, 2024)
    kinds = Counter(
        award.kind.value
        for paper in papers
        for award in paper.awards
        if award.venue == venue and award.year == 2024
    )
    assert dict(kinds) == expected


def test_the_test_of_time_runner_up_is_labelled_by_its_name() -> None:
    names = sorted(a.name for a in _awards("iclr") if a.kind.value == "test-of-time")
    assert names == ["Test of Time Award", "Test of Time Award Runner Up"]


# Papers whose only link rested on an aggregator and was left out (issue 24): named, so that
# no other paper loses its link unnoticed. Each has a comment in data/2024/iclr.toml listing
# what was searched.
LINK_NOT_SOURCED = {"Towards a statistical theory of data selection under weak supervision"}


@pytest.mark.parametrize("venue", ["iclr", "ijcai"])
def test_every_2024_paper_can_be_opened(venue: str) -> None:
    # An arXiv id (with its abstract page), the venue's own page for it, or a DOI.
    linkless = [
        a.paper.title
        for a in _awards(venue)
        if not (a.paper.arxiv or a.paper.links.openreview or a.paper.doi)
    ]
    assert sorted(set(linkless) - LINK_NOT_SOURCED) == []
    for award in _awards(venue):
        if award.paper.arxiv:
            assert award.paper.links.arxiv == f"https://arxiv.org/abs/{award.paper.arxiv}"


def test_no_two_2024_papers_share_an_id_or_a_link() -> None:
    papers = [a.paper for a in _awards("iclr") + _awards("ijcai")]
    for values in (
        [p.arxiv for p in papers if p.arxiv],
        [p.doi for p in papers if p.doi],
        [p.links.openreview for p in papers if p.links.openreview],
    ):
        assert len(values) == len(set(values))


@pytest.mark.parametrize("venue", ["iclr", "ijcai"])
def test_every_2024_award_and_paper_names_where_it_came_from(venue: str) -> None:
    for award in _awards(venue):
        assert award.sources, award.paper.title
        assert any(s.url for s in award.paper.sources), award.paper.title
        # All three languages, or none where the abstract was found only on mirrors (issue 24;
        # those papers are listed in test_bundled.WITHOUT_SUMMARY).
        assert set(award.paper.summaries) in ({"en", "zh-TW", "zh-CN"}, set()), award.paper.title


async def test_the_register_tokens_paper_is_found_by_its_arxiv_id(loaded: Database) -> None:
    paper = await PaperRepository(loaded).by_arxiv("2309.16588")
    assert paper is not None
    assert paper.paper.title == "Vision Transformers Need Registers"
    assert [(a.venue, a.year, a.kind.value) for a in paper.awards] == [
        ("iclr", 2024, "outstanding")
    ]
