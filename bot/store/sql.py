"""What the store's SQL runs on, whichever engine is behind it (issue 15).

A write function gets a `Connection` and calls `conn.execute(sql, params)` with `?` or `:name`
placeholders, as it always has on SQLite. On SQLite it is a `sqlite3.Connection` (of the
subclass below, which only adds `dialect`); on PostgreSQL it is the adapter in
`bot.store.postgres.connection`, which translates the mechanical differences of each statement
text once. Where the engines mean different things, a repository keeps both statements side by
side and picks by `conn.dialect` (or `db.dialect`).

Reads return rows that answer `row[0]`, `row["name"]` and `keys()`, as `sqlite3.Row` does.
"""

from __future__ import annotations

import logging
import sqlite3
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, Self, TypeVar

from bot.domain.clock import Clock

if TYPE_CHECKING:
    from bot.store.database import SqliteDatabase

log = logging.getLogger(__name__)

Dialect = Literal["sqlite", "postgresql"]
Params = Sequence[Any] | Mapping[str, Any]


class Row(Protocol):
    def __getitem__(self, key: int | str, /) -> Any: ...
    def __iter__(self) -> Iterator[Any]: ...
    def __len__(self) -> int: ...
    def keys(self) -> list[str]: ...


class Cursor(Protocol):
    @property
    def rowcount(self) -> int: ...
    # SQLite's alone: on PostgreSQL it raises (write `INSERT … RETURNING id`, which both read).
    @property
    def lastrowid(self) -> int | None: ...
    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """The connection a write function gets, inside the write's transaction."""

    @property
    def dialect(self) -> Dialect: ...
    @property
    def in_transaction(self) -> bool: ...
    def execute(self, sql: str, parameters: Params = ..., /) -> Cursor: ...
    def executemany(self, sql: str, parameters: Iterable[Params], /) -> Cursor: ...


class SqliteConnection(sqlite3.Connection):
    """`sqlite3.Connection` as the store opens it (`sqlite3.connect(…, factory=…)`): the same
    C methods, called directly, and the dialect a repository may ask."""

    dialect: Literal["sqlite"] = "sqlite"


def engine_errors(name: str) -> tuple[type[Exception], ...]:
    """The exception class `name` (`Error`, `IntegrityError`: both drivers spell them alike) of
    each engine whose driver is installed: sqlite3's, and psycopg's with the postgresql extra."""
    found: list[type[Exception]] = [getattr(sqlite3, name)]
    try:
        import psycopg
    except ImportError:  # the postgresql extra is not installed: SQLite alone
        pass
    else:
        found.append(getattr(psycopg, name))
    return tuple(found)


def integrity_errors() -> tuple[type[Exception], ...]:
    """The exceptions of a broken constraint (unique, check, foreign key) on either engine."""
    return engine_errors("IntegrityError")


T = TypeVar("T")
Write = Callable[[Connection], T]


class Database(ABC):
    """One database, as every repository sees it: whole write functions, each in one
    transaction on one writer, and reads from a few readers.

    `bot.store.database.SqliteDatabase` (the default) and
    `bot.store.postgres.database.PostgresDatabase` implement it; `bot.store.backends` opens
    either by URL. `Database.open(path)` opens SQLite, as it always has.
    """

    dialect: ClassVar[Dialect]

    def __init__(self) -> None:
        # Told after a committed write that added audit rows (a catalogue write): the derived
        # search index catches up then. Other processes' writes it finds by polling.
        self._catalog_listeners: list[Callable[[], Awaitable[None]]] = []
        self._generation = 0

    @staticmethod
    async def open(
        path: Path,
        *,
        create: bool = True,
        readers: int = 2,
        busy_timeout_ms: int = 5_000,
        clock: Clock | None = None,
    ) -> SqliteDatabase:
        """The SQLite database at `path` (see `SqliteDatabase.open`)."""
        from bot.store.database import SqliteDatabase

        return await SqliteDatabase.open(
            path, create=create, readers=readers, busy_timeout_ms=busy_timeout_ms, clock=clock
        )

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
