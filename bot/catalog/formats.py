"""Which reader a file needs, and reading it into a batch. Every format ends in a CatalogBatch."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal, get_args

from bot.catalog.document import DocumentError, merge, read_document, write_document
from bot.catalog.importers import ai_bestpapers, csv_format
from bot.domain.models import CatalogBatch, Venue

Format = Literal["toml", "csv", "ai-bestpapers"]
FORMATS: tuple[str, ...] = get_args(Format)
# Our own formats are authoritative; foreign ones only fill gaps (see store.catalog_writer).
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
    if fmt == "csv":
        return csv_format.parse(path)
    return ai_bestpapers.parse(path, known)


def write(path: Path, batch: CatalogBatch) -> None:
    """Write `batch` to `path` (TOML, or CSV by its suffix) atomically: all of it or nothing."""
    is_csv = path.suffix == ".csv"
    text = csv_format.write(batch) if is_csv else write_document(batch)
    partial = path.with_name(path.name + ".partial")
    try:
        # A byte-order mark lets spreadsheets read CSV as UTF-8 (CJK titles stay legible).
        partial.write_text(text, encoding="utf-8-sig" if is_csv else "utf-8")
        partial.replace(path)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise DocumentError(
            f"{path}: cannot be written: {exc.strerror}", key="unwritable"
        ) from None


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise DocumentError(f"{path}: not UTF-8 text", key="not-utf8") from None
    except OSError as exc:
        raise DocumentError(f"{path}: cannot be read: {exc.strerror}", key="missing") from None
