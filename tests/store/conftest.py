from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.domain.clock import SystemClock
from bot.domain.models import CatalogBatch
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.awards import VENUES
from tests.support.backends import open_postgres, open_sqlite

# Every store test that takes `db` runs on both backends (issue 15), unless it is marked
# `@pytest.mark.sqlite_only("why")`: a test about SQLite itself (its PRAGMAs, files, locks).
BACKENDS = ("sqlite", "postgresql")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "db" not in metafunc.fixturenames:
        return
    if any("backend" in mark.args[0] for mark in metafunc.definition.iter_markers("parametrize")):
        return  # the test names its backends itself, with what goes with each (test_search.py)
    only_sqlite = metafunc.definition.get_closest_marker("sqlite_only") is not None
    metafunc.parametrize("backend", ("sqlite",) if only_sqlite else BACKENDS)


@pytest.fixture
async def db(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Database]:
    """An empty, migrated database of this test's own, on `backend`."""
    database: Database
    if backend == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
        database = await open_postgres(url)
    else:
        database = await open_sqlite(tmp_path / "laurel.db")
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def catalog(db: Database) -> CatalogRepository:
    repository = CatalogRepository(db, SystemClock())
    plan = await repository.apply(CatalogBatch(venues=VENUES), actor="test", policy="update")
    assert plan.count("add", "venue") == len(VENUES)
    return repository
