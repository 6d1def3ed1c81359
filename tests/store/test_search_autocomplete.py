"""Autocomplete names one paper (issue 27): it reads what names a paper — its title, its own
names, its authors, what it is filed under — never its summaries or abstract (a common word in
those, at 100,000 papers, made autocomplete's p99), and never falls back to the papers holding
some of the words. `/paper search` still reads everything. The derived index, on SQLite and on
PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.search import query as search_query
from bot.store.search.index import SearchIndex
from bot.store.search.store import store_of
from tests.support.awards import award, batch

CATALOGUE = (
    award("Gated Attention for Large Language Models"),
    award(
        "Sparse Routing for Experts",
        abstract="Each token is gated to a few experts; the routing is learned.",
        summaries={"en": "A gated router sends each token to few experts.", "zh-TW": "稀疏路由"},
    ),
    award("Kernels Revisited", authors=("Ada Gatewood",)),
)


@pytest.fixture
async def papers(db: Database, catalog: CatalogRepository) -> AsyncIterator[PaperRepository]:
    await catalog.apply(batch(*CATALOGUE), actor="t", policy="update")
    index = SearchIndex(store_of(db), None)
    await index.start()
    yield PaperRepository(db, index=index)
    await index.close()


async def _choices(papers: PaperRepository, text: str) -> list[str]:
    return sorted(c.title for c in await papers.titles(text))


async def test_autocomplete_reads_what_names_a_paper_not_its_summary_or_abstract(
    papers: PaperRepository,
) -> None:
    # A member's search finds the word in a summary and an abstract too ...
    assert sorted(p.paper.title for p in await papers.search("gated")) == [
        "Gated Attention for Large Language Models",
        "Sparse Routing for Experts",
    ]
    # ... autocomplete, whole or as typed, only where it names the paper.
    assert await _choices(papers, "gated") == ["Gated Attention for Large Language Models"]
    assert await _choices(papers, "gat") == [
        "Gated Attention for Large Language Models",
        "Kernels Revisited",  # by its author, Ada Gatewood
    ]
    assert await _choices(papers, "router") == []
    # A CJK run: the title is in English, the reader's summary names the paper.
    assert await _choices(papers, "稀疏路由") == ["Sparse Routing for Experts"]


async def test_autocomplete_never_falls_back_to_any_of_the_words(
    papers: PaperRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No paper is named by both words: autocomplete answers none after at most the search of
    every word and the one within one edit; `/paper search` ranks the papers with either."""
    built: list[bool] = []
    build = search_query.build_query

    def counting(*args: object, **kwargs: object) -> object:
        built.append(bool(kwargs.get("relaxed")))
        return build(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(search_query, "build_query", counting)
    assert await _choices(papers, "attention kernels") == []
    assert built == [False, False]
    assert len(await papers.search("attention kernels")) == 2
