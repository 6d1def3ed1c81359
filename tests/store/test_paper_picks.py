"""The ids behind /paper random and today, and similar papers for the Similar button."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.domain.models import AwardKind
from bot.store.catalog import CatalogRepository
from bot.store.database import Database
from bot.store.papers import PaperRepository
from tests.store.conftest import award, batch
from tests.support.searching import Searching


@pytest.fixture
async def searching(db: Database) -> AsyncIterator[Searching]:
    """Search on either engine (tests/support/searching.py)."""
    async with Searching(db) as found:
        yield found


async def _seed(catalog: CatalogRepository) -> None:
    await catalog.apply(
        batch(
            award("Gated Attention for Large Language Models"),
            award("Attention Sinks in Language Models", year=2024),
            award("Scaling Laws for Diffusion", venue="neurips"),
            award("The Unrelated Paper", venue="neurips", year=2024),
        ),
        actor="t",
        policy="update",
    )


async def test_ids_are_every_awarded_paper_ascending_and_filtered(
    db: Database, catalog: CatalogRepository
) -> None:
    await _seed(catalog)
    papers = PaperRepository(db)
    every = await papers.ids()
    assert len(every) == 4
    assert every == sorted(every)
    assert len(await papers.ids(venue="neurips")) == 2
    assert len(await papers.ids(venue="icml", year=2024)) == 1
    assert await papers.ids(kind=AwardKind.BEST) == []


async def test_similar_shares_title_words_and_leaves_the_paper_out(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    """Similar papers are FTS5's on SQLite, the derived index's on PostgreSQL: the same ones."""
    await _seed(catalog)
    papers = await searching.papers()
    (gated,) = await papers.search("gated attention")
    titles = [p.paper.title for p in await papers.similar(gated.id)]
    assert titles[0] == "Attention Sinks in Language Models"
    assert "Gated Attention for Large Language Models" not in titles
    assert "The Unrelated Paper" not in titles
    assert await papers.similar(999_999) == []
