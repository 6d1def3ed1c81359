"""The store on PostgreSQL: one writer connection on one thread, a few async readers.

The write path is SQLite's: a whole write function runs on one dedicated thread inside one
transaction (a hop per statement would cost more than the statement), on a sync psycopg
connection. Every write transaction first takes one advisory lock, so that of all the Laurel
processes on this database one writes at a time: the guarantee SQLite's `BEGIN IMMEDIATE` gives,
with no write skew to reason about.

A write that fails with a serialization failure, a deadlock, or the connection lost before its
COMMIT was sent, runs again on a fresh connection (a few times, with back-off): nothing of the
failed attempt was committed. A connection lost *at* COMMIT is not retried (the write may have
been committed); it is reported in words.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, ClassVar, Self, TypeVar

import psycopg

from bot.dburl import parse, shown
from bot.domain.clock import Clock
from bot.errors import StoreError
from bot.store.database import Database
from bot.store.postgres import migrate
from bot.store.postgres.connection import PgConnection
from bot.store.postgres.errors import lost, refused, retryable, server_error
from bot.store.postgres.rows import Row, row_factory
from bot.store.postgres.translate import translate
from bot.store.sql import Connection, Dialect, Params
from bot.store.sql import Row as SqlRow

log = logging.getLogger(__name__)
T = TypeVar("T")
READERS = 2
BUSY_TIMEOUT_MS = 5_000
# The advisory lock every write transaction takes first (any constant: it names the lock).
WRITE_LOCK = 0x4C61_7572_656C_0002  # "Laurel", 2
# One writer at a time across processes; the transaction's id, to ask the server after a
# connection lost at COMMIT whether it committed. One round trip (the simple query protocol).
_BEGIN_WRITE = f"BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK}), pg_current_xact_id()::text"
ATTEMPTS = 6  # a write's tries, ~3 s of back-off in all: a server restart fits in it


def connect_writer(url: str) -> psycopg.Connection[Row]:
    """A writer connection to `url`, as the store opens one (a test hands in a factory of its
    own to refuse or cut connections: the seam its faults go through)."""
    return psycopg.connect(url, autocommit=True, row_factory=row_factory)


WriterFactory = Callable[[str], "psycopg.Connection[Row]"]


class PostgresDatabase(Database):
    dialect: ClassVar[Dialect] = "postgresql"

    def __init__(
        self,
        url: str,
        *,
        clock: Clock,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        writer_factory: WriterFactory = connect_writer,
    ) -> None:
        super().__init__()
        self.url = url
        self._writer_factory = writer_factory
        self.busy_timeout_ms = busy_timeout_ms
        self._clock = clock
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="laurel-writer")
        self._writer: psycopg.Connection[Row] | None = None
        self._closed = False
        self._readers: list[psycopg.AsyncConnection[Row]] = []
        self._idle: asyncio.Queue[psycopg.AsyncConnection[Row]] = asyncio.Queue()
        self._write_lock = asyncio.Lock()

    @property
    def where(self) -> str:
        return shown(self.url)

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        clock: Clock,
        create: bool = True,
        readers: int = READERS,
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        writer_factory: WriterFactory = connect_writer,
    ) -> Self:
        """Connect to the database at `url` and bring its schema up to date (with `create`,
        also make it in an empty database; without, an empty one is refused)."""
        parse(url)  # refused in words, never echoed (libpq's own messages quote it)
        db = cls(url, busy_timeout_ms=busy_timeout_ms, clock=clock, writer_factory=writer_factory)
        try:
            await db._run(db._open_writer, create)
            for _ in range(readers):
                reader = await db._connect_reader()
                db._readers.append(reader)
                db._idle.put_nowait(reader)
        except psycopg.Error as exc:
            await db.close()
            raise server_error(db.url, exc) from None
        except BaseException:
            await db.close()
            raise
        return db

    # -- connections ---------------------------------------------------------------------------

    def _connect_writer(self) -> psycopg.Connection[Row]:
        conn = self._writer_factory(self.url)
        # Waiting longer than this for the write lock answers "busy", as on SQLite.
        conn.execute(f"SET lock_timeout = {max(1, int(self.busy_timeout_ms))}")
        return conn

    async def _connect_reader(self) -> psycopg.AsyncConnection[Row]:
        reader = await psycopg.AsyncConnection.connect(
            self.url, autocommit=True, row_factory=row_factory
        )
        await reader.execute("SET default_transaction_read_only = on")  # reads only
        return reader

    def _open_writer(self, create: bool) -> None:
        conn = self._writer = self._connect_writer()
        if not create and migrate.current_version(conn) == 0:
            raise StoreError(f"no Laurel database at {self.where}: run `laurel db init` first")
        migrate.migrate(conn)
        self._refuse_read_only(conn)

    def _refuse_read_only(self, conn: psycopg.Connection[Row]) -> None:
        """Refuse to start where every write would be refused (a standby, a read-only
        default for this database or user)."""
        with conn.transaction():
            row = conn.execute("SELECT current_setting('transaction_read_only')").fetchone()
        if row is not None and row[0] == "on":
            raise StoreError(
                f"{self.where} is read-only for the user running Laurel (a standby server, or "
                "default_transaction_read_only set for the database or the user). Laurel "
                "writes the database: point [database] url at the writable primary, or make it "
                "writable (ALTER DATABASE … SET default_transaction_read_only = off), then "
                "start again."
            )

    def _connected(self) -> psycopg.Connection[Row]:
        """The writer, connected afresh if the last one was lost."""
        if self._closed:
            raise StoreError("the database is closed")
        if self._writer is None or self._writer.closed or self._writer.broken:
            self._drop_writer()
            self._writer = self._connect_writer()
        return self._writer

    def _drop_writer(self) -> None:
        if self._writer is not None:
            writer, self._writer = self._writer, None
            with contextlib.suppress(psycopg.Error):  # it was lost already
                writer.close()

    async def close(self) -> None:
        readers, self._readers = self._readers, []
        for reader in readers:
            await reader.close()
        if not self._closed:
            self._closed = True
            await self._run(self._drop_writer)
            self._executor.shutdown(wait=True)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)

    # -- writes --------------------------------------------------------------------------------

    async def write(self, fn: Callable[[Connection], T]) -> T:
        async with self._write_lock:
            before = self._generation
            result: T = await self._run(self._in_transaction, fn, "commit")
            changed = self._generation != before
        if changed:
            await self._tell_listeners()
        return result

    async def write_each(
        self, fns: Sequence[Callable[[Connection], Any]]
    ) -> list[tuple[Any, Exception | None]]:
        async with self._write_lock:
            return await self._run(self._in_transaction, _each(fns), "commit")

    async def rehearse(self, fn: Callable[[Connection], T]) -> T:
        async with self._write_lock:
            return await self._run(self._in_transaction, fn, "rollback")

    async def snapshot(self, fn: Callable[[Connection], T]) -> T:
        """Run a long read on the writer thread, in one consistent snapshot."""
        async with self._write_lock:
            return await self._run(self._in_transaction, fn, "snapshot")

    def _in_transaction(self, fn: Callable[[PgConnection], T], mode: str) -> T:
        """Run `fn` in one transaction on the writer thread, again on a fresh connection after a
        failure that committed nothing (up to ATTEMPTS times)."""
        for attempt in range(1, ATTEMPTS + 1):
            conn: psycopg.Connection[Row] | None = None
            xid: str | None = None
            try:
                conn = self._connected()
                if mode == "snapshot":
                    conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                else:
                    xid = _begin_write(conn)
                result = fn(PgConnection(conn))
            except BaseException as exc:
                self._abandon(conn)
                if attempt < ATTEMPTS and retryable(exc, conn):
                    self._pause(attempt, exc)
                    continue
                if (said := self._in_words(exc)) is exc:
                    raise
                raise said from exc
            if self._finish(conn, mode, xid):
                return result
            self._pause(attempt, "the connection was lost at COMMIT, which did not commit")
        raise StoreError(f"a write to {self.where} failed {ATTEMPTS} times; nothing was written")

    def _pause(self, attempt: int, why: object) -> None:
        log.warning("a write to %s failed (%s); trying again", self.where, why)
        time.sleep(min(1.0, 0.05 * 2**attempt))

    def _finish(self, conn: psycopg.Connection[Row], mode: str, xid: str | None) -> bool:
        """End the transaction; False if it did not commit and may run again."""
        try:
            conn.execute("COMMIT" if mode == "commit" else "ROLLBACK")
        except psycopg.Error as exc:
            self._abandon(conn)
            if not lost(exc, conn):
                if (said := self._in_words(exc)) is exc:
                    raise
                raise said from exc
            if mode != "commit":
                return True  # nothing to keep: the read or rehearsal is done
            if xid is None or (status := self._outcome(xid)) is None:
                raise StoreError(
                    f"the connection to the PostgreSQL server at {self.where} was lost while "
                    "committing a write: it may or may not have been saved; check before "
                    "repeating it"
                ) from exc
            if status != "committed":
                return False
        if mode == "commit" and self._catalog_listeners:  # the audit's latest id
            row = self._connected().execute("SELECT coalesce(max(id), 0) FROM audit").fetchone()
            self._generation = int(row[0]) if row is not None else 0
        return True

    def _outcome(self, xid: str) -> str | None:
        """What became of the transaction `xid` whose COMMIT got no answer: "committed" or
        "aborted", asked on a fresh connection; None if the server cannot say."""
        for attempt in range(1, ATTEMPTS + 1):
            try:
                row = (
                    self._connected().execute("SELECT pg_xact_status(%s::xid8)", (xid,)).fetchone()
                )
            except psycopg.OperationalError:
                self._drop_writer()
                time.sleep(min(1.0, 0.05 * 2**attempt))
                continue
            status = None if row is None else row[0]
            if status in ("committed", "aborted"):
                return str(status)
            time.sleep(min(1.0, 0.05 * 2**attempt))  # "in progress": its backend is ending
        return None

    def _abandon(self, conn: psycopg.Connection[Row] | None) -> None:
        """Roll back what `conn` holds; drop it if it is lost."""
        if conn is None:
            return
        if not (conn.closed or conn.broken):
            try:
                conn.execute("ROLLBACK")
                return
            except psycopg.Error:
                pass
        self._drop_writer()

    def _in_words(self, exc: BaseException) -> BaseException:
        """A refusal of the whole write in the store's words; a lost server named; else as is."""
        if (error := refused(exc)) is not None:
            return error
        if isinstance(exc, psycopg.OperationalError) and lost(exc, None):
            return server_error(self.url, exc)
        return exc

    # -- reads ---------------------------------------------------------------------------------

    async def fetchall(self, sql: str, params: Params = ()) -> list[SqlRow]:
        rows: list[SqlRow] = await self._read(sql, params, one=False)
        return rows

    async def fetchone(self, sql: str, params: Params = ()) -> SqlRow | None:
        row: SqlRow | None = await self._read(sql, params, one=True)
        return row

    async def _read(self, sql: str, params: Params, *, one: bool) -> Any:
        """One statement on an idle reader (waiting while all are busy). A reader found lost
        (a server restart, a killed backend) is replaced and the read asked once more: a read
        changes nothing, so asking again is safe."""
        if not self._readers:
            raise StoreError("the database is closed")
        reader = await self._idle.get()
        try:
            for attempt in (1, 2):
                try:
                    if reader.closed or reader.broken:
                        reader = await self._replace(reader)
                    cursor = await reader.execute(translate(sql), params)
                    if cursor.description is None:
                        return None if one else []
                    return await cursor.fetchone() if one else [*await cursor.fetchall()]
                except psycopg.OperationalError as exc:
                    if not lost(exc, reader):
                        raise
                    if attempt == 2:
                        raise server_error(self.url, exc) from exc
                    reader = await self._replace(reader)
        finally:
            self._idle.put_nowait(reader)
        raise AssertionError("unreachable: the second attempt returns or raises")

    async def _replace(self, gone: psycopg.AsyncConnection[Row]) -> psycopg.AsyncConnection[Row]:
        try:
            fresh = await self._connect_reader()
        except psycopg.OperationalError as exc:
            raise server_error(self.url, exc) from exc
        self._readers[self._readers.index(gone)] = fresh
        await gone.close()
        return fresh

    # -- the database as a whole ---------------------------------------------------------------

    async def backup(self, target: Path) -> Path:
        raise StoreError(
            "on PostgreSQL, back up with PostgreSQL's own tools: "
            f"pg_dump --format=custom --file=laurel.dump '{self.where}' "
            "(and pg_restore to restore); `laurel db backup` makes SQLite backups only"
        )

    async def integrity_check(self) -> list[str]:
        """What PostgreSQL can say: the schema's version against this Laurel's migrations, and
        constraints not validated. (Pages and foreign keys the server keeps by construction.)"""
        return await self.snapshot(migrate.problems)

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT max(version) FROM schema_version")
        return int(row[0]) if row is not None and row[0] is not None else 0


