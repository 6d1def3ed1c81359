"""The derived search index's own connections to the store, which it only reads.

The index (bot/store/search/index.py) reads the store from its worker thread and from each
searcher thread, each on a connection of its own: a SQLite file opened read-only, or a
PostgreSQL database in read-only transactions. Either answers the same statements through
`bot.store.sql.Connection`.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, cast

from bot.store.database import Database
from bot.store.sql import Connection, SqliteConnection, engine_errors
from bot.store.sqlite import SqliteDatabase

if TYPE_CHECKING:  # psycopg comes with the postgresql extra
    from bot.store.postgres.connection import PgConnection
    from bot.store.postgres.database import PostgresDatabase

# Where the index's store is: a SQLite file, or a `postgresql://` URL.
Store = Path | str
# One snapshot for a catch-up: the generation it reads and the documents agree.
SNAPSHOT = {
    "sqlite": "BEGIN",
    "postgresql": "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY",
}


def store_errors() -> tuple[type[Exception], ...]:
    """What the store raises when it cannot answer (I/O, a lost server), on either engine."""
    return engine_errors("Error")


def connect(store: Store, *, same_thread: bool = True) -> Connection:
    """A read-only connection to `store`. `same_thread` False: usable from (and closed by)
    another thread than the one that opened it."""
    if isinstance(store, Path):
        conn = sqlite3.connect(
            f"file:{store}?mode=ro",
            uri=True,
            isolation_level=None,
            check_same_thread=same_thread,
            factory=SqliteConnection,
        )
        conn.row_factory = sqlite3.Row
        conn.execute("PRAGMA busy_timeout = 5000")
        return conn
    return _connect_postgres(store)


def read_only(conn: Connection) -> None:
    """Refuse every write on `conn` from now on (a searcher's connection)."""
    if conn.dialect == "sqlite":
        conn.execute("PRAGMA query_only = ON")
    else:
        conn.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")


def close(conn: Connection) -> None:
    if isinstance(conn, sqlite3.Connection):
        conn.close()
    else:
        cast("PgConnection", conn).raw.close()


def store_of(db: Database) -> Store:
    """Where `db` is, for the index's own connections: its file, or its URL."""
    if isinstance(db, SqliteDatabase):
        return db.path
    return cast("PostgresDatabase", db).url


def _connect_postgres(url: str) -> Connection:
    import psycopg

    from bot.store.postgres.connection import FreshPgConnection
    from bot.store.postgres.rows import row_factory

    # A connection a server restart left stale is replaced at its next statement (issue 22).
    return FreshPgConnection(lambda: psycopg.connect(url, autocommit=True, row_factory=row_factory))
