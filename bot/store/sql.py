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

import sqlite3
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, Literal, Protocol

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
