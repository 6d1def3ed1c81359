"""Papers close to a query (issue 27): after fewer matches than a page holds, a member's first
page goes on with what the later readings find (some of the words, within a typo), apart from
the matches and not counted with them. On SQLite and PostgreSQL, through the repository."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence

import pytest

from bot.domain.models import StoredPaper
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.search.index import SearchIndex
from bot.store.search.store import store_of
from tests.support.awards import award, batch

CATALOGUE = (
    award("Quokka Navigation in Deserts"),
    award("Desert Robots"),
    award("Quokka Ecology"),
    award("Forest Robots"),
    award("Quokka Navigation among Wombat Burrows"),
    *(award(f"Wombat Burrows {n}") for n in range(30)),  # wombat: a word most papers hold
)


@pytest.fixture
async def papers(db: Database, catalog: CatalogRepository) -> AsyncIterator[PaperRepository]:
    await catalog.apply(batch(*CATALOGUE), actor="t", policy="update")
    index = SearchIndex(store_of(db), None)
    await index.start()
    yield PaperRepository(db, index=index)
    await index.close()


def _titles(found: Sequence[StoredPaper]) -> list[str]:
    return [p.paper.title for p in found]


async def test_fewer_matches_go_on_with_papers_close_to_the_query(papers: PaperRepository) -> None:
    found, total, close = await papers.search_page("quokka desert", limit=6, close=5)
    assert (_titles(found), total) == (["Quokka Navigation in Deserts"], 1)  # the matches'
    assert sorted(_titles(close)) == [  # any of the words
        "Desert Robots",
        "Quokka Ecology",
        "Quokka Navigation among Wombat Burrows",
    ]
    assert await papers.search_page("quokka desert", limit=6) == (found, 1, [])


async def test_close_papers_fill_up_to_the_number_asked_and_the_page(
    papers: PaperRepository,
) -> None:
    _, total, close = await papers.search_page("quokka desert", limit=6, close=2)
    assert total == 1
    assert len(close) == 1
    found, total, close = await papers.search_page("quokka desert", limit=1, close=5)
    assert (len(found), total, len(close)) == (1, 1, 0)  # never more than a page


async def test_a_full_page_later_pages_and_every_word_get_none(papers: PaperRepository) -> None:
    found, total, close = await papers.search_page("wombat", limit=6, close=5)
    assert (len(found), total, close) == (6, 31, [])  # five matches or more: nothing added
    later = await papers.search_page("quokka desert", limit=6, offset=6, close=5)
    assert later == ([], 1, [])
    strict = await papers.search_page("quokka desert", limit=6, close=5, every_word=True)
    assert (_titles(strict[0]), strict[1:]) == (["Quokka Navigation in Deserts"], (1, []))


async def test_an_exact_title_has_nothing_close(papers: PaperRepository) -> None:
    found, total, close = await papers.search_page("Quokka Ecology", limit=6, close=5)
    assert (_titles(found), total, close) == (["Quokka Ecology"], 1, [])


async def test_a_word_most_papers_hold_brings_no_close_paper(papers: PaperRepository) -> None:
    """Ranking every paper with a common word is what made a long query dear at scale; and
    a paper that shares only "wombat" with the query is not close to it."""
    found, total, close = await papers.search_page("quokka wombat", limit=6, close=5)
    assert (_titles(found), total) == (["Quokka Navigation among Wombat Burrows"], 1)
    assert sorted(_titles(close)) == ["Quokka Ecology", "Quokka Navigation in Deserts"]


async def test_a_reading_that_already_has_any_word_adds_nothing(papers: PaperRepository) -> None:
    # No paper has both words: the any-word reading is the answer, and nothing is after it.
    found, total, close = await papers.search_page("forest quokka", limit=6, close=5)
    assert sorted(_titles(found)) == [
        "Forest Robots",
        "Quokka Ecology",
        "Quokka Navigation among Wombat Burrows",
        "Quokka Navigation in Deserts",
    ]
    assert (total, close) == (4, [])


async def test_a_paper_removed_before_the_index_follows_never_moves_a_close_one_up(
    catalog: CatalogRepository, papers: PaperRepository
) -> None:
    """The index answers from what it last saw; the store reads what is live. A match
    removed in between leaves the matches short, not a close paper among them."""
    found, _, _ = await papers.search_page("quokka desert", limit=6, close=5)
    await catalog.remove("paper", found[0].id, actor="t")  # the index is not told here
    found, _, close = await papers.search_page("quokka desert", limit=6, close=5)
    assert found == []
    assert len(close) == 3
