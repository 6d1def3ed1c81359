"""A database Laurel may not write says so, and what to do (issue 12).

A file the user running Laurel cannot write (a volume mounted read-only, a file owned by
another user) was reported as "not a usable SQLite database", as if it were damaged. File
modes are not a test as root, who may write anyway: the writer connection here opens the
real file through SQLite's read-only mode, which refuses writes exactly as such a file does.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.errors import StoreError
from tests.support.backends import open_sqlite


@pytest.mark.sqlite_only("a read-only SQLite file (PostgreSQL: test_postgres_database.py)")
@pytest.mark.parametrize("journal", ["wal", "delete"])
async def test_a_read_only_database_is_called_read_only_with_what_to_do(
    template_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, journal: str
) -> None:
    path = tmp_path / "laurel.db"
    path.write_bytes(template_db.read_bytes())
    if journal == "delete":  # a file never opened by Laurel: switching it to WAL is a write
        with sqlite3.connect(path) as conn:
            conn.execute("PRAGMA journal_mode = DELETE")
    connect = sqlite3.connect

    def read_only(target: Any, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        kwargs.pop("uri", None)
        conn: sqlite3.Connection = connect(f"file:{target}?mode=ro", *args, uri=True, **kwargs)
        return conn

    monkeypatch.setattr(sqlite3, "connect", read_only)
    with pytest.raises(StoreError) as refused:
        await open_sqlite(path)
    message = str(refused.value)
    assert "read-only" in message
    assert "not a usable" not in message
    assert "writable" in message  # what to do about it
    assert str(path) in message


@pytest.mark.sqlite_only("SQLite's file write lock (PostgreSQL: test_postgres_database.py)")
async def test_a_writable_database_opens_while_another_program_holds_its_write_lock(
    template_db: Path, tmp_path: Path
) -> None:
    path = tmp_path / "laurel.db"
    path.write_bytes(template_db.read_bytes())
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        async with await open_sqlite(path) as db:  # the check does not wait for the lock
            assert await db.schema_version() > 0
    finally:
        other.close()
