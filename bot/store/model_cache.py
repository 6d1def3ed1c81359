"""Validated models built once per stored row.

A row read again unchanged (the same values in every column) gives the model already built
for it instead of validating it again: pydantic's validation of a paper (text cleaning, link
checks) costs more than reading it. The key is the whole row, so a changed row can never be
answered with a stale model; the models are frozen, so sharing them is safe. Bounded: the
least recently used are forgotten first. Safe to share between threads: the derived index's
searcher threads build the models of the pages they read (bot/store/search/index.py).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from bot.store.sql import Row

T = TypeVar("T")
SIZE = 4_096


class ModelCache(Generic[T]):
    def __init__(self, size: int = SIZE) -> None:
        self._size = size
        self._built: OrderedDict[tuple[Any, ...], T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, row: Row, build: Callable[[Row], T]) -> T:
        key = tuple(row)
        with self._lock:
            found = self._built.get(key)
            if found is not None:
                self._built.move_to_end(key)
                return found
        made = build(row)  # outside the lock: two threads may build one row, both alike
        with self._lock:
            self._built[key] = made
            if len(self._built) > self._size:
                self._built.popitem(last=False)
        return made
