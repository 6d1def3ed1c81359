"""The ids behind /paper random and today, and similar papers for the Similar button."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.domain.models import AwardKind, Paper, StoredPaper
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.search.index import SearchIndex
from bot.store.search.similar import alike, topic_of
from bot.store.search.store import store_of
from tests.support.awards import award, batch
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


_OTHERS = (
    "Swimming Robots with Soft Fins",
    "Volleyball Training Machines",
    "Protein Folding at Scale",
    "Sparse Matrix Sketching",
    "Humanoid Push Recovery",
    "Weed Classification for Smart Farming",
)


async def test_similar_shares_the_topic_and_leaves_the_paper_out(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    """Similar papers are FTS5's on SQLite, the derived index's on PostgreSQL: the same ones;
    what shares nothing telling is not shown ("no close match": an empty list)."""
    await _seed(catalog)
    await catalog.apply(
        batch(*(award(title, year=2020 + n) for n, title in enumerate(_OTHERS))),
        actor="t",
        policy="update",
    )
    papers = await searching.papers()
    (gated,) = await papers.search("gated attention")
    titles = [p.paper.title for p in await papers.similar(gated.id)]
    assert titles == ["Attention Sinks in Language Models"]
    (swimming,) = await papers.search("swimming robots")
    assert await papers.similar(swimming.id) == []
    assert await papers.similar(999_999) == []


async def test_similar_keeps_to_the_filters(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    await _seed(catalog)
    await catalog.apply(
        batch(
            award("Attention Sinks in Large Language Models Again", venue="neurips"),
            *(award(title, year=2020 + n) for n, title in enumerate(_OTHERS)),
        ),
        actor="t",
        policy="update",
    )
    papers = await searching.papers()
    (gated,) = await papers.search("gated attention")
    found = await papers.similar(gated.id, venue="neurips")
    assert [p.paper.title for p in found] == ["Attention Sinks in Large Language Models Again"]


_BAYESIAN = (
    award(
        "Calibrated Intervals as Bayesian Quadrature",
        abstract="Calibrated intervals bound the losses of a black-box predictor, with"
        " guarantees that are frequentist. Revisited from a Bayesian standpoint, they turn into"
        " quadrature over the losses, easier to interpret.",
    ),
    award(
        "Bayesian Design Principles for Frequentist Bandits",
        abstract="A theory of frequentist regret for bandits from Bayesian principles: Bayesian"
        " posteriors decide each round, and Bayesian algorithms run prior-free.",
    ),
    award(
        "Stable Calibrated Intervals",
        abstract="Calibrated intervals for black-box predictors whose guarantees survive a"
        " perturbation of the losses.",
    ),
)


@pytest.mark.parametrize("engine", ["store", "index"])
async def test_one_title_word_in_common_is_no_close_match(
    db: Database, catalog: CatalogRepository, searching: Searching, engine: str
) -> None:
    """Issue 27: "Conformal Prediction as Bayesian Quadrature" listed "Bayesian Design
    Principles for Frequentist Sequential Learning", the two sharing "Bayesian" in their
    titles and "frequentist" beside it; the paper on the same two title words is listed."""
    others = (award(title, year=2020 + n) for n, title in enumerate(_OTHERS))
    await catalog.apply(batch(*_BAYESIAN, *others), actor="t", policy="update")
    index = SearchIndex(store_of(db), None)
    if engine == "index":
        await index.start()
        papers = PaperRepository(db, index=index)
    else:
        papers = await searching.papers()
    (quadrature,) = await papers.search("bayesian quadrature")
    titles = [p.paper.title for p in await papers.similar(quadrature.id)]
    await index.close()
    assert titles == ["Stable Calibrated Intervals"]


def test_how_summaries_speak_is_no_topic_two_papers_share() -> None:
    """Most of the catalogue's summaries open "The authors ...": never a word in common."""

    def paper(n: int, title: str, summary: str) -> StoredPaper:
        return StoredPaper(id=n, paper=Paper(title=title, summaries={"en": summary}))

    sketching = paper(1, "Sparse Quokka Sketching", "The authors sketch matrices of burrows.")
    counting = paper(2, "Sparse Wombat Counting", "The authors count wombats and matrices.")
    assert "author" not in topic_of(sketching).text
    # One title word (sparse) and one more (matrices) in common: not enough.
    assert not alike(topic_of(sketching), counting)
    assert alike(topic_of(sketching), paper(3, "Sparse Wombat Counting", "Matrices of burrows."))
