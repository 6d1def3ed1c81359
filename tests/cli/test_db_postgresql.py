"""`laurel db` and PostgreSQL (issue 15), in-process against a real server: `db copy --to`
moves a SQLite deployment and verifies it table by table; a second copy, a wrong URL and a
changed row are each said in words with a non-zero exit; `db check` works on both engines;
`db backup` and `db restore` on PostgreSQL point at pg_dump and pg_restore."""

from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import psycopg
import pytest

from bot.cli import main_on
from bot.store.sql import SqliteConnection
from bot.store.table_digests import sqlite_tables
from tests.support.cli_runs import Result, clear_environment, run
from tests.support.clock import ManualClock

SECRET = "s3cret-Pa55"


@pytest.fixture(autouse=True)
def workdir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    clear_environment(monkeypatch)
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture
def sqlite_db(template_db: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the bundled catalogue's database, which the settings name."""
    path = workdir / "laurel.db"
    shutil.copy(template_db, path)
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(path))
    return path


def on_postgresql(monkeypatch: pytest.MonkeyPatch, url: str) -> None:
    monkeypatch.setenv("LAUREL_DATABASE__URL", url)


def tables(path: Path) -> int:
    """How many tables of the schema the SQLite database at `path` has (12 after 0005)."""
    with closing(sqlite3.connect(path, factory=SqliteConnection)) as conn:
        return len(sqlite_tables(conn))


def lines(result: Result) -> list[str]:
    return result.out.splitlines()


def test_copy_moves_every_table_and_verifies_it(
    sqlite_db: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    result = run(capsys, "db", "copy", "--to", postgres_url)
    assert (result.code, result.err) == (0, "")
    assert lines(result)[0].startswith("copied ")
    assert lines(result)[-1].startswith(f"all {tables(sqlite_db)} tables equal (")
    table = {line.split()[0]: line.split() for line in lines(result)[2:-1]}
    assert table["papers"][1] == table["papers"][2]  # rows on both sides
    assert table["papers"][-1] == "same"
    with psycopg.connect(postgres_url) as conn:
        papers = conn.execute("SELECT count(*) FROM papers").fetchone()
    assert papers is not None
    assert str(papers[0]) == table["papers"][1]


def test_a_second_copy_is_refused_in_one_line(
    sqlite_db: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "db", "copy", "--to", postgres_url).code == 0
    again = run(capsys, "db", "copy", "--to", postgres_url)
    assert again.code == 1
    assert again.out == ""
    assert again.err.count("\n") == 1
    assert "is not empty (rows in audit, bot_state, papers" in again.err
    assert "copies only into an empty database" in again.err


@pytest.mark.parametrize(
    "url",
    ["sqlite:///elsewhere.db", "mysql://laurel@db/laurel", "elsewhere.db"],
)
def test_copy_refuses_a_target_that_is_not_postgresql(
    sqlite_db: Path, url: str, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    result = run(capsys, "db", "copy", "--to", url)
    assert result.code == 1
    assert result.err.startswith("laurel: laurel db copy --to: not a postgresql:// URL")
    assert result.err.count("\n") == 1
    assert not (workdir / "elsewhere.db").exists()


def test_copy_refuses_a_source_that_is_not_sqlite(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    on_postgresql(monkeypatch, postgres_url)
    result = run(capsys, "db", "copy", "--to", postgres_url)
    assert result.code == 1
    assert "laurel db copy copies a SQLite database" in result.err


def test_check_against_the_sqlite_original_names_a_changed_table(
    sqlite_db: Path,
    postgres_url: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(capsys, "db", "copy", "--to", postgres_url).code == 0
    on_postgresql(monkeypatch, postgres_url)
    same = run(capsys, "db", "check", "--against", f"sqlite:///{sqlite_db}")
    assert same.code == 0, same.out + same.err
    assert f"all {tables(sqlite_db)} tables equal" in same.out

    with psycopg.connect(postgres_url) as conn:  # someone edits PostgreSQL by hand
        conn.execute("UPDATE venues SET name = name || '!' WHERE key = 'icml'")
    changed = run(capsys, "db", "check", "--against", f"sqlite:///{sqlite_db}")
    assert changed.code == 1
    assert "mismatch: venues: 20 rows on both sides, but their contents differ" in changed.out
    assert [line for line in lines(changed) if line.startswith("mismatch:")] == [
        "mismatch: venues: 20 rows on both sides, but their contents differ"
    ]
    assert f"1 of {tables(sqlite_db)} tables differ" in changed.out


def test_check_works_on_postgresql(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    on_postgresql(monkeypatch, postgres_url)
    result = run(capsys, "db", "check")
    assert result.code == 0, result.out + result.err
    version, latest = lines(result)[-1].split("schema ")[1].split(",")[0].split("/")
    assert version == latest
    assert lines(result)[-1].endswith(", 0 problem(s)")


def _with_password(url: str) -> str:
    return url.replace("postgres:@", f"postgres:{SECRET}@")


def test_backup_on_postgresql_points_at_pg_dump(
    postgres_url: str,
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    on_postgresql(monkeypatch, _with_password(postgres_url))
    capsys.readouterr()
    code = main_on(["db", "backup"], ManualClock(dt.datetime(2026, 12, 1, 10, tzinfo=dt.UTC)))
    captured = capsys.readouterr()
    assert code == 1
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert "pg_dump --format=custom --file=laurel-20261201T100000Z.dump" in captured.err
    assert SECRET not in captured.err
    assert list(workdir.iterdir()) == []  # no file, no backup folder


def test_restore_on_postgresql_points_at_pg_restore(
    postgres_url: str,
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (workdir / "old.db").write_bytes(b"")
    on_postgresql(monkeypatch, _with_password(postgres_url))
    result = run(capsys, "db", "restore", "old.db", "--yes")
    assert result.code == 1
    assert "pg_restore --clean --if-exists" in result.err
    assert SECRET not in result.err
    assert result.err.count("\n") == 1


def test_check_against_needs_a_sqlite_side_and_a_url_it_knows(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    on_postgresql(monkeypatch, postgres_url)
    both = run(capsys, "db", "check", "--against", postgres_url)
    assert both.code == 1
    assert both.err.startswith("laurel: laurel db check --against needs a SQLite database")
    assert both.err.count("\n") == 1
    unknown = run(capsys, "db", "check", "--against", f"mysql://laurel:{SECRET}@db/laurel")
    assert unknown.code == 1
    assert "is neither sqlite:///path nor postgresql://" in unknown.err
    assert SECRET not in unknown.err
    assert unknown.err.count("\n") == 1
