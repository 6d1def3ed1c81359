"""A derived search index (tantivy) that follows the catalogue's change sequence.

SQLite is the truth; this index is a copy that can always be thrown away and rebuilt. It holds
the generation (the latest audit id, `documents.generation`) it reflects, in a file beside its
segments, written after each index commit. At start it is opened and checked against the store:
missing, unreadable, of another format or of another history (the audit row it names differs),
it is rebuilt; behind, it catches up by reading the audit rows since its generation. The same
catch-up runs after every committed catalogue write in this process (`Database` says when) and
every few seconds for writes made by other processes. A crash between a store commit and the
index's update leaves the index behind, which the next start repairs; a crash between the
index's commit and the generation file replays changes that are already in, which is harmless
(each changed paper is deleted and added again as it is now).

Until the index is ready (a rebuild of a large catalogue runs in the background), `search`
answers None and the caller asks FTS5.

A damaged index heals (bot/store/search/files.py says how damage is found): any failure of the
index to read or write — an error, damaged files, a directory deleted, a panic inside tantivy —
takes it out of service at once (FTS5 answers on SQLite; on PostgreSQL a search waits for the
rebuild), is counted (`on_fault`), shows in /health (`health`), and starts a rebuild in the
background into a fresh directory (in memory if the directory fails again).

Its schema and how a query is ranked: bot/store/search/query.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import tantivy

from bot.store.search import documents, store
from bot.store.search.documents import SearchDocument
from bot.store.search.files import (
    IndexFault,
    IndexFiles,
    Stopped,
    guarded,
    read_generation,
    save_generation,
    wipe,
)
from bot.store.search.heal import Healing
from bot.store.search.query import schema
from bot.store.search.readers import StoreReaders
from bot.store.search.readings import page
from bot.store.search.semantic import Embedder, Hubs, model_of, with_vectors
from bot.store.search.similar import Topic, similar_ranked
from bot.store.search.store import SNAPSHOT, Store
from bot.store.search.text import Parsed
from bot.store.sql import Connection

log = logging.getLogger(__name__)
T = TypeVar("T")

FORMAT = 8  # bump when the schema or the tokens change: an index of another format is rebuilt
# More papers than this to index from scratch: rebuilt in the background, FTS5 answers meanwhile.
BACKGROUND_OVER = 5_000
# More changed papers than this to catch up on: rebuilt instead.
REBUILD_OVER = 20_000
WRITER_HEAP = 64_000_000
SEARCHERS = 2  # threads answering searches: one per core
_STORE_ERRORS = store.store_errors()
# What leaves the index unready or behind, said in the log, instead of failing the bot.
_FAILURES: tuple[type[Exception], ...] = (OSError, ValueError, *_STORE_ERRORS)


class SearchIndex(Healing):
    """One process's index over one store (a SQLite file or a `postgresql://` URL); `path`
    None keeps it in memory (tests)."""

    writer_heap = WRITER_HEAP

    def __init__(
        self,
        store: Store,
        path: Path | None,
        *,
        on_fault: Callable[[str], None] | None = None,
        embedder: Callable[[], Embedder | None] | None = None,
    ) -> None:
        """`embedder`: loads the meaning model (semantic.load_embedder) as the index opens,
        off the event loop; None: words alone rank (tests, benchmarks measuring words)."""
        self.store = store
        self._load_embedder = embedder
        self.embedder: Embedder | None = None
        self.path = path
        self._on_fault = on_fault  # told "search" or "write" at each failure of the index
        self.faults = 0
        self.fault: str | None = None  # the failure being healed, None when healthy
        self._files: IndexFiles | None = None if path is None else IndexFiles(path)
        self._healing: asyncio.Task[None] | None = None
        self._heal_again = False
        self._must_rebuild = False
        # SQLite's FTS5 answers while the index is being rebuilt; PostgreSQL has no FTS5, so
        # there the committed index goes on answering (a moment behind) until the rebuild
        # commits, and a search before the first one waits for it (`wait_ready`).
        self._fallback = isinstance(store, Path)
        self.schema = schema()
        self.generation = -1  # the store's generation the committed index reflects
        self.ready = False
        self._index: tantivy.Index | None = None
        self._writer: tantivy.IndexWriter | None = None
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="laurel-index")
        self._searchers = ThreadPoolExecutor(
            max_workers=SEARCHERS, thread_name_prefix="laurel-search"
        )
        self._lock = asyncio.Lock()
        self._background: asyncio.Task[None] | None = None
        self._closed = False
        self._rebuilding = False
        self._dirty = False
        self._readers = StoreReaders(store)  # each searcher thread's own (`page_then`)
        self._hubs = Hubs()  # how near each paper lies to its nearest (`similar_then`)

    # -- starting, following, stopping ---------------------------------------------------------

    async def start(self, *, background_over: int = BACKGROUND_OVER) -> None:
        """Open the index and bring it up to the store; a large rebuild runs in the background.

        An index that cannot be opened (another process holds its directory, the disk refuses)
        is left unready, said in the log: FTS5 answers instead (on PostgreSQL, a search says
        it cannot), nothing fails.
        """
        try:
            rebuild = await self._run(self._open)
        except _FAILURES as exc:
            if self._fallback and "LockBusy" in str(exc):  # another process keeps it: no fault
                log.warning("search index at %s kept by another process; FTS5 answers", self.path)
            else:
                log.error("search index at %s unusable, %s: %s", self.path, self._meanwhile, exc)
            self._closed = True
            return
        if rebuild is None:
            await self.catch_up()
            return
        if rebuild > background_over:
            log.info("search index: rebuilding %s papers in the background", rebuild)
            self._background = asyncio.create_task(self._rebuild_then_follow())
            return
        await self.catch_up(rebuild=True)

    async def _rebuild_then_follow(self) -> None:
        try:
            await self.catch_up(rebuild=True)
        except Stopped:
            return
        except _FAILURES:
            log.exception("search index: the rebuild failed; %s", self._meanwhile)

    @property
    def _meanwhile(self) -> str:
        """Who answers searches while this index cannot, in the log's words."""
        return "FTS5 answers instead" if self._fallback else "searches fail until it catches up"

    async def wait_ready(self) -> None:
        """Wait for a background rebuild, or a heal, if one runs (PostgreSQL's searches, and
        benchmarks measuring the index itself)."""
        for task in (self._background, self._healing):
            if task is not None:
                await asyncio.shield(task)

    async def catch_up(self, *, rebuild: bool = False) -> None:
        """Bring the index up to the store's latest generation (one catch-up at a time).

        While a rebuild runs (FTS5 answering meanwhile), a write's catch-up does not wait a
        minute for it: it is noted, and the rebuild catches up again when it is done.
        """
        if self._rebuilding and not rebuild:
            self._dirty = True
            return
        try:
            async with self._lock:
                while not self._closed:
                    self._dirty = False
                    rebuild = rebuild or self._must_rebuild
                    self._rebuilding = rebuild
                    try:
                        await self._run(guarded, partial(self._catch_up, rebuild))
                    finally:
                        self._rebuilding = False
                    if not self._dirty:
                        break
                    rebuild = False
        except IndexFault as exc:
            self._faulted("write", exc)
            return
        if self.ready and self.fault is not None and not self._heal_again:
            log.info("search index: rebuilt after %s", self.fault)
            self.fault = None

    async def follow(self) -> None:
        """Catch up with writes other processes made. The bot's scheduler runs it every
        [search] follow_seconds; with no scheduler (a test on a clock it moves) it does not run,
        and the writes of this process are caught up as they commit."""
        try:
            await self.catch_up()
        except _FAILURES as exc:
            log.warning("search index: catching up failed (%s); trying again later", exc)

    async def close(self) -> None:
        """Stop: a rebuild under way stops at its next document and is rolled back (the next
        start rebuilds), so closing never waits for a whole catalogue to be indexed."""
        self._closed = True
        self.ready = False
        for task in (self._background, self._healing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await asyncio.to_thread(self._executor.shutdown, True)
        await asyncio.to_thread(self._searchers.shutdown, True)
        self._readers.close()  # no searcher runs any more
        self._writer = None
        self._index = None

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    # -- the worker's side ------------------------------------------------------------------

    def _connect(self, *, same_thread: bool = True) -> Connection:
        return store.connect(self.store, same_thread=same_thread)

    def _open(self) -> int | None:
        """Open or make the index; None if it can follow the store, else papers to rebuild."""
        index: tantivy.Index | None = None
        saved: dict[str, object] = {}
        if self._load_embedder is not None and self.embedder is None:
            self.embedder = self._load_embedder()
        if self.path is not None:
            self.path.mkdir(parents=True, exist_ok=True)
            try:
                saved = read_generation(self.path)
                same = (saved.get("format"), saved.get("model")) == self._format
                if same and tantivy.Index.exists(str(self.path)):
                    guarded(self._files.check if self._files else lambda: None)
                    index = tantivy.Index.open(str(self.path))
            except FileNotFoundError:
                index, saved = None, {}  # none yet
            except (OSError, ValueError, IndexFault) as exc:
                log.warning("search index at %s cannot be trusted (%s): rebuilt", self.path, exc)
                index, saved = None, {}
                wipe(self.path)
        if index is None:
            index = tantivy.Index(
                self.schema, path=None if self.path is None else str(self.path), reuse=False
            )
            saved = {}
        self._index = index
        self._writer = index.writer(WRITER_HEAP, 1)
        conn = self._connect()
        try:
            generation = saved.get("generation")
            if isinstance(generation, int) and saved.get("mark") == documents.generation_mark(
                conn, generation
            ):
                self.generation = generation
                if generation <= documents.generation(conn):
                    return None
            return int(conn.execute("SELECT count(*) FROM live_papers").fetchone()[0])
        finally:
            store.close(conn)

    def _catch_up(self, rebuild: bool) -> None:
        assert self._writer is not None
        assert self._index is not None
        started = time.perf_counter()
        if self._files is not None and not rebuild:
            self._files.check()  # damage, or the directory deleted: rebuilt (`_faulted`)
        conn = self._connect()
        try:
            conn.execute(SNAPSHOT[conn.dialect])  # the generation and the documents agree
            latest = documents.generation(conn)
            if not rebuild and latest == self.generation:
                conn.execute("COMMIT")
                self.ready = True
                return
            ids: set[int] | None = None
            if not rebuild:
                ids = documents.changed_papers(conn, self.generation, latest)
                rebuild = len(ids) > REBUILD_OVER
            try:
                if rebuild:
                    # Stale until committed: FTS5 answers meanwhile (PostgreSQL has none: the
                    # committed index goes on answering, as it is, until the rebuild commits).
                    self.ready = self.ready and not self._fallback
                    self._writer.delete_all_documents()
                    count = self._add(documents.documents(conn))
                else:
                    assert ids is not None
                    for paper_id in ids:
                        self._writer.delete_documents_by_term("id", paper_id)
                    count = self._add(documents.documents(conn, ids))
                mark = documents.generation_mark(conn, latest)
                conn.execute("COMMIT")
            except BaseException:
                self._writer.rollback()  # nothing half-applied reaches the next commit
                raise
        finally:
            store.close(conn)
        self._writer.commit()
        self._index.reload()
        if self._files is not None:
            self._files.check()  # the new segment's files, verified once here, not by a search
        if self.path is not None:
            form, model = self._format
            saved: dict[str, object] = {"format": form, "model": model}
            save_generation(self.path, saved | {"generation": latest, "mark": mark})
        self.generation = latest
        self._must_rebuild = False
        self.ready = True
        if rebuild:
            seconds = time.perf_counter() - started
            log.info("search index: rebuilt %s papers in %.1f s", count, seconds)

    @property
    def _format(self) -> tuple[int, str | None]:
        """The index's format and its vectors' model: either changed, it is rebuilt."""
        return FORMAT, model_of(self.embedder)

    def _add(self, docs: Iterable[SearchDocument]) -> int:
        """Add `docs`, with their vectors where the meaning model loaded (semantic.py)."""
        assert self._writer is not None
        count = 0
        for doc, vector in with_vectors(docs, self.embedder):
            if self._closed:
                raise Stopped("the index was closed")
            self._writer.add_document(doc.as_tantivy(vector))
            count += 1
        return count

    # -- searching ----------------------------------------------------------------------------

    def count(self) -> int:
        """How many papers the committed index holds."""
        return 0 if self._index is None else int(self._index.searcher().num_docs)

    async def page_then(
        self,
        parsed: Parsed,
        load: Callable[[Connection, list[int]], T],
        *,
        venue: str | None = None, year: int | None = None, kind: str | None = None,
        area: str | None = None, limit: int = 10, offset: int = 0, count: bool = True,
        any_word: bool = True, naming: bool = False, close: int = 0,
    ) -> tuple[T, int, T | None] | None:  # fmt: skip
        """The ids `page_now` ranks, then `load(conn, ids)` on the same thread with a read-only
        connection of that thread's (`StoreReaders`): one hop off the event loop for a whole
        answer; how many matched in all (-1 unless `count`: autocomplete needs none, and a
        common word's costs); with `close`, `load` of the papers close to the query, else
        None (`any_word`, `naming`, `close`: readings.page). None while not ready."""
        if not self.ready:
            return None
        close = min(close, limit) if offset == 0 and count else 0

        def search_and_load() -> tuple[T, int, T | None] | None:
            found = self._checked(
                lambda: self.page_now(
                    parsed, venue=venue, year=year, kind=kind, area=area, limit=limit,
                    offset=offset, count=count, any_word=any_word, naming=naming, close=close,
                )
            )  # fmt: skip
            if found is None:
                return None
            (ids, total), read = found, self._readers.load
            cut = min(len(ids), total) if 0 <= total < close else len(ids)  # the matches
            return read(load, ids[:cut]), total, read(load, ids[cut:]) if close else None

        return await self._searching(search_and_load)

    async def similar_then(
        self,
        topic: Topic,
        load: Callable[[Connection, list[int]], T],
        *,
        limit: int = 5,
        scope: tuple[str | None, int | None, str | None, str | None] = (None, None, None, None),
    ) -> T | None:
        """`load(conn, ids)` of the papers about `topic` (search/similar.py), best first, within
        `scope` (venue, year, kind, area), none below the relevance floors (by words, up to
        `limit` of them, and by meaning, any of the first POOL), the topic's own paper left
        out; None while the index is not ready."""
        if not self.ready or self._index is None:
            return None
        index = self._index

        def search_and_load() -> T:
            hubs = (self._hubs, self.generation)  # read first: a later one's hubs are read anew
            ids = self._checked(
                lambda: similar_ranked(index.searcher(), self.schema, topic, scope, limit, hubs)
            )
            return self._readers.load(load, ids)

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

    def _checked(self, search: Callable[[], T]) -> T:
        """`search()` over files checked first; any failure of the index is an IndexFault
        (wrap every read of the index in it, on a searcher thread)."""

        def run() -> T:
            if self._files is not None:
                self._files.check()
            return search()

        return guarded(run)

    def page_now(
        self,
        parsed: Parsed,
        *,
        venue: str | None = None,
        year: int | None = None,
        kind: str | None = None,
        area: str | None = None,
        limit: int = 10,
        offset: int = 0,
        count: bool = True,
        any_word: bool = True,
        naming: bool = False,
        close: int = 0,
    ) -> tuple[list[int], int] | None:
        """A page of paper ids, best first (ties by id), and how many matched in all
        (readings.page). None while the index is not ready."""
        index = self._index  # once: a rebuild after a failure may let go of it meanwhile
        if not self.ready or index is None:
            return None
        searcher, filters = index.searcher(), (venue, year, kind, area)
        return page(
            searcher, self.schema, parsed, filters, limit, offset, count=count,
            any_word=any_word, naming=naming, close=close, meaning=self.embedder,
        )  # fmt: skip
