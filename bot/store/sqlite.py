"""The SQLite database (the default backend): one writer, a few readers, migrations at open.

Reads go through aiosqlite. Writes are whole functions run on one dedicated thread inside
`BEGIN IMMEDIATE`: a catalogue import issues hundreds of thousands of small statements, and a
thread hop per statement (what aiosqlite does) costs ~40x the statement itself
(benchmarks/catalog measures it). The reader connections are `query_only`, so every write has to
come through `Database.write`. The interface every repository uses is
`bot.store.database.Database`; `bot.store.backends.open_database` opens this one for a
`SqliteTarget`.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, ClassVar, Self, TypeVar

import aiosqlite

from bot.domain.clock import Clock
from bot.errors import StoreError
from bot.store import migrations
from bot.store.database import Database
from bot.store.errors import (
    SQLITE_BUSY,
    SQLITE_LOCKED,
    SQLITE_READONLY,
    describe_os_error,
    read_only,
    refused,
)
from bot.store.sql import Dialect, Params, Row, SqliteConnection

log = logging.getLogger(__name__)
T = TypeVar("T")
# How long a write waits for another program's write lock before the store says "busy"; the
# default of [database] busy_timeout_ms, which whoever opens the database hands in.
BUSY_TIMEOUT_MS = 5_000
# One reader per core: SQLite releases the GIL while it works, so two searches run at once
# instead of queueing behind one connection (benchmarks/interactions measures it).
READERS = 2


def _configure(conn: sqlite3.Connection, busy_timeout_ms: int) -> None:
    conn.row_factory = sqlite3.Row
    conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
    conn.execute("PRAGMA foreign_keys = ON")


def integrity_problems(conn: sqlite3.Connection) -> list[str]:
    """Problems SQLite finds in the file, its foreign keys and the search index; [] when well."""
    problems = [r[0] for r in conn.execute("PRAGMA integrity_check") if r[0] != "ok"]
    problems += [
        f"{r[0]} row {r[1]} points to a missing {r[2]}"
        for r in conn.execute("PRAGMA foreign_key_check")
    ]
    try:  # the search index against its content
        conn.execute("INSERT INTO paper_search (paper_search) VALUES ('integrity-check')")
    except sqlite3.DatabaseError as exc:
        problems.append(f"search index: {exc}")
    return problems


def _code(error: sqlite3.Error) -> int:
    return getattr(error, "sqlite_errorcode", 0) & 0xFF


def _refuse_read_only(conn: sqlite3.Connection, path: Path, busy_timeout_ms: int) -> None:
    """Refuse to start on a database every write to which would be refused.

    A file already in WAL mode opens read-only without a word; the first write would fail.
    Writing the schema version as it is, then rolling back, asks SQLite at once. Another
    program holding the write lock (a CLI import) proves nothing either way: not waited for.
    """
    conn.execute("PRAGMA busy_timeout = 0")
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            conn.execute(f"PRAGMA user_version = {version}")
        finally:
            conn.execute("ROLLBACK")
    except sqlite3.OperationalError as exc:
        if _code(exc) == SQLITE_READONLY:
            raise read_only(path) from exc
        if _code(exc) not in (SQLITE_BUSY, SQLITE_LOCKED):
            raise
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")


class SqliteDatabase(Database):
    dialect: ClassVar[Dialect] = "sqlite"

    def __init__(self, path: Path, *, clock: Clock, busy_timeout_ms: int = BUSY_TIMEOUT_MS) -> None:
        super().__init__()
        self.path = path
        self.busy_timeout_ms = busy_timeout_ms
        self._clock = clock  # stamps the pre-migration backup's name
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="laurel-writer")
        self._writer: SqliteConnection | None = None
        self._readers: list[aiosqlite.Connection] = []
        self._idle: asyncio.Queue[aiosqlite.Connection] = asyncio.Queue()
        self._write_lock = asyncio.Lock()

    @property
    def where(self) -> str:
        return str(self.path)

    @classmethod
    async def open(
        cls,
        path: Path,
        *,
        clock: Clock,
        create: bool = True,
        readers: int = READERS,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> Self:
        """Open (and with `create`, make) the database at `path` and bring its schema up to date.

        `readers` connections answer reads side by side (WAL lets them run while one writes).
        `busy_timeout_ms` and `clock` come from whoever opens it ([database] settings, the
        composition root's clock).
        """
        if not create and not path.exists():  # noqa: ASYNC240 (one stat, before any I/O starts)
            raise StoreError(f"no database at {path}: run `laurel db init` first")
        db = cls(path, busy_timeout_ms=busy_timeout_ms, clock=clock)
        try:
            await db._run(db._open_writer)
            for _ in range(readers):
                reader = await aiosqlite.connect(path, isolation_level=None)
                db._readers.append(reader)
                reader.row_factory = sqlite3.Row
                await reader.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
                await reader.execute("PRAGMA query_only = ON")
                db._idle.put_nowait(reader)
        except BaseException:
            await db.close()
            raise
        return db

    def _open_writer(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            reason = describe_os_error(exc)
            raise StoreError(
                f"cannot make the folder of the database {self.path}: {reason}"
            ) from None
        conn = sqlite3.connect(self.path, isolation_level=None, factory=SqliteConnection)
        self._writer = conn
        try:
            _configure(conn, self.busy_timeout_ms)
            # Checked before anything writes to the file: a refused database stays as it was.
            migrations.refuse_newer(conn)
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        except sqlite3.DatabaseError as exc:
            if _code(exc) == SQLITE_READONLY:
                raise read_only(self.path) from exc
            raise StoreError(f"{self.path} is not a usable SQLite database: {exc}") from exc
        if mode != "wal":
            raise StoreError(f"{self.path}: could not switch to WAL journaling (got {mode})")
        conn.execute("PRAGMA synchronous = NORMAL")
        _refuse_read_only(conn, self.path, self.busy_timeout_ms)
        migrations.migrate(conn, self.path, self._clock.now())

    async def close(self) -> None:
        readers, self._readers = self._readers, []
        for reader in readers:
            await reader.close()
        if self._writer is not None:
            writer, self._writer = self._writer, None
            await self._run(writer.close)
        self._executor.shutdown(wait=True)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    async def write(self, fn: Callable[[SqliteConnection], T]) -> T:
        """Run `fn` in one `BEGIN IMMEDIATE` transaction: all of it is committed, or none."""
        async with self._write_lock:
            before = self._generation
            result: T = await self._run(self._in_transaction, fn, True)
            changed = self._generation != before
        if changed:
            await self._tell_listeners()
        return result

    async def write_each(
        self, fns: Sequence[Callable[[SqliteConnection], Any]]
    ) -> list[tuple[Any, Exception | None]]:
        """Run every one of `fns` in one `BEGIN IMMEDIATE` transaction, each in a savepoint of
        its own: one that raises is undone alone, and its exception is its outcome (with
        SQLite's refusals in words); the others are committed together. If the transaction as
        a whole is refused or lost, this raises and none of them is written."""
        async with self._write_lock:
            return await self._run(self._in_savepoints, fns)

    def _in_savepoints(
        self, fns: Sequence[Callable[[SqliteConnection], Any]]
    ) -> list[tuple[Any, Exception | None]]:
        def each(conn: SqliteConnection) -> list[tuple[Any, Exception | None]]:
            outcomes: list[tuple[Any, Exception | None]] = []
            for fn in fns:
                conn.execute("SAVEPOINT one_write")
                try:
                    outcomes.append((fn(conn), None))
                except Exception as exc:
                    if not conn.in_transaction:
                        raise  # SQLite rolled the whole transaction back (SQLITE_FULL, ...)
                    conn.execute("ROLLBACK TO one_write")
                    error = refused(exc) if isinstance(exc, sqlite3.OperationalError) else None
                    outcomes.append((None, error or exc))
                conn.execute("RELEASE one_write")
            return outcomes

        return self._in_transaction(each, True)

    async def rehearse(self, fn: Callable[[SqliteConnection], T]) -> T:
        """Run `fn` exactly as `write` would, then roll back: a dry run that cannot drift."""
        async with self._write_lock:
            return await self._run(self._in_transaction, fn, False)

    def _in_transaction(self, fn: Callable[[SqliteConnection], T], commit: bool) -> T:
        conn = self._require_writer()
        try:
            conn.execute("BEGIN IMMEDIATE")  # waits up to busy_timeout_ms for the write lock
            try:
                result = fn(conn)
                conn.execute("COMMIT" if commit else "ROLLBACK")
                if commit and self._catalog_listeners:  # the audit's latest id, on this thread
                    self._generation = conn.execute(
                        "SELECT ifnull(max(id), 0) FROM audit"
                    ).fetchone()[0]
            except BaseException:
                # SQLite has already rolled back after some errors (SQLITE_FULL): a second
                # ROLLBACK would fail and hide the error that matters.
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.OperationalError as exc:
            # Busy, read-only, full: the whole write was refused; say so in words.
            if (error := refused(exc)) is not None:
                raise error from exc
            raise
        return result

    async def snapshot(self, fn: Callable[[SqliteConnection], T]) -> T:
        """Run a long read (an export, a backup) on the writer thread, without the per-row hop."""
        async with self._write_lock:
            return await self._run(lambda: fn(self._require_writer()))

    def _require_writer(self) -> SqliteConnection:
        if self._writer is None:
            raise StoreError("the database is closed")
        return self._writer

    async def fetchall(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._reader() as reader:
            rows = await reader.execute_fetchall(sql, params)
        return list(rows)

    async def fetchone(self, sql: str, params: Params = ()) -> Row | None:
        async with self._reader() as reader, reader.execute(sql, params) as cursor:
            row: sqlite3.Row | None = await cursor.fetchone()
            return row

    @asynccontextmanager
    async def _reader(self) -> AsyncIterator[aiosqlite.Connection]:
        """An idle reader, for one statement; waits while all are busy."""
        if not self._readers:
            raise StoreError("the database is closed")
        reader = await self._idle.get()
        try:
            yield reader
        finally:
            self._idle.put_nowait(reader)

    async def backup(self, target: Path) -> Path:
        """An online backup of the live database, checked for integrity before it is kept."""
        async with self._write_lock:
            return await self._run(migrations.backup_to, self._require_writer(), target)

    async def integrity_check(self) -> list[str]:
        """Problems SQLite finds in the file and in foreign keys; empty when all is well."""
        async with self._write_lock:
            return await self._run(integrity_problems, self._require_writer())

    async def schema_version(self) -> int:
        """`PRAGMA user_version`, read by a reader: it answers while a long write (an import)
        holds the writer, so a health check asking it does not wait for the write to end."""
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row is not None else 0
