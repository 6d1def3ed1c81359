"""The database every repository sees, whichever engine is behind it (issue 15): whole write
functions, each in one transaction, and reads. Its two implementations live beside it
(`bot.store.sqlite`, `bot.store.postgres.database`); `bot.store.backends` opens one.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Self, TypeVar

from bot.store.sql import Connection, Dialect, Params, Row

log = logging.getLogger(__name__)
T = TypeVar("T")


class Database(ABC):
    """One database, as every repository sees it: whole write functions, each in one
    transaction on one writer, and reads from a few readers.

    `bot.store.sqlite.SqliteDatabase` (the default) and
    `bot.store.postgres.database.PostgresDatabase` implement it;
    `bot.store.backends.open_database` opens either, as a parsed target says.
    """

    dialect: ClassVar[Dialect]

    def __init__(self) -> None:
        # Told after a committed write that added audit rows (a catalogue write): the derived
        # search index catches up then. Other processes' writes it finds by polling.
        self._catalog_listeners: list[Callable[[], Awaitable[None]]] = []
        self._generation = 0

    @property
    @abstractmethod
    def where(self) -> str:
        """The database in words, for messages: a file's path, or a URL without its password."""

    @abstractmethod
    async def close(self) -> None: ...

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    @abstractmethod
    async def write(self, fn: Callable[[Connection], T]) -> T:
        """Run `fn` in one write transaction: all of it is committed, or none."""

    @abstractmethod
    async def write_each(
        self, fns: Sequence[Callable[[Connection], Any]]
    ) -> list[tuple[Any, Exception | None]]:
        """Run every one of `fns` in one transaction, each in a savepoint of its own."""

    @abstractmethod
    async def rehearse(self, fn: Callable[[Connection], T]) -> T:
        """Run `fn` exactly as `write` would, then roll back."""

    @abstractmethod
    async def snapshot(self, fn: Callable[[Connection], T]) -> T:
        """Run a long read on the writer, without a hop per row."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]: ...

    @abstractmethod
    async def fetchone(self, sql: str, params: Params = ()) -> Row | None: ...

    @abstractmethod
    async def backup(self, target: Path) -> Path: ...

    @abstractmethod
    async def integrity_check(self) -> list[str]:
        """Problems the engine finds; empty when all is well."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    def on_catalog_write(self, listener: Callable[[], Awaitable[None]]) -> None:
        """Await `listener()` after each committed write that changed the catalogue."""
        self._catalog_listeners.append(listener)

    async def _tell_listeners(self) -> None:
        for listener in self._catalog_listeners:
            try:
                await listener()
            except Exception:  # the write stands; a derived index catches up later
                log.exception("a listener to catalogue writes failed")
