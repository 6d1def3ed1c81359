"""The searcher threads' connections to the store: each thread reads the papers of a page with a
read-only connection of its own, opened at its first search and kept, so that ranking and
loading a page are one hop off the event loop (`SearchIndex.page_then`)."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import TypeVar

from bot.store.search import store
from bot.store.search.store import Store
from bot.store.sql import Connection

T = TypeVar("T")
_STORE_ERRORS = store.store_errors()


class StoreReaders:
    """One read-only connection to `source` per thread that asks, all closed by `close`."""

    def __init__(self, source: Store) -> None:
        self._source = source
        self._local = threading.local()
        self._opened: list[Connection] = []
        self._lock = threading.Lock()

    def load(self, load: Callable[[Connection, list[int]], T], ids: list[int]) -> T:
        """`load(conn, ids)` with this thread's connection; a store that failed (a lost server)
        is connected to again at the next search."""
        conn = self._connection()
        try:
            return load(conn, ids)
        except _STORE_ERRORS:
            self._forget(conn)
            raise

    def close(self) -> None:
        """Close every connection opened (once no searcher thread runs any more)."""
        with self._lock:
            opened, self._opened = self._opened, []
        for conn in opened:
            store.close(conn)

    def _connection(self) -> Connection:
        conn: Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = store.connect(self._source, same_thread=False)  # closed from another thread
            store.read_only(conn)
            self._local.conn = conn
            with self._lock:
                self._opened.append(conn)
        return conn

    def _forget(self, conn: Connection) -> None:
        self._local.conn = None
        with self._lock:
            if conn in self._opened:
                self._opened.remove(conn)
        with contextlib.suppress(*_STORE_ERRORS):
            store.close(conn)
