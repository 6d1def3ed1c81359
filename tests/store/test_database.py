from __future__ import annotations

import asyncio
import datetime as dt
import sqlite3
import threading
from pathlib import Path

import psycopg
import pytest

from bot.errors import StoreBusy, StoreError, StoreFull, StoreReadOnly, WriteRefused
from bot.settings import DatabaseSettings
from bot.store import migrations
from bot.store.database import Database
from bot.store.errors import refused
from bot.store.sql import Connection, integrity_errors
from tests.support.backends import open_sqlite
from tests.support.clock import ManualClock


@pytest.mark.sqlite_only("SQLite's file, WAL and FTS5 table")
async def test_opens_with_wal_foreign_keys_and_current_schema(tmp_path: Path) -> None:
    async with await open_sqlite(tmp_path / "x.db") as db:
        assert await db.schema_version() == migrations.available()[-1].version
    conn = sqlite3.connect(tmp_path / "x.db")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert {"venues", "editions", "papers", "awards", "audit", "paper_search"} <= tables


def latest_version(db: Database) -> int:
    """The newest migration of `db`'s engine."""
    folder = "migrations" if db.dialect == "sqlite" else "migrations_pg"
    return migrations.available(folder)[-1].version


async def test_the_schema_version_answers_while_a_long_write_holds_the_writer(db: Database) -> None:
    # What the health check asks: a long import must not make a live bot look dead.
    started, release = threading.Event(), threading.Event()

    def long_write(conn: Connection) -> None:
        started.set()
        release.wait(10)

    writing = asyncio.create_task(db.write(long_write))
    try:
        assert await asyncio.to_thread(started.wait, 10)
        async with asyncio.timeout(5):
            version = await db.schema_version()
        assert not writing.done()  # answered while the write still held the writer
    finally:
        release.set()
        await writing
    assert version == latest_version(db)


@pytest.mark.sqlite_only("SQLite's PRAGMA busy_timeout")
async def test_every_connection_waits_as_long_as_it_is_told(tmp_path: Path) -> None:
    """[database] busy_timeout_ms reaches the writer and every reader (the CLI hands it in)."""
    async with await open_sqlite(tmp_path / "x.db", busy_timeout_ms=123) as db:
        writer = await db.snapshot(lambda conn: conn.execute("PRAGMA busy_timeout").fetchone())
        readers = [await db.fetchone("PRAGMA busy_timeout") for _ in range(4)]  # both, in turn
    assert writer[0] == 123
    assert {row[0] for row in readers if row is not None} == {123}
    async with await open_sqlite(tmp_path / "x.db") as db:
        default = await db.snapshot(lambda conn: conn.execute("PRAGMA busy_timeout").fetchone())
    assert default[0] == DatabaseSettings().busy_timeout_ms  # one default, store and settings


async def test_writer_enforces_foreign_keys(db: Database) -> None:
    def orphan(conn: Connection) -> None:
        conn.execute("INSERT INTO editions (venue, year) VALUES ('nowhere', 2025)")

    with pytest.raises(integrity_errors()):
        await db.write(orphan)
    assert await db.fetchall("SELECT * FROM editions") == []


async def test_reader_cannot_write(db: Database) -> None:
    refusals = (sqlite3.OperationalError, psycopg.errors.ReadOnlySqlTransaction)
    with pytest.raises(refusals, match=r"readonly|read-only|query_only"):
        await db.fetchall("INSERT INTO venues (key, name) VALUES ('x', 'X')")


async def test_failed_write_rolls_back_everything(db: Database) -> None:
    def half(conn: Connection) -> None:
        conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'A')")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        await db.write(half)
    assert await db.fetchall("SELECT * FROM venues") == []


async def test_rehearse_runs_the_write_then_rolls_it_back(db: Database) -> None:
    def add(conn: Connection) -> int:
        conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'A')")
        return int(conn.execute("SELECT count(*) FROM venues").fetchone()[0])

    assert await db.rehearse(add) == 1
    assert await db.fetchall("SELECT * FROM venues") == []


@pytest.mark.sqlite_only("SQLite's PRAGMA user_version in a file")
async def test_newer_schema_is_refused_and_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match="newer than this Laurel"):
        await open_sqlite(path)
    assert path.read_bytes() == before


def _with_extra_migration(monkeypatch: pytest.MonkeyPatch, sql: str) -> None:
    real = migrations.available()
    extra = migrations.Migration(len(real) + 1, f"{len(real) + 1:04d}_extra.sql", sql)
    monkeypatch.setattr(migrations, "available", lambda: [*real, extra])


