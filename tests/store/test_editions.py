from __future__ import annotations

from bot.domain.models import Accepted, CatalogBatch, Counts, Edition, Submitted
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database


async def test_editions_in_year_gives_every_venue_of_that_year(
    db: Database, catalog: CatalogRepository
) -> None:
    editions = (
        Edition(venue="neurips", year=2025, submissions=21575, accepted=5290),
        Edition(venue="icml", year=2025, submissions=12107, accepted=3260),
        Edition(venue="icml", year=2024, submissions=9473),
    )
    await catalog.apply(CatalogBatch(editions=editions), actor="test", policy="update")
    repository = EditionRepository(db)

    found = await repository.editions_in_year(2025)

    assert [(e.venue, e.submissions, e.accepted) for e in found] == [
        ("icml", 12107, 3260),
        ("neurips", 21575, 5290),
    ]
    assert await repository.editions_in_year(1999) == []


async def test_what_a_figure_counts_is_stored_and_read_back(
    db: Database, catalog: CatalogRepository
) -> None:
    # Figures of papers reviewed, not submitted (AAAI-25's 12,957): the store says so (issue 24).
    counts = Counts(submissions=Submitted.REVIEWED, accepted=Accepted.MAIN)
    edition = Edition(venue="icml", year=2025, submissions=12957, accepted=3032, counts=counts)
    await catalog.apply(CatalogBatch(editions=(edition,)), actor="test", policy="update")

    found = await EditionRepository(db).edition("icml", 2025)

    assert found is not None
    assert found.counts == counts