_RELEASE = "RELEASE SAVEPOINT one_write"
_RELEASE_AND_NEXT = "RELEASE SAVEPOINT one_write; SAVEPOINT one_write"


def _begin_write(conn: psycopg.Connection[Row]) -> str:
    """Begin a write transaction holding the write lock; its transaction id."""
    cursor = conn.execute(_BEGIN_WRITE)
    cursor.nextset()  # past BEGIN's result, to the SELECT's
    row = cursor.fetchone()
    if row is None:
        raise StoreError("PostgreSQL gave no transaction id")
    return str(row[1])


def _each(
    fns: Sequence[Callable[[Connection], Any]],
) -> Callable[[PgConnection], list[tuple[Any, Exception | None]]]:
    """One transaction running each of `fns` in a savepoint of its own: one that raises is
    undone alone, and its exception is its outcome. A failure of the transaction as a whole
    (the connection lost, a serialization failure) raises, and the whole is tried again."""

    def each(conn: PgConnection) -> list[tuple[Any, Exception | None]]:
        outcomes: list[tuple[Any, Exception | None]] = []
        conn.raw.execute("SAVEPOINT one_write")
        for position, fn in enumerate(fns, 1):
            try:
                outcomes.append((fn(conn), None))
            except Exception as exc:
                if conn.raw.broken or not conn.in_transaction or retryable(exc, conn.raw):
                    raise
                conn.raw.execute("ROLLBACK TO SAVEPOINT one_write")
                outcomes.append((None, refused(exc) or exc))
            # The next savepoint in the same round trip as this one's release.
            last = position == len(fns)
            conn.raw.execute(_RELEASE if last else _RELEASE_AND_NEXT)
        return outcomes

    return each
