"""Is the search index's directory as tantivy left it, and what a failure of the index is.

tantivy trusts its files: random bytes in a segment's `.idx` make it panic (a Rust panic reaches
Python as `pyo3_runtime.PanicException`, a BaseException), a garbled `.term` fails every search,
and a garbled `.pos` may answer wrong without failing at all. So the index (`index`)
checks its files before it trusts them: every file tantivy writes into a segment ends in a
footer holding a CRC-32 of what precedes it, which is verified once per file (at start, and
when a commit or a merge brings a new segment); after that a file's size and modification time
are compared before each use (a `stat` per file: segments are never written again, so any
change is damage). A file missing, changed or failing its checksum, or a `meta.json` that
cannot be read, is `Damaged`; the index then stops answering and is rebuilt.
"""

from __future__ import annotations

import json
import os
import re
import struct
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

_MAGIC = 1337  # tantivy's footer ends with its length and this number (little-endian u32s)
_COMPONENTS = ("idx", "term", "pos", "store", "fast", "fieldnorm")
_CHUNK = 1 << 20
# What tantivy writes into an index directory (and Laurel beside it): a reset deletes these
# and nothing else, whatever else someone keeps in the folder.
_TANTIVY_FILE = re.compile(
    r"^(meta\.json|\.managed\.json|\.tantivy-(meta|writer)\.lock|laurel-generation\.json"
    r"|laurel-generation\.tmp|[0-9a-f]{32}(\.\d+)?\.[a-z]+|\.tmp.*)$"
)


_GENERATION_FILE = "laurel-generation.json"  # which catalogue write the index reflects


def read_generation(path: Path) -> dict[str, object]:
    """What the index at `path` last saved of the store's generation (FileNotFoundError: none
    yet; ValueError: unreadable)."""
    saved = json.loads((path / _GENERATION_FILE).read_text(encoding="utf-8"))
    return saved if isinstance(saved, dict) else {}


def save_generation(path: Path, saved: dict[str, object]) -> None:
    """Written after each index commit, whole or not at all (a rename)."""
    target = path / _GENERATION_FILE
    temporary = target.with_suffix(".tmp")
    temporary.write_text(json.dumps(saved), encoding="utf-8")
    os.replace(temporary, target)


class Damaged(Exception):
    """The index directory is not as tantivy left it."""


class Stopped(Exception):
    """A catch-up interrupted because the index is closing; what it did is rolled back."""


class IndexFault(Exception):
    """The index failed to read or write (an I/O error, damaged files, a panic inside
    tantivy): what it was asked is to be answered without it, and it is to be rebuilt."""


def is_panic(exc: BaseException) -> bool:
    """A Rust panic inside tantivy, as PyO3 raises it (its class is made at run time, in a
    module no one can import, so it is known by its name)."""
    kind = type(exc)
    return kind.__name__ == "PanicException" and kind.__module__ == "pyo3_runtime"


def guarded(fn: Callable[[], T]) -> T:
    """`fn()`, with any failure of the index (an error of tantivy's, damaged files, a panic)
    raised as IndexFault; everything else (the store's errors, a stop) passes as it is."""
    try:
        return fn()
    except (OSError, ValueError, Damaged) as exc:
        raise IndexFault(f"{type(exc).__name__}: {exc}") from exc
    except BaseException as exc:
        if is_panic(exc):
            raise IndexFault(f"tantivy panicked: {exc}") from exc
        raise


class IndexFiles:
    """The files of the segments `meta.json` lists, each verified once and watched after."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._folder = str(path)  # os.stat of a string: a search pays for no Path objects
        self._seen: dict[str, tuple[int, int]] = {}  # file → (size, mtime) when verified
        self._listed: tuple[tuple[int, int, int], list[str]] | None = None  # meta.json's, read

    def check(self) -> None:
        """Raise Damaged if a file of the index is missing, changed or fails its checksum."""
        try:
            names = self._files()
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise Damaged(f"meta.json unreadable ({type(exc).__name__}: {exc})") from exc
        seen = dict(self._seen)
        for name in names:
            try:
                stat = os.stat(f"{self._folder}/{name}")
            except FileNotFoundError:
                if name not in self._files():  # a merge replaced the segment meanwhile
                    continue
                raise Damaged(f"{name} is missing") from None
            except OSError as exc:
                raise Damaged(f"{name}: {exc}") from exc
            stamp = (stat.st_size, stat.st_mtime_ns)
            known = seen.get(name)
            if known == stamp:
                continue
            if known is not None:
                raise Damaged(f"{name} was changed")
            verify(self.path / name)
            seen[name] = stamp
        self._seen = {name: seen[name] for name in names if name in seen}

    def _files(self) -> list[str]:
        """The files `meta.json` lists, read again only when it changed (a commit, a merge)."""
        stat = os.stat(f"{self._folder}/meta.json")
        stamp = (stat.st_ino, stat.st_size, stat.st_mtime_ns)
        listed = self._listed
        if listed is not None and listed[0] == stamp:
            return listed[1]
        meta = json.loads((self.path / "meta.json").read_text(encoding="utf-8"))
        names: list[str] = []
        for segment in meta["segments"]:
            stem = str(segment["segment_id"]).replace("-", "")
            names += [f"{stem}.{component}" for component in _COMPONENTS]
            deletes = segment.get("deletes")
            if deletes:
                names.append(f"{stem}.{int(deletes['opstamp'])}.del")
        self._listed = (stamp, names)
        return names


def verify(file: Path) -> None:
    """Check `file` against the CRC-32 its tantivy footer holds."""
    try:
        with file.open("rb") as handle:
            size = handle.seek(0, 2)
            if size < 8:
                raise Damaged(f"{file.name} is cut short")
            handle.seek(size - 8)
            length, magic = struct.unpack("<II", handle.read(8))
            if magic != _MAGIC or length + 8 > size:
                raise Damaged(f"{file.name} has no footer")
            handle.seek(size - 8 - length)
            footer = json.loads(handle.read(length))
            body, crc = size - 8 - length, 0
            handle.seek(0)
            while body > 0:
                chunk = handle.read(min(_CHUNK, body))
                if not chunk:
                    raise Damaged(f"{file.name} is cut short")
                crc, body = zlib.crc32(chunk, crc), body - len(chunk)
    except (OSError, ValueError) as exc:
        raise Damaged(f"{file.name}: {exc}") from exc
    if not isinstance(footer, dict) or footer.get("crc") != crc:
        raise Damaged(f"{file.name} fails its checksum")


def wipe(path: Path) -> None:
    """Delete what tantivy (and Laurel) wrote into `path`, and nothing else."""
    if not path.is_dir():
        return
    for entry in path.iterdir():
        if _TANTIVY_FILE.match(entry.name) and not entry.is_dir():
            entry.unlink(missing_ok=True)
