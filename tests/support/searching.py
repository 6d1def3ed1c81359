"""Search in the store tests on either engine.

On SQLite a `PaperRepository` without an index searches with FTS5, as the tests always did. On
PostgreSQL there is no FTS5: search is the derived index alone, so there the repository gets one
(in memory) that follows every catalogue write of the test's database, as the bot's does.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self

from bot.domain.institutions import InstitutionAliases
from bot.store.catalog.papers import PaperRepository
from bot.store.database import Database
from bot.store.search.index import SearchIndex
from bot.store.search.store import store_of


class Searching:
    """`async with Searching(db) as searching: papers = await searching.papers()`."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self._index: SearchIndex | None = None

    async def papers(self, institutions: InstitutionAliases | None = None) -> PaperRepository:
        """A repository that can search `db` (FTS5 on SQLite, the derived index elsewhere)."""
        if self._db.dialect == "sqlite":
            return PaperRepository(self._db, institutions)
        if self._index is None:
            self._index = SearchIndex(store_of(self._db), None)
            await self._index.start()
            self._db.on_catalog_write(self._index.catch_up)
        return PaperRepository(self._db, institutions, self._index)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._index is not None:
            await self._index.close()
