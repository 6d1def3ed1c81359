"""SQLite's refusals turned into the store's domain errors, and the words for what the machine
refused. The errors themselves are `bot.errors`' (import them from there: one path per name),
where the commands and the command line read them."""

import errno
import sqlite3

from bot.errors import StoreBusy, StoreError, StoreFull, StoreReadOnly, WriteRefused

__all__ = [
    "SQLITE_BUSY",
    "SQLITE_FULL",
    "SQLITE_IOERR",
    "SQLITE_LOCKED",
    "SQLITE_READONLY",
    "describe_os_error",
    "read_only",
    "refused",
    "sqlite_reason",
]

# SQLite's primary result codes for a write refused as a whole (the low byte of the extended
# code): https://sqlite.org/rescode.html
SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY, SQLITE_FULL = 5, 6, 8, 13
SQLITE_IOERR = 10
_BUSY = "the database is busy: another program has held its write lock too long"
_REFUSALS: dict[int, tuple[type[WriteRefused], str]] = {
    SQLITE_BUSY: (StoreBusy, _BUSY),
    SQLITE_LOCKED: (StoreBusy, _BUSY),
    SQLITE_READONLY: (
        StoreReadOnly,
        "the database is read-only (check the file, its folder and the mount)",
    ),
    SQLITE_FULL: (StoreFull, "the disk is full, or the database has reached its size limit"),
}


def read_only(path: object) -> StoreError:
    """What to say of a database this user may not write: read-only, not damaged."""
    return StoreError(
        f"{path} is read-only for the user running Laurel. Laurel writes the database and, "
        "beside it, its -wal and -shm files: make the file and its folder writable by that "
        "user (or mount the volume read-write), then start again."
    )


def refused(error: sqlite3.OperationalError) -> WriteRefused | None:
    """The domain error for `error` if it is one of SQLite's refusals (busy, read-only, full),
    else None."""
    found = _REFUSALS.get(error.sqlite_errorcode & 0xFF)
    if found is None:
        return None
    kind, reason = found
    return kind(reason)


def describe_os_error(exc: OSError) -> str:
    """What the machine refused, in words, with the file it concerns."""
    where = f" ({exc.filename})" if exc.filename else ""
    if exc.errno == errno.ENOSPC:
        return f"the disk is full{where}: free some space and try again"
    if exc.errno == errno.EFBIG:
        return f"a file grew past the size this process may write{where} (ulimit -f, or the disk)"
    if exc.errno in (errno.EEXIST, errno.ENOTDIR):
        return f"a part of the path is a file, not a folder{where}"
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
        return f"not allowed to write there: {exc.strerror}{where}"
    return f"{exc.strerror or exc}{where}"


def sqlite_reason(exc: sqlite3.Error) -> str:
    """SQLite's message, with a hint where it means the disk refused."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    if code in (SQLITE_FULL, SQLITE_IOERR):
        return f"{exc} (is the disk full, or failing?)"
    return str(exc)
