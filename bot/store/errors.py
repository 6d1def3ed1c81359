import errno
import sqlite3

from bot.errors import LaurelError

# SQLite's primary result codes for a write refused as a whole (the low byte of the extended
# code): https://sqlite.org/rescode.html
SQLITE_BUSY, SQLITE_LOCKED, SQLITE_READONLY, SQLITE_FULL = 5, 6, 8, 13
SQLITE_IOERR = 10
REFUSALS = {
    SQLITE_BUSY: "the database is busy: another program has held its write lock too long",
    SQLITE_LOCKED: "the database is busy: another program has held its write lock too long",
    SQLITE_READONLY: "the database is read-only (check the file, its folder and the mount)",
    SQLITE_FULL: "the disk is full, or the database has reached its size limit",
}


class StoreError(LaurelError):
    """The database cannot be used as asked."""


def read_only(path: object) -> StoreError:
    """What to say of a database this user may not write: read-only, not damaged."""
    return StoreError(
        f"{path} is read-only for the user running Laurel. Laurel writes the database and, "
        "beside it, its -wal and -shm files: make the file and its folder writable by that "
        "user (or mount the volume read-write), then start again."
    )


class WriteRefused(StoreError):
    """SQLite refused a write as a whole (busy, read-only, full): nothing of it was written."""

    def __init__(self, reason: str, code: int) -> None:
        super().__init__(f"{reason}; nothing was written. Try again once that is fixed.")
        self.code = code


def refused(error: sqlite3.OperationalError) -> WriteRefused | None:
    """The WriteRefused for `error` if it is one of SQLite's refusals, else None."""
    code = error.sqlite_errorcode & 0xFF
    reason = REFUSALS.get(code)
    return None if reason is None else WriteRefused(reason, code)


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
