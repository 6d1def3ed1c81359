"""Which reader a file needs, and reading it into a batch. Every format ends in a CatalogBatch."""

from __future__ import annotations

import os
import secrets
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, get_args

from bot.catalog.document import DocumentError, merge, read_document, write_document
from bot.domain.models import CatalogBatch, Venue
from bot.store import special_files

Format = Literal["toml", "csv", "ai-bestpapers"]
FORMATS: tuple[str, ...] = get_args(Format)
# Our own formats are authoritative; foreign ones only fill gaps (see store.catalog.writer).
POLICY = {"toml": "update", "csv": "fill", "ai-bestpapers": "fill"}


def detect(path: Path) -> Format:
    if path.is_dir() or path.suffix == ".toml":
        return "toml"
    if path.suffix == ".csv":
        return "csv"
    if path.suffix in {".yml", ".yaml"}:
        return "ai-bestpapers"
    raise DocumentError(
        f"cannot tell the format of {path.name}; name it with --format ({', '.join(FORMATS)})",
        key="unknown-format",
    )


def read(path: Path, fmt: Format, known: Sequence[Venue] = ()) -> CatalogBatch:
    """Read `path` (a TOML directory is read file by file, sorted) into one batch."""
    if not path.exists():
        raise DocumentError(f"{path}: no such file or directory", key="missing")
    if fmt == "toml":
        files = sorted(path.rglob("*.toml")) if path.is_dir() else [path]
        if not files:
            raise DocumentError(f"{path}: no .toml files in it", key="missing")
        return merge(read_document(_text(f), str(f)) for f in files)
    if path.is_dir():
        raise DocumentError(
            f"{path} is a directory; the {fmt} format reads one file", key="missing"
        )
    # The importers (and PyYAML, for ai-bestpapers) load with the first file of their format.
    if fmt == "csv":
        from bot.catalog.importers import csv_format

        return csv_format.parse(path)
    from bot.catalog.importers import ai_bestpapers

    return ai_bestpapers.parse(path, known)


def write(path: Path, batch: CatalogBatch, *, overwrite: bool = False) -> None:
    """Write `batch` to `path` (TOML, or CSV by its suffix) atomically: all of it or nothing.

    The text goes to a temporary name beside `path` first, then takes its name in one step:
    by a hard link, which refuses an existing file, unless `overwrite` (then by a rename).
    """
    is_csv = path.suffix == ".csv"
    if is_csv:
        from bot.catalog.importers import csv_format

        text = csv_format.write(batch)
    else:
        text = write_document(batch)
    # A byte-order mark lets spreadsheets read CSV as UTF-8 (CJK titles stay legible).
    data = text.encode("utf-8-sig" if is_csv else "utf-8")
    if special_files.is_special(path):
        _write_into(path, data, overwrite=overwrite)
        return
    partial = path.with_name(f".{path.name}.{secrets.token_hex(4)}.partial")
    try:
        # O_EXCL: never through a symlink someone left at the temporary name; 0o666 less umask.
        fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
        _take_name(partial, path, overwrite=overwrite)
    except FileExistsError:
        raise DocumentError(
            f"{path} exists already; add --force to write over it", key="exists"
        ) from None
    except OSError as exc:
        raise DocumentError(
            f"{path}: cannot be written: {exc.strerror}", key="unwritable"
        ) from None
    finally:
        partial.unlink(missing_ok=True)


def _write_into(path: Path, data: bytes, *, overwrite: bool) -> None:
    """Into a device or a pipe itself (`laurel export /dev/stdout --force`): a rename would
    replace it by a plain file."""
    if not overwrite:
        raise DocumentError(f"{path} exists already; add --force to write over it", key="exists")
    try:
        special_files.write_into(path, data)
    except OSError as exc:
        raise DocumentError(
            f"{path}: cannot be written: {exc.strerror}", key="unwritable"
        ) from None


def _take_name(partial: Path, path: Path, *, overwrite: bool) -> None:
    if overwrite:
        partial.replace(path)
        return
    try:
        os.link(partial, path)  # fails, atomically, if `path` exists
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links
        if path.exists() or path.is_symlink():
            raise FileExistsError(path) from None
        partial.replace(path)


def _text(path: Path) -> str:
    try:
        # A byte-order mark (Notepad's UTF-8) is no TOML statement, as in laurel.toml.
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise DocumentError(f"{path}: not UTF-8 text", key="not-utf8") from None
    except OSError as exc:
        raise DocumentError(f"{path}: cannot be read: {exc.strerror}", key="missing") from None
