"""How the derived search index heals (bot/store/search/index.py is the index).

Any failure of the index to read or write (bot/store/search/files.py says what counts) takes
it out of service at once: SQLite's FTS5 answers, and on PostgreSQL a search waits for the
rebuild. The failure is counted (`on_fault`, the metrics), shows in /health as degraded
(`health`), and a rebuild starts in the background into a fresh directory, in memory if the
directory fails again, given up (until a restart) after a few attempts.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import tantivy

from bot.store.search import store
from bot.store.search.files import IndexFault, IndexFiles, Stopped, wipe

log = logging.getLogger("bot.store.search.index")
T = TypeVar("T")
# Rebuilds of a damaged index in a row before it is given up until the next start.
HEAL_ATTEMPTS = 3
_FAILURES: tuple[type[Exception], ...] = (OSError, ValueError, *store.store_errors())


class Healing:
    """`SearchIndex`'s side that notices failures and rebuilds."""

    path: Path | None
    schema: tantivy.Schema
    ready: bool
    generation: int
    faults: int
    fault: str | None
    _on_fault: Callable[[str], None] | None
    _files: IndexFiles | None
    _healing: asyncio.Task[None] | None
    _heal_again: bool
    _must_rebuild: bool
    _closed: bool
    _lock: asyncio.Lock
    _index: tantivy.Index | None
    _writer: tantivy.IndexWriter | None
    writer_heap: int  # bytes a writer may buffer

    if TYPE_CHECKING:

        async def _run(self, fn: Callable[..., T], *args: Any) -> T: ...

        async def catch_up(self, *, rebuild: bool = False) -> None: ...

        @property
        def _meanwhile(self) -> str: ...

    def health(self) -> tuple[bool, str]:
        """Whether the index answers searches, and in a few words how it is (for /health)."""
        if self.fault is not None:
            return False, f"degraded: rebuilding after {self.fault}; {self._meanwhile}"
        if self._closed:
            return False, f"unusable (see the log); {self._meanwhile}"
        if not self.ready:
            return False, f"being built; {self._meanwhile}"
        return True, "ready"

    # -- healing ------------------------------------------------------------------------------

    def _faulted(self, operation: str, exc: IndexFault) -> None:
        """The index failed: out of service at once, counted, and rebuilt in the background."""
        self.ready = False
        self.faults += 1
        self.fault = f"a {operation} failure ({str(exc)[:160]})"
        if self._on_fault is not None:
            self._on_fault(operation)
        if self._healing is not None and not self._healing.done():
            self._heal_again = True
            return
        if self._closed:
            return
        log.warning("search index: %s; %s, rebuilding it", self.fault, self._meanwhile)
        self._healing = asyncio.create_task(self._heal(), name="laurel-index-heal")

    async def _heal(self) -> None:
        """Rebuild the index into a fresh directory (in memory after a failed attempt)."""
        for attempt in range(HEAL_ATTEMPTS):
            self._heal_again = False
            try:
                async with self._lock:
                    await self._run(self._reset, attempt > 0)
                await self.catch_up(rebuild=True)
            except Stopped:
                return
            except _FAILURES as exc:  # the store: the next catch-up rebuilds (`_must_rebuild`)
                log.warning("search index: the rebuild waits for the store (%s)", exc)
                return
            if self._closed or (self.ready and self.fault is None):
                return
        log.error("search index: given up after %s rebuilds; %s", HEAL_ATTEMPTS, self._meanwhile)
        self.fault = f"{self.fault}, given up until a restart"
        self._closed = True

    def _reset(self, in_memory: bool) -> None:
        """Let go of the index and start an empty one (worker thread)."""
        self._writer = None  # tantivy lets go of the directory's lock with it
        self._index = None
        self.generation = -1
        self._must_rebuild = True
        index: tantivy.Index | None = None
        if self.path is not None and not in_memory:
            try:
                wipe(self.path)
                self.path.mkdir(parents=True, exist_ok=True)
                index = tantivy.Index(self.schema, path=str(self.path), reuse=False)
                self._files = IndexFiles(self.path)
            except (OSError, ValueError) as exc:
                log.warning("search index: %s unusable (%s); kept in memory", self.path, exc)
        if index is None:
            index = tantivy.Index(self.schema, path=None, reuse=False)
            self._files = None
        self._index = index
        self._writer = index.writer(self.writer_heap, 1)
