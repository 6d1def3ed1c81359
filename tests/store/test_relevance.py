"""The derived index finds the paper meant at least as often as FTS5 (benchmarks/relevance.py
makes the test set from the bundled catalogue and prints the figures by kind)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.relevance import KINDS, evaluate, first, make_cases
from bot.store.catalog.papers import PaperRepository
from bot.store.search.index import SearchIndex
from tests.support.backends import open_sqlite

pytestmark = pytest.mark.sqlite_only(
    "compares with FTS5, SQLite's own search (on PostgreSQL: test_bundled_postgres.py)"
)


async def test_the_index_ranks_the_paper_meant_first_at_least_as_often_as_fts5(
    template_db: Path, tmp_path: Path
) -> None:
    copy = tmp_path / "laurel.db"
    copy.write_bytes(template_db.read_bytes())
    async with await open_sqlite(copy) as db:
        cases = await db.snapshot(make_cases)
        assert {case.kind for case in cases} == set(KINDS)  # every kind of query is asked
        index = SearchIndex(db.path, None)
        await index.start()
        fts5 = await evaluate(PaperRepository(db), cases)
        derived = await evaluate(PaperRepository(db, index=index), cases)
        await index.close()
    assert first(derived["exact title"]) == len(derived["exact title"])
    assert first(derived["all"]) >= first(fts5["all"])
    # No kind of query may fall behind by more than 1%. (No absolute floor: with the whole
    # history bundled, many papers share a surname or a three-letter prefix, whatever ranks.)
    for kind in KINDS:
        allowed = max(1, len(fts5[kind]) // 100)
        assert first(derived[kind]) >= first(fts5[kind]) - allowed, kind
