"""PostgreSQL's refusals in the store's words (`bot.errors`), and which failures a write may
safely try again."""

from __future__ import annotations

from typing import Any

import psycopg
from psycopg import errors as pg

from bot.dburl import scrub, shown
from bot.errors import StoreBusy, StoreError, StoreFull, StoreReadOnly, WriteRefused

# SQLSTATEs: https://www.postgresql.org/docs/current/errcodes-appendix.html
SERIALIZATION_FAILURE = "40001"
DEADLOCK_DETECTED = "40P01"
_BUSY = "the database is busy: another process has held the write lock too long"
_REFUSALS: dict[str, tuple[type[WriteRefused], str]] = {
    "25006": (StoreReadOnly, "the database is read-only (a read-only server or transaction)"),
    "53100": (StoreFull, "the PostgreSQL server's disk is full"),
    "53200": (StoreFull, "the PostgreSQL server is out of memory"),
    "55P03": (StoreBusy, _BUSY),  # lock_timeout: the write lock was not free in time
    "57014": (StoreBusy, _BUSY),  # statement_timeout
}


def refused(error: BaseException) -> WriteRefused | None:
    """The domain error for one of PostgreSQL's refusals of a whole write, else None."""
    if not isinstance(error, psycopg.Error) or error.sqlstate is None:
        return None
    found = _REFUSALS.get(error.sqlstate)
    if found is None:
        return None
    kind, reason = found
    return kind(reason)


# The server ending the session: an administrator's pg_terminate_backend or a fast shutdown, a
# crash of another backend, a server still starting.
_SESSION_ENDED = frozenset({"57P01", "57P02", "57P03"})


def lost(error: BaseException, conn: psycopg.BaseConnection[Any] | None) -> bool:
    """True when `error` means the connection is gone (so a new one is needed)."""
    if not isinstance(error, psycopg.OperationalError):
        return False
    if conn is None or conn.closed or conn.broken:
        return True
    return error.sqlstate is None or error.sqlstate in _SESSION_ENDED


def retryable(error: BaseException, conn: psycopg.BaseConnection[Any] | None) -> bool:
    """True for a failure after which the whole write may run again, having committed
    nothing: a serialization failure, a deadlock, the connection lost before COMMIT."""
    if isinstance(error, pg.SerializationFailure | pg.DeadlockDetected):
        return True
    return lost(error, conn)


def server_error(url: str, error: psycopg.Error) -> StoreError:
    """A failure of the server itself (not of one statement), named; the URL shown without
    its password, and any form of the password taken out of the engine's words."""
    text = scrub(str(error), url).strip()
    detail = text.splitlines()[0] if text else type(error).__name__
    return StoreError(f"the PostgreSQL server at {shown(url)} failed: {detail}")
