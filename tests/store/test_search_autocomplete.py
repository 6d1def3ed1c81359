"""Autocomplete names one paper (issue 27): it reads what names a paper — its title, its own
names, its authors, what it is filed under — never its summaries or abstract (a common word in
those, at 100,000 papers, made autocomplete's p99), and never falls back to the papers holding
some of the words. `/paper search` still reads everything. The derived index, on SQLite and on
PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, cast

import pytest

from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.search import query as search_query
from bot.store.search import readings
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

    monkeypatch.setattr(readings, "build_query", counting)  # as readings.py calls it
    assert await _choices(papers, "attention kernels") == []
    assert built == [False, False]
    assert len(await papers.search("attention kernels")) == 2


class _CountingSearcher:
    """A tantivy searcher that counts the searches made through it."""

    def __init__(self, searcher: Any, limits: list[int]) -> None:
        self._searcher = searcher
        self._limits = limits

    def search(self, query: Any, limit: int, count: bool = True) -> Any:
        self._limits.append(limit)
        return self._searcher.search(query, limit=limit, count=count)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._searcher, name)


async def test_a_common_prefix_is_ranked_in_one_search(
    db: Database, catalog: CatalogRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Titles alike score alike, and the prior (award, recency) may reorder them: a prefix
    every one of 120 titles holds was searched for 100 hits, then again for 400 (every match
    scored twice); the first search now fetches deep enough, and the order is the same."""
    await catalog.apply(
        batch(*(award(f"Learning Skill {n}", year=2014 + n % 12) for n in range(120))),
        actor="t",
        policy="update",
    )
    index = SearchIndex(store_of(db), None)
    await index.start()
    papers = PaperRepository(db, index=index)
    limits: list[int] = []
    page = readings.page

    def counting(searcher: Any, *args: Any, **kwargs: Any) -> Any:
        return page(cast(Any, _CountingSearcher(searcher, limits)), *args, **kwargs)

    monkeypatch.setattr("bot.store.search.index.page", counting)  # as index.py calls it
    choices = await papers.titles("lea")
    assert len(limits) == 1
    assert len(choices) == 25
    # The prior: the 30 papers of 2023 on (its most recent band) come first.
    assert all(c.year is not None and c.year >= 2023 for c in choices)
    await index.close()
