"""PostgreSQL's refusals in the store's words (`bot.errors`), and which failures a write may
safely try again."""

from __future__ import annotations

import psycopg
from psycopg import errors as pg

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


def retryable(error: BaseException, conn: psycopg.Connection[object] | None) -> bool:
    """True for a failure after which the whole write may run again: a serialization failure,
    a deadlock, or the connection lost (before COMMIT was sent: see the caller)."""
    if isinstance(error, pg.SerializationFailure | pg.DeadlockDetected):
        return True
    if isinstance(error, psycopg.OperationalError):
        return conn is None or conn.closed or conn.broken
    return False


def server_error(where: str, error: psycopg.Error) -> StoreError:
    """A failure of the server itself (not of one statement), named."""
    detail = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    return StoreError(f"the PostgreSQL server at {where} failed: {detail}")
