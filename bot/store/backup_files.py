"""Backup files: their names, their retention, and restoring the database from one.

Retention only ever touches files named exactly as Laurel names its backups
(`laurel-YYYYMMDDTHHMMSSZ.db`): anything else in the directory is someone else's. A restore
checks a staged copy of the backup before anything is replaced, keeps the current database
aside, and swaps the file in with one rename.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bot.errors import StoreError
from bot.store import migrations
from bot.store.lock import InstanceLock
from bot.store.sqlite import integrity_problems

STAMP = "%Y%m%dT%H%M%SZ"
NAME = re.compile(r"^laurel-(\d{8}T\d{6}Z)\.db$")
PARTIAL = re.compile(r"^laurel-\d{8}T\d{6}Z\.db\.partial$")
# A partial file this old was left by a backup that died (no backup takes an hour).
STALE_PARTIAL = dt.timedelta(hours=1)
SQLITE_HEADER = b"SQLite format 3\x00"
SIDECARS = ("-wal", "-shm")


def backup_name(at: dt.datetime) -> str:
    return f"laurel-{at.astimezone(dt.UTC).strftime(STAMP)}.db"


def made_by_laurel(directory: Path) -> list[tuple[dt.datetime, Path]]:
    """Laurel's own backups in `directory`, oldest first, with the time in their names."""
    if not directory.is_dir():
        return []
    found = []
    for entry in directory.iterdir():
        match = NAME.match(entry.name)
        if match and entry.is_file():
            at = dt.datetime.strptime(match[1], STAMP).replace(tzinfo=dt.UTC)
            found.append((at, entry))
    return sorted(found)


def prune(directory: Path, keep: int, now: dt.datetime) -> list[Path]:
    """Delete Laurel's backups beyond the newest `keep`, and partial files left by a crash."""
    removed = [path for _, path in made_by_laurel(directory)[:-keep]]
    for entry in directory.iterdir() if directory.is_dir() else ():
        if PARTIAL.match(entry.name):
            modified = dt.datetime.fromtimestamp(entry.stat().st_mtime, dt.UTC)
            if now - modified > STALE_PARTIAL:
                removed.append(entry)
    for path in removed:
        path.unlink(missing_ok=True)
    return removed


@dataclass(frozen=True, slots=True)
class Restored:
    schema_version: int
    papers: int
    kept_aside: Path | None  # the database as it was, or None if there was none


def restore(
    backup: Path, database: Path, *, confirm: Callable[[int, int], bool], now: dt.datetime
) -> Restored | None:
    """Replace `database` by `backup` once the backup is checked and `confirm(schema, papers)`.

    Refused while a bot holds the instance lock (and the lock keeps one from starting meanwhile).
    Returns None when not confirmed; nothing has been changed then.
    """
    _refuse_unusable(backup, database)
    staged = database.with_name(database.name + ".restoring")
    with InstanceLock(database):
        try:
            version, papers = _stage(backup, staged)
            if not confirm(version, papers):
                return None
            kept = _set_aside(database, now)
            migrations.durable_replace(staged, database)
        finally:
            _remove_with_sidecars(staged)
    return Restored(version, papers, kept)


def _refuse_unusable(backup: Path, database: Path) -> None:
    if not backup.is_file():
        raise StoreError(f"no backup file at {backup}")
    if backup.resolve() == database.resolve():
        raise StoreError(f"{backup} is the database itself; name a backup of it")
    with backup.open("rb") as handle:
        if handle.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            raise StoreError(f"{backup} is not a SQLite database")


def _stage(backup: Path, staged: Path) -> tuple[int, int]:
    """Copy `backup` (with any -wal of its own) to `staged`, fold the WAL in, and check the copy.

    SQLite never opens `backup` itself: opening a WAL-mode file, even read-only, makes a -shm
    (and a -wal) beside it, and a plain copy of a live database is a WAL-mode file.
    """
    _remove_with_sidecars(staged)
    try:
        shutil.copyfile(backup, staged)
        if Path(f"{backup}-wal").is_file():
            shutil.copyfile(f"{backup}-wal", f"{staged}-wal")
    except OSError as exc:
        raise StoreError(f"{backup} cannot be copied beside the database: {exc.strerror}") from None
    try:
        copy = sqlite3.connect(staged, isolation_level=None)  # no implicit transactions
        try:
            # One file, no -wal to carry along: checkpoints whatever the -wal held.
            copy.execute("PRAGMA journal_mode = DELETE")
            version = migrations.current_version(copy)
            latest = migrations.available()[-1].version
            if version == 0:
                raise StoreError(f"{backup} is a SQLite database, but not one of Laurel's")
            if version > latest:
                raise StoreError(
                    f"{backup} is at schema version {version}, newer than this Laurel knows "
                    f"({latest}): restore it with the Laurel that made it"
                )
            problems = integrity_problems(copy)
            if problems:
                raise StoreError(f"{backup} is damaged: {'; '.join(problems[:3])}")
            papers = int(copy.execute("SELECT count(*) FROM papers").fetchone()[0])
        finally:
            copy.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"{backup} cannot be read as a database: {exc}") from None
    return version, papers


def _remove_with_sidecars(path: Path) -> None:
    for name in (str(path), *(f"{path}{suffix}" for suffix in SIDECARS)):
        Path(name).unlink(missing_ok=True)


def _set_aside(database: Path, now: dt.datetime) -> Path | None:
    """Keep the current database, with its -wal, under a dated name beside it.

    A hard link keeps the old file reachable while the rename replaces it, so there is no moment
    without a database. Its -wal must go too: left beside the restored file, SQLite would replay
    the old database's frames into it.
    """
    if not database.exists():
        for suffix in SIDECARS:
            Path(f"{database}{suffix}").unlink(missing_ok=True)
        return None
    _checkpoint(database)
    aside = _free_name(database.with_name(f"{database.name}.before-restore-{now.strftime(STAMP)}"))
    os.link(database, aside)
    for suffix in SIDECARS:
        sidecar = Path(f"{database}{suffix}")
        if sidecar.exists():
            sidecar.replace(f"{aside}{suffix}")
    return aside


def _free_name(wanted: Path) -> Path:
    """`wanted`, or with -2, -3, … when a restore within the same second has taken it."""
    candidate, number = wanted, 1
    while any(Path(f"{candidate}{suffix}").exists() for suffix in ("", *SIDECARS)):
        number += 1
        candidate = wanted.with_name(f"{wanted.name}-{number}")
    return candidate


def _checkpoint(database: Path) -> None:
    """Fold the WAL into the file, so the set-aside copy stands alone; best effort (a damaged
    database is a reason to restore, not a reason to refuse)."""
    try:
        conn = sqlite3.connect(database)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        pass