@pytest.mark.sqlite_only("SQLite's backup file beside the database")
async def test_an_existing_database_is_backed_up_before_migrating(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "laurel.db"
    async with await open_sqlite(path) as db:
        current = await db.schema_version()
    _with_extra_migration(monkeypatch, "CREATE TABLE extra (x);")

    clock = ManualClock(dt.datetime(2026, 3, 2, 9, 30, 5, tzinfo=dt.UTC))
    async with await open_sqlite(path, clock=clock) as db:
        assert await db.schema_version() == current + 1

    # Stamped by the clock it was handed, not the wall clock.
    (backup,) = tmp_path.glob(f"laurel.db.v{current}-*.bak")
    assert backup.name == f"laurel.db.v{current}-20260302T093005Z.bak"
    conn = sqlite3.connect(backup)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == current
    assert conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'extra'").fetchone() is None


@pytest.mark.sqlite_only("SQLite's migrations on a file")
async def test_a_failing_migration_changes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "laurel.db"
    async with await open_sqlite(path) as db:
        current = await db.schema_version()
    _with_extra_migration(monkeypatch, "CREATE TABLE half_done (x);\nCREATE TABLE broken (;")

    extra = f"{current + 1:04d}_extra"
    with pytest.raises(StoreError, match=rf"migration {extra}\.sql failed"):
        await open_sqlite(path)

    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == current
    assert conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'half_done'").fetchone() is None


@pytest.mark.sqlite_only("a file that is not SQLite's")
async def test_not_a_database_is_a_clear_error_and_untouched(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite" * 100)
    with pytest.raises(StoreError, match="not a usable SQLite database"):
        await open_sqlite(path)
    assert path.read_bytes() == b"this is not sqlite" * 100


@pytest.mark.sqlite_only("SQLite's missing file")
async def test_open_without_create_refuses_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="laurel db init"):
        await open_sqlite(tmp_path / "missing.db", create=False)
    assert not (tmp_path / "missing.db").exists()


@pytest.mark.sqlite_only("SQLite's online backup (PostgreSQL: pg_dump, tested apart)")
async def test_backup_and_integrity_check(db: Database, tmp_path: Path) -> None:
    def add(conn: Connection) -> None:
        conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'A')")

    await db.write(add)
    target = await db.backup(tmp_path / "b" / "copy.db")
    assert sqlite3.connect(target).execute("SELECT name FROM venues").fetchall() == [("A",)]
    assert await db.integrity_check() == []


async def test_audit_log_is_append_only(db: Database) -> None:
    def tamper(conn: Connection) -> None:
        conn.execute(
            "INSERT INTO audit (at, actor, batch, action, entity, entity_id) "
            "VALUES ('t', 'a', 'b', 'add', 'venue', 'x')"
        )
        conn.execute("DELETE FROM audit")

    with pytest.raises(integrity_errors(), match="append-only"):
        await db.write(tamper)
    assert await db.fetchall("SELECT * FROM audit") == []


@pytest.mark.sqlite_only("SQLite's FTS5 index")
async def test_integrity_check_finds_a_search_index_out_of_step(db: Database) -> None:
    def corrupt(conn: Connection) -> None:
        # A row in the index whose content is gone: what a lost write would leave behind.
        conn.execute(
            "INSERT INTO paper_search (rowid, title, authors, affiliations, summaries, abstract)"
            " VALUES (999, 'ghost', '', '', '', '')"
        )
        conn.execute("DELETE FROM paper_search_content WHERE id = 999")

    await db.write(corrupt)
    problems = await db.integrity_check()
    assert any(p.startswith("search index") for p in problems)


@pytest.mark.sqlite_only("SQLite's reader queue (PostgreSQL: tested apart)")
async def test_readers_answer_side_by_side(tmp_path: Path) -> None:
    async with await open_sqlite(tmp_path / "x.db") as db:
        first = db._idle.get_nowait()  # one reader busy elsewhere
        try:
            # the other still answers, rather than waiting for the first
            async with asyncio.timeout(5):
                row = await db.fetchone("SELECT 1")
            assert row is not None
            assert row[0] == 1
        finally:
            db._idle.put_nowait(first)


async def test_an_error_that_is_no_refusal_stays_itself_and_rolls_back(db: Database) -> None:
    def broken(conn: Connection) -> None:
        conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'A')")
        conn.execute("INSERT INTO no_such_table VALUES (1)")

    unknown = (sqlite3.OperationalError, psycopg.errors.UndefinedTable)
    with pytest.raises(unknown, match=r"no such table|does not exist"):
        await db.write(broken)
    assert await db.fetchall("SELECT * FROM venues") == []


@pytest.mark.sqlite_only("SQLite's PRAGMA max_page_count")
async def test_a_write_after_sqlite_rolled_back_by_itself_reports_the_cause(
    db: Database,
) -> None:
    # SQLITE_FULL ends the transaction inside SQLite; the write path must not then fail on
    # its own ROLLBACK and hide why (tests/reliability has the whole case).
    def cap(conn: Connection) -> None:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")

    def grow(conn: Connection) -> None:
        conn.execute("INSERT INTO venues (key, name) VALUES ('a', ?)", ("x" * 200_000,))

    await db.snapshot(cap)
    with pytest.raises(WriteRefused, match="disk is full") as refused:
        await db.write(grow)
    assert isinstance(refused.value, StoreFull)
    await db.snapshot(lambda conn: conn.execute("PRAGMA max_page_count = 1073741823"))
    await db.write(grow)  # the writer connection is usable again
    assert len(await db.fetchall("SELECT * FROM venues")) == 1


@pytest.mark.parametrize(
    ("code", "kind"),
    [
        (5, StoreBusy),
        (6, StoreBusy),
        (8, StoreReadOnly),
        (13, StoreFull),
        (5 | (3 << 8), StoreBusy),
    ],
)
@pytest.mark.sqlite_only("SQLite's result codes")
def test_sqlites_refusals_become_the_domain_errors_the_commands_answer(
    code: int, kind: type[WriteRefused]
) -> None:
    error = sqlite3.OperationalError("refused")
    error.sqlite_errorcode = code  # an extended code keeps the primary one in its low byte
    assert type(refused(error)) is kind


@pytest.mark.sqlite_only("SQLite's result codes")
def test_other_sqlite_errors_are_no_refusal() -> None:
    error = sqlite3.OperationalError("no such table: x")
    error.sqlite_errorcode = 1
    assert refused(error) is None
