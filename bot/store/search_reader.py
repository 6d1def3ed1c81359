"""Answering from the derived search index (bot/store/search_index.py keeps it up to date).

Searches run on threads of their own (tantivy lets go of the GIL while it searches), each with a
read-only connection of its own to the store, so one hop off the event loop ranks a page and
reads it. Any failure of the index while it answers (bot/store/search_files.py) is not the
person's problem: the search answers None (the caller asks FTS5) and the index is rebuilt.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import tantivy

from bot.store import search_store
from bot.store.search import Parsed
from bot.store.search_files import IndexFault, IndexFiles, guarded
from bot.store.search_query import build_query, schema, similar_query
from bot.store.search_store import Store
from bot.store.sql import Connection

T = TypeVar("T")
SEARCHERS = 2  # threads answering searches: one per core
# Ties at the edge of a page are resolved by paper id: fetch at most this many to find them.
TIE_LIMIT = 10_000
_STORE_ERRORS = search_store.store_errors()


class IndexReader:
    """The searching side of `SearchIndex`, which opens, follows and heals the index."""

    _files: IndexFiles | None

    def __init__(self, store: Store) -> None:
        self.store = store
        self.schema = schema()
        self.ready = False
        self._index: tantivy.Index | None = None
        self._searchers = ThreadPoolExecutor(
            max_workers=SEARCHERS, thread_name_prefix="laurel-search"
        )
        # Each searcher thread's own read-only connection to the store (`search_then`).
        self._readers = threading.local()
        self._opened: list[Connection] = []
        self._opened_lock = threading.Lock()

    def _faulted(self, operation: str, exc: IndexFault) -> None:
        raise NotImplementedError  # SearchIndex: out of service, counted, rebuilt

    def _connect(self, *, same_thread: bool = True) -> Connection:
        return search_store.connect(self.store, same_thread=same_thread)

    # -- searching ----------------------------------------------------------------------------

    def count(self) -> int:
        """How many papers the committed index holds."""
        return 0 if self._index is None else int(self._index.searcher().num_docs)

    async def search(
        self,
        parsed: Parsed,
        *,
        venue: str | None = None,
        year: int | None = None,
        kind: str | None = None,
        area: str | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[int] | None:
        """`search_now` on a thread of its own: tantivy lets go of the GIL while it searches,
        so the event loop answers other interactions meanwhile (a common word at 100,000
        papers takes milliseconds)."""
        return await self.search_then(
            parsed, lambda _conn, ids: ids, venue=venue, year=year, kind=kind, area=area,
            limit=limit, offset=offset,
        )  # fmt: skip

    async def search_then(
        self,
        parsed: Parsed,
        load: Callable[[Connection, list[int]], T],
        *,
        venue: str | None = None,
        year: int | None = None,
        kind: str | None = None,
        area: str | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> T | None:
        """The ids `search_now` ranks first, then `load(conn, ids)` on the same thread, with a
        read-only connection of that thread's to the store: one hop off the event loop for a
        whole answer (ranking, reading the page, building its models), not one for the index
        and another for the store. None while the index is not ready."""
        if not self.ready:
            return None

        def search_and_load() -> T | None:
            ids = self._checked(
                lambda: self.search_now(
                    parsed, venue=venue, year=year, kind=kind, area=area, limit=limit,
                    offset=offset,
                )
            )  # fmt: skip
            return None if ids is None else self._load(load, ids)

        return await self._searching(search_and_load)

    async def similar_then(
        self,
        words: list[str],
        exclude: int,
        load: Callable[[Connection, list[int]], T],
        *,
        limit: int = 5,
    ) -> T | None:
        """`load(conn, ids)` of the papers sharing the most of `words` (a title's), best first,
        paper `exclude` left out; None while the index is not ready. (SQLite asks FTS5.)"""
        if not self.ready or self._index is None:
            return None
        query = similar_query(self.schema, words, exclude)

        def search_and_load() -> T | None:
            ids = self._checked(lambda: self._ranked(query, limit, 0))
            return None if ids is None else self._load(load, ids)

        return await self._searching(search_and_load)

    async def _searching(self, search_and_load: Callable[[], T | None]) -> T | None:
        """`search_and_load()` on a searcher thread; None (the caller answers without the
        index) if the index fails, which starts its rebuild."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._searchers, search_and_load)
        except IndexFault as exc:
            self._faulted("search", exc)
            return None

    def _checked(self, search: Callable[[], list[int] | None]) -> list[int] | None:
        """`search()` over files checked first; any failure of the index is an IndexFault."""

        def run() -> list[int] | None:
            if self._files is not None:
                self._files.check()
            return search()

        return guarded(run)

    def _load(self, load: Callable[[Connection, list[int]], T], ids: list[int]) -> T:
        conn = self._reader()
        try:
            return load(conn, ids)
        except _STORE_ERRORS:
            self._forget_reader(conn)  # a lost server: the next search connects again
            raise

    def _reader(self) -> Connection:
        """This searcher thread's read-only connection to the store, opened at its first use."""
        conn: Connection | None = getattr(self._readers, "conn", None)
        if conn is None:
            conn = self._connect(same_thread=False)  # closed by `close`, from another thread
            search_store.read_only(conn)
            self._readers.conn = conn
            with self._opened_lock:
                self._opened.append(conn)
        return conn

    def _forget_reader(self, conn: Connection) -> None:
        self._readers.conn = None
        with self._opened_lock:
            if conn in self._opened:
                self._opened.remove(conn)
        with contextlib.suppress(*_STORE_ERRORS):
            search_store.close(conn)

    def search_now(
        self,
        parsed: Parsed,
        *,
        venue: str | None = None,
        year: int | None = None,
        kind: str | None = None,
        area: str | None = None,
        limit: int = 10,
        offset: int = 0,
    ) -> list[int] | None:
        """Paper ids, best first (ties by id), or None while the index is not ready."""
        if not self.ready or self._index is None:
            return None
        query = build_query(self.schema, parsed, venue, year, kind, area)
        return self._ranked(query, limit, offset)

    def _ranked(self, query: tantivy.Query, limit: int, offset: int) -> list[int] | None:
        """The ids of a page of `query`'s hits, best first, ties by id."""
        index = self._index  # once: a rebuild after a failure may let go of it meanwhile
        if index is None:
            return None
        searcher = index.searcher()
        end = offset + limit
        wanted = end
        while True:
            hits = searcher.search(query, limit=wanted + 1, count=False).hits
            if len(hits) <= wanted or hits[wanted][0] != hits[end - 1][0] or wanted >= TIE_LIMIT:
                break
            wanted *= 4  # a tie runs past the page: fetch all of it to order it by id
        if len(hits) <= offset:
            return []
        ids = searcher.fast_field_values("id", [address for _, address in hits])
        ranked = sorted(zip((-score for score, _ in hits), ids, strict=True))
        return [int(paper_id or 0) for _, paper_id in ranked[offset:end]]
