"""Names that are not regular files: a device (/dev/full, /dev/stdout), a pipe, a socket, a
folder. Laurel writes a file atomically by renaming a finished copy over its name; over one of
these, that rename would replace the device node or the pipe by a plain file (issue 22, item 9).
So they are written into, as `> /dev/stdout` would, and a failure of the write is reported."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path
from typing import BinaryIO


def is_special(path: Path) -> bool:
    """Whether `path` (its symlinks followed) exists and is not a regular file."""
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return False
    return not stat.S_ISREG(mode)


def write_into(path: Path, data: bytes) -> None:
    """Write `data` into the existing non-regular `path` itself; OSError as the system says."""
    with _opened(path) as out:
        out.write(data)


def copy_into(source: Path, path: Path) -> None:
    """Copy the file `source` into the existing non-regular `path` itself."""
    with source.open("rb") as given, _opened(path) as out:
        shutil.copyfileobj(given, out)


def _opened(path: Path) -> BinaryIO:
    # Non-blocking to open: a pipe nobody reads is an error (ENXIO), not a hang; blocking after.
    fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    os.set_blocking(fd, True)
    return os.fdopen(fd, "wb")
