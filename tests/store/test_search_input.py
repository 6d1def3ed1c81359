"""What a person types into a search, read as they see it (issue 22): invisible characters
(a zero-width space inside a word, bidi controls) neither split nor hide a word, on FTS5 and
the derived index, on both backends."""

from __future__ import annotations

import pytest

from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.search.index import SearchIndex
from bot.store.search.store import store_of
from tests.support.awards import award, batch


@pytest.mark.parametrize(
    "typed", ["atten\u200btion", "\u202eattention", "atten\u2060tion", "\ufeffattention\u200d"]
)
async def test_invisible_characters_in_a_query_are_ignored(
    db: Database, catalog: CatalogRepository, typed: str
) -> None:
    await catalog.apply(batch(award("Gated attention for experts")), actor="t", policy="update")
    index = SearchIndex(store_of(db), None)
    await index.start()
    engines = [PaperRepository(db, index=index)]
    if db.dialect == "sqlite":
        engines.append(PaperRepository(db))  # FTS5
    for papers in engines:
        assert [p.paper.title for p in await papers.search(typed)] == [
            "Gated attention for experts"
        ]
        assert [c.title for c in await papers.titles(typed)] == ["Gated attention for experts"]
    await index.close()
