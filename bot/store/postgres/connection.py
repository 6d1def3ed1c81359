"""The connection a write function gets on PostgreSQL: `execute` and `executemany` with the
store's `?` / `:name` statements (translated once per text), `in_transaction`, `dialect`.

It wraps one sync psycopg connection in autocommit mode: the database class says BEGIN,
SAVEPOINT and COMMIT itself, exactly as it does on SQLite.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Literal

import psycopg
from psycopg import pq

from bot.store.postgres.errors import lost
from bot.store.postgres.rows import Row
from bot.store.postgres.translate import translate
from bot.store.sql import Params


class PgCursor:
    """The result of one statement, as the store reads it."""

    __slots__ = ("_cursor",)

    def __init__(self, cursor: psycopg.Cursor[Row]) -> None:
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def lastrowid(self) -> int | None:
        raise NotImplementedError(
            "lastrowid is SQLite's: on PostgreSQL write `INSERT … RETURNING id` (both read it)"
        )

    def fetchone(self) -> Row | None:
        return self._cursor.fetchone() if self._cursor.description is not None else None

    def fetchall(self) -> list[Row]:
        return self._cursor.fetchall() if self._cursor.description is not None else []

    def __iter__(self) -> Iterator[Row]:
        return iter(self.fetchall())


class PgConnection:
    """`bot.store.sql.Connection` on PostgreSQL."""

    dialect: Literal["postgresql"] = "postgresql"

    def __init__(self, conn: psycopg.Connection[Row]) -> None:
        self.raw = conn

    @property
    def in_transaction(self) -> bool:
        status = self.raw.info.transaction_status
        return status in (pq.TransactionStatus.INTRANS, pq.TransactionStatus.INERROR)

    def execute(self, sql: str, parameters: Params = (), /) -> PgCursor:
        return PgCursor(self.raw.execute(translate(sql), _params(parameters)))

    def executemany(self, sql: str, parameters: Iterable[Params], /) -> PgCursor:
        cursor = self.raw.cursor()
        cursor.executemany(translate(sql), [_params(p) for p in parameters])
        return PgCursor(cursor)


class FreshPgConnection(PgConnection):
    """A reader's connection that replaces itself when the server ended it (a restart, a killed
    backend; issue 22): a statement outside a transaction that fails because the connection is
    lost is asked once more on a fresh one (these connections only read, so asking again
    changes nothing); the session's SET statements are said again there. A server that does not
    answer raises as before."""

    def __init__(self, connect: Callable[[], psycopg.Connection[Row]]) -> None:
        super().__init__(connect())
        self._connect = connect
        self._session: list[tuple[str, Params]] = []

    def execute(self, sql: str, parameters: Params = (), /) -> PgCursor:
        idle = not self.in_transaction
        closed_by_us = self.raw.closed and not self.raw.broken
        try:
            cursor = super().execute(sql, parameters)
        except psycopg.OperationalError as exc:
            if not idle or closed_by_us or not lost(exc, self.raw):
                raise
            self._reopen()
            cursor = super().execute(sql, parameters)
        if sql.lstrip().upper().startswith("SET "):
            self._session.append((sql, parameters))
        return cursor

    def _reopen(self) -> None:
        with contextlib.suppress(psycopg.Error):
            self.raw.close()
        self.raw = self._connect()
        for sql, parameters in self._session:
            super().execute(sql, parameters)


def _params(parameters: Params) -> Any:
    # A tuple or a dict as psycopg takes them; a list of values is a sequence too.
    return (
        parameters
        if isinstance(parameters, dict | tuple)
        else (dict(parameters) if hasattr(parameters, "keys") else tuple(parameters))
    )
