"""Numbered, forward-only migrations: `migrations/NNNN_name.sql`, version in PRAGMA user_version."""

from __future__ import annotations

import datetime as dt
import os
import re
import sqlite3
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from bot.errors import StoreError
from bot.store import special_files
from bot.store.errors import describe_os_error, sqlite_reason

_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    name: str
    sql: str


def available(folder_name: str = "migrations") -> list[Migration]:
    """The numbered migrations in `bot/store/<folder_name>/` (`migrations_pg` for PostgreSQL)."""
    folder = resources.files("bot.store") / folder_name
    found = []
    for entry in folder.iterdir():
        match = _NAME.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), entry.name, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    if [m.version for m in found] != list(range(1, len(found) + 1)):
        raise StoreError("migrations must be numbered 0001, 0002, … without gaps")
    return found


def current_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def refuse_newer(conn: sqlite3.Connection) -> int:
    """The database's schema version, unless it is newer than this code knows."""
    latest = available()[-1].version
    version = current_version(conn)
    if version > latest:
        raise StoreError(
            f"the database is at schema version {version}, newer than this Laurel knows "
            f"({latest}): upgrade Laurel, or restore a backup made by this version"
        )
    return version


def migrate(conn: sqlite3.Connection, db_path: Path | None, now: dt.datetime) -> list[Migration]:
    """Bring the schema up to date; return what was applied.

    A database written by a newer Laurel is refused rather than guessed at. An existing database
    is backed up beside itself before its schema changes, in a file stamped with `now`.
    """
    migrations = available()
    version = refuse_newer(conn)
    pending = [m for m in migrations if m.version > version]
    if pending and version > 0 and db_path is not None:
        stamp = now.astimezone(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
        backup_to(conn, db_path.with_name(f"{db_path.name}.v{version}-{stamp}.bak"))
    for migration in pending:
        try:
            conn.executescript(
                f"BEGIN IMMEDIATE;\n{migration.sql}\nPRAGMA user_version = {migration.version};\n"
                "COMMIT;"
            )
        except sqlite3.Error as exc:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise StoreError(f"migration {migration.name} failed: {sqlite_reason(exc)}") from exc
    return pending


def backup_to(conn: sqlite3.Connection, target: Path) -> Path:
    """Copy the live database to `target` with SQLite's online backup, then check the copy."""
    if special_files.is_special(target):
        return _backup_into_special(conn, target)
    partial = target.with_name(target.name + ".partial")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        partial.unlink(missing_ok=True)
        _copy_checked(conn, partial, target)
    except (OSError, sqlite3.OperationalError) as exc:
        reason = describe_os_error(exc) if isinstance(exc, OSError) else sqlite_reason(exc)

        raise StoreError(
            f"the backup to {target} failed: {reason}; the database itself is untouched "
            "and no partial backup was kept"
        ) from None
    return target


def _backup_into_special(conn: sqlite3.Connection, target: Path) -> Path:
    """The checked backup made in a folder of its own, then written into the device or pipe
    `target` names (never renamed over it)."""
    with tempfile.TemporaryDirectory(prefix="laurel-backup-") as folder:
        checked = Path(folder) / "backup.db"
        try:
            _copy_checked(conn, checked.with_name("backup.db.partial"), checked)
            special_files.copy_into(checked, target)
        except (OSError, sqlite3.OperationalError) as exc:
            reason = describe_os_error(exc) if isinstance(exc, OSError) else sqlite_reason(exc)
            raise StoreError(
                f"the backup to {target} failed: {reason}; the database itself is untouched"
            ) from None
    return target


def _copy_checked(conn: sqlite3.Connection, partial: Path, target: Path) -> None:
    try:
        copy = sqlite3.connect(partial)
        try:
            conn.backup(copy)
            verdict = copy.execute("PRAGMA integrity_check").fetchone()[0]
            # One self-contained file: reading it later leaves no -wal/-shm beside it.
            copy.execute("PRAGMA journal_mode = DELETE")
        finally:
            copy.close()
        if verdict != "ok":
            raise StoreError(f"the backup failed its integrity check: {verdict}")
        durable_replace(partial, target)
    except BaseException:
        # Out of space, a failed check: no half-file stays, nor the journal SQLite kept beside
        # it (a copy big enough to be cut off mid-way leaves one).
        for suffix in ("", "-journal", "-wal", "-shm"):
            partial.with_name(partial.name + suffix).unlink(missing_ok=True)
        raise


def durable_replace(source: Path, target: Path) -> None:
    """Rename `source` over `target` so that after a crash either the old or the whole new file
    is there: the data reaches the disk before the rename, and the rename before we return."""
    fd = os.open(source, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    source.replace(target)
    fsync_directory(target.parent)


def fsync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
