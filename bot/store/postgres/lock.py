"""One bot per database on PostgreSQL: the instance lock is a session advisory lock.

Like the file lock on SQLite (bot/store/lock.py), an unsharded bot holds it exclusively and
shard processes hold it shared, so shard processes run side by side but never beside an
unsharded bot (which would post every guild's digests too). It is held by a connection of its
own for as long as the process runs, and the server releases it when that connection ends, the
process killed by SIGKILL or its host lost included: no stale lock to clean up by hand.
"""

from __future__ import annotations

import contextlib
import os
import socket
from types import TracebackType
from typing import Any, Self

import psycopg

from bot.dburl import parse, scrub, shown
from bot.errors import StoreError

INSTANCE_LOCK = 0x4C61_7572_656C_0003  # "Laurel", 3


class _Unreachable(StoreError):
    """The server did not answer: the lock can be neither held nor refused."""


_APPLICATION = "laurel run"


class PostgresInstanceLock:
    def __init__(self, url: str, *, shared: bool = False) -> None:
        self.url = url
        self._shared = shared
        self._conn: psycopg.Connection[Any] | None = None

    def acquire(self) -> None:
        self._conn = self._take()

    def keep(self) -> str | None:
        """Hold the lock still (issue 22): its session goes with its connection (a server
        restart, a killed backend), so a lost connection is replaced and the lock taken again.
        None while it holds; what happened, in words, when it was taken again or cannot be yet
        (the server not answering); StoreError when another Laurel holds it now."""
        conn = self._conn
        if conn is not None and not (conn.closed or conn.broken):
            try:
                conn.execute("SELECT 1")
                return None
            except psycopg.Error:
                pass
        self.release()
        try:
            self._conn = self._take()
        except _Unreachable as exc:
            return f"the instance lock was lost with its connection; {exc}"
        return f"the instance lock on {shown(self.url)} was lost with its connection; taken again"

    def _take(self) -> psycopg.Connection[Any]:
        me = f"{_APPLICATION} pid {os.getpid()} on {socket.gethostname()}"[:63]
        parse(self.url)  # refused in words, never echoed (libpq's own messages quote it)
        try:
            conn = psycopg.connect(self.url, autocommit=True, application_name=me)
        except psycopg.Error as exc:
            said = scrub(str(exc), self.url).strip().splitlines() or [type(exc).__name__]
            raise _Unreachable(
                f"cannot take the instance lock on {shown(self.url)}: {said[0]}"
            ) from None
        take = "pg_try_advisory_lock_shared" if self._shared else "pg_try_advisory_lock"
        try:
            row = conn.execute(f"SELECT {take}(%s)", (INSTANCE_LOCK,)).fetchone()
            holders = "" if row is not None and row[0] else self._holders(conn)
        except psycopg.OperationalError as exc:  # the server went while asked
            conn.close()
            raise _Unreachable(f"the PostgreSQL server at {shown(self.url)} went away") from exc
        if row is None or not row[0]:
            conn.close()
            shards = " (only shard processes share a database)" if self._shared else ""
            raise StoreError(
                f"another Laurel is already running on {shown(self.url)} "
                f"({holders or 'unknown'}){shards}; stop it first, or give this one another "
                "database"
            )
        return conn

    @staticmethod
    def _holders(conn: psycopg.Connection[Any]) -> str:
        """Who holds the lock, by the application name each holder connected with."""
        rows = conn.execute(
            """
            SELECT DISTINCT a.application_name FROM pg_locks AS l
            JOIN pg_stat_activity AS a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted
              AND l.classid = %s AND l.objid = %s AND l.objsubid = 1
            ORDER BY 1
            """,
            (INSTANCE_LOCK >> 32, INSTANCE_LOCK & 0xFFFF_FFFF),
        ).fetchall()
        return ", ".join(str(r[0]) for r in rows)

    def release(self) -> None:
        if self._conn is not None:
            conn, self._conn = self._conn, None
            with contextlib.suppress(psycopg.Error):  # a lost one holds nothing any more
                # Let go in so many words: the server drops a closed session's locks a moment
                # later, and a bot started at once after this one stopped would find it held.
                unlock = "pg_advisory_unlock_shared" if self._shared else "pg_advisory_unlock"
                conn.execute(f"SELECT {unlock}(%s)", (INSTANCE_LOCK,))
            with contextlib.suppress(psycopg.Error):
                conn.close()

    def __enter__(self) -> Self:
        self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
