"""One bot per database: a second `laurel run` on the same file stops with a clear message.

Two bots on one database would both post every digest. The lock is an OS file lock (flock) on
`<database>.lock` beside the real file (symlinks resolved), so it is released by the kernel when
the process dies, even by SIGKILL: no stale lock to clean up by hand.

Shard processes (`laurel run --shards`) share one database by design (each posts its own
shards' digests; the ledger keeps every post to one): they take the lock shared, so they run
side by side, but never beside an unsharded bot, which would post every guild's digests too.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from types import TracebackType
from typing import Self

from bot.errors import StoreError
from bot.store.errors import describe_os_error


class InstanceLock:
    def __init__(self, database: Path, *, shared: bool = False) -> None:
        # Keyed on the file, not on the name it was given: a symlink (to the file or to a folder
        # on the way) or a relative path reaches the same lock. A hard link is a second name
        # SQLite itself cannot share a -wal through, so it is not made safe here either.
        real = Path(os.path.realpath(database))
        self.database = database
        self.path = real.with_name(real.name + ".lock")
        self._fd: int | None = None
        self._shared = shared

    def acquire(self) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise self._cannot(exc) from None
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if self._shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            shards = " (only shard processes share a database)" if self._shared else ""
            raise StoreError(
                f"another Laurel is already running on {self.database} "
                f"(pid {holder}){shards}; stop it first, or give this one another database"
            ) from None
        try:
            # The pid is only for the message above; the flock is the lock.
            pid = str(os.getpid()).encode()
            os.pwrite(fd, pid, 0)
            os.ftruncate(fd, len(pid))
        except OSError as exc:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
            raise self._cannot(exc) from None
        self._fd = fd

    def _cannot(self, exc: OSError) -> StoreError:
        return StoreError(f"cannot take the instance lock {self.path}: {describe_os_error(exc)}")

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> Self:
        self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()
