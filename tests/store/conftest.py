from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.domain.models import Award, AwardKind, CatalogBatch, Paper, Venue
from bot.store.catalog import CatalogRepository
from bot.store.database import Database

VENUES = (Venue(key="icml", name="ICML"), Venue(key="neurips", name="NeurIPS"))


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "laurel.db")
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def catalog(db: Database) -> CatalogRepository:
    repository = CatalogRepository(db)
    plan = await repository.apply(CatalogBatch(venues=VENUES), actor="test", policy="update")
    assert plan.count("add", "venue") == len(VENUES)
    return repository


def award(title: str, *, venue: str = "icml", year: int = 2025, **paper: object) -> Award:
    return Award(
        venue=venue,
        year=year,
        name="Outstanding Paper",
        kind=AwardKind.OUTSTANDING,
        paper=Paper.model_validate({"title": title, **paper}),
    )


def batch(*awards: Award) -> CatalogBatch:
    return CatalogBatch(awards=awards)
