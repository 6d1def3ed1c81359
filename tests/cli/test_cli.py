"""The `laurel` command line, run in-process against real SQLite files in a temporary folder."""

from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main, main_on
from bot.store import migrations
from tests.support.cli_runs import (
    clear_environment,
    run,
)
from tests.support.clock import ManualClock

VENUES = ("ICML", "NeurIPS", "ICLR", "AAAI", "IJCAI")
GOOD_TITLE = "A Paper That Only This Test Has Heard Of"

MIXED = f"""
[[awards]]
venue = "icml"
year = 2025
name = "Outstanding Paper Award"
kind = "outstanding"
paper = {{ title = "{GOOD_TITLE}", authors = ["Ada Lovelace"] }}

[[awards]]
venue = "icml"
year = 2025
name = "Outstanding Paper Award"
kind = "outstanding"
paper = {{ title = "A Scripted Link", links = {{ code = "javascript:alert(1)" }} }}

[[awards]]
venue = "nowhere"
year = 2025
name = "Best Paper Award"
kind = "best"
paper = {{ title = "A Paper From Nowhere" }}
"""


@pytest.fixture(autouse=True)
def workdir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty working folder, no outside LAUREL_* settings, the database in the folder."""
    clear_environment(monkeypatch)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(tmp_path / "laurel.db"))
    return tmp_path


@pytest.fixture
def db_path(workdir: Path) -> Path:
    return workdir / "laurel.db"


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database made by `laurel db init` once, for the tests that only need one to exist."""
    folder = tmp_path_factory.mktemp("template")
    with pytest.MonkeyPatch.context() as patch:
        clear_environment(patch)
        patch.chdir(folder)
        patch.setenv("LAUREL_DATABASE__PATH", str(folder / "laurel.db"))
        assert main(["db", "init"]) == 0
    return folder / "laurel.db"


@pytest.fixture
def initialized(template: Path, db_path: Path) -> Path:
    shutil.copyfile(template, db_path)
    return db_path


def scalar(db: Path, sql: str, *params: Any) -> Any:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute(sql, params).fetchone()[0]


def audit_rows(db: Path) -> int:
    return int(scalar(db, "SELECT count(*) FROM audit"))


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def future_database(path: Path) -> bytes:
    """A database stamped with a schema version no Laurel knows yet; returns its bytes."""
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE future (x)")
        conn.execute("PRAGMA user_version = 999")
        conn.commit()
    return path.read_bytes()


def coverage_rows(stats_output: str) -> dict[tuple[str, int], int]:
    """(venue, year) -> awards, from the table `laurel stats` prints."""
    lines = stats_output.strip().splitlines()
    assert lines[0].split()[:3] == ["venue", "year", "awards"]
    rows = {}
    end = next(i for i, line in enumerate(lines) if line.split()[1:2] == ["venues,"])
    for line in lines[1:end]:
        venue, year, awards, *_ = line.split()
        rows[(venue, int(year))] = int(awards)
    return rows


# -- the entry point ------------------------------------------------------------------------


def test_python_dash_m_bot_runs_the_command_line(workdir: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: laurel")
    for command in ("db", "import", "export", "stats"):
        assert command in done.stdout
    assert listing(workdir) == []


# -- db init, stats, check ------------------------------------------------------------------


def test_init_loads_the_2025_awards_of_every_venue(
    capsys: pytest.CaptureFixture[str], db_path: Path
) -> None:
    init = run(capsys, "db", "init")
    assert init.code == 0, init.err
    assert "add:" in init.out

    stats = run(capsys, "stats")

    assert stats.code == 0, stats.err
    rows = coverage_rows(stats.out)
    for venue in VENUES:
        assert rows.get((venue, 2025), 0) > 0, f"{venue} 2025 has no awards"
    total = scalar(db_path, "SELECT count(*) FROM awards")
    assert sum(rows.values()) == total
    totals = [line for line in stats.out.splitlines() if " venues, " in line]
    assert totals == [totals[0]]
    assert totals[0].endswith(f"{total} awards")
    # Coverage per field (issue 23), counted from the store: the same papers as the totals.
    papers = scalar(db_path, "SELECT count(*) FROM papers")
    lines = stats.out.split("coverage per field:\n", 1)[1].splitlines()
    fields = {line[:32].strip(): line[32:].split() for line in lines}
    with_area = scalar(db_path, "SELECT count(*) FROM papers WHERE area IS NOT NULL")
    assert fields["research area"][:3] == [str(with_area), "of", str(papers)]
    summarised = scalar(db_path, "SELECT count(*) FROM papers WHERE summaries LIKE '%\"zh-TW\"%'")
    assert fields["summary (zh-TW)"][0] == str(summarised)
    assert {"summary source (en)", "code link", "authors known", "affiliations"} <= set(fields)


def test_init_twice_changes_nothing_the_second_time(
    capsys: pytest.CaptureFixture[str], initialized: Path
) -> None:
    before = audit_rows(initialized)

    again = run(capsys, "db", "init")

    assert again.code == 0, again.err
    assert "unchanged:" in again.out
    for action in ("add:", "change:", "merge:"):
        assert action not in again.out
    assert audit_rows(initialized) == before


def test_init_uses_the_database_named_in_the_config_file(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, workdir: Path
) -> None:
    monkeypatch.delenv("LAUREL_DATABASE__PATH")
    (workdir / "custom.toml").write_text('[database]\npath = "data/from-config.db"\n')

    result = run(capsys, "--config", "custom.toml", "db", "init")

    assert result.code == 0, result.err
    assert scalar(workdir / "data" / "from-config.db", "SELECT count(*) FROM awards") > 0
    assert not (workdir / "laurel.db").exists()


def test_check_passes_on_a_good_database(
    capsys: pytest.CaptureFixture[str], initialized: Path
) -> None:
    latest = migrations.available()[-1].version

    result = run(capsys, "db", "check")

    assert result.code == 0, result.err
    assert f"schema {latest}/{latest}, 0 problem(s)" in result.out
    # What is still unknown and where sources disagree, for curators (issue 24).
    assert "not yet known" in result.out
    assert "editions have figures" in result.out
    assert "sources disagree:" in result.out


def test_check_refuses_a_file_that_is_not_sqlite(
    capsys: pytest.CaptureFixture[str], db_path: Path, workdir: Path
) -> None:
    garbage = b"this is a shopping list, not a database\n" * 200
    db_path.write_bytes(garbage)

    result = run(capsys, "db", "check")

    assert result.code == 1
    assert "laurel.db is not a usable SQLite database" in result.err
    assert db_path.read_bytes() == garbage
    assert listing(workdir) == ["laurel.db"]  # no -wal or -shm beside it either


# -- databases that are missing or too new --------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["db", "migrate"],
        ["db", "check"],
        ["db", "backup"],
        ["db", "backup", "copy.db"],
        ["stats"],
        ["export", "out.toml"],
        ["import", "catalogue.toml"],
    ],
    ids=" ".join,
)
def test_a_missing_database_is_not_created(
    capsys: pytest.CaptureFixture[str], workdir: Path, argv: list[str]
) -> None:
    result = run(capsys, *argv)

    assert result.code == 1
    assert "laurel db init" in result.err
    assert listing(workdir) == []


@pytest.mark.parametrize(
    "argv",
    [
        ["db", "init"],
        ["db", "migrate"],
        ["db", "check"],
        ["db", "backup", "copy.db"],
        ["stats"],
        ["export", "out.toml"],
    ],
    ids=" ".join,
)
def test_a_database_from_a_newer_laurel_is_refused_and_left_alone(
    capsys: pytest.CaptureFixture[str], db_path: Path, workdir: Path, argv: list[str]
) -> None:
    original = future_database(db_path)

    result = run(capsys, *argv)

    assert result.code == 1
    assert "schema version 999, newer than this Laurel knows" in result.err
    assert db_path.read_bytes() == original
    assert listing(workdir) == ["laurel.db"]


# -- db backup ------------------------------------------------------------------------------


def test_backup_writes_a_checked_copy(
    capsys: pytest.CaptureFixture[str], initialized: Path, workdir: Path
) -> None:
    papers = scalar(initialized, "SELECT count(*) FROM papers")
    assert papers > 0

    result = run(capsys, "db", "backup", "copies/copy.db")

    assert result.code == 0, result.err
    copy = workdir / "copies" / "copy.db"
    assert scalar(copy, "PRAGMA integrity_check") == "ok"
    assert scalar(copy, "SELECT count(*) FROM papers") == papers
    assert listing(copy.parent) == ["copy.db"]  # no .partial left behind


def test_backup_without_a_path_writes_into_the_backup_folder(
    capsys: pytest.CaptureFixture[str], initialized: Path, workdir: Path
) -> None:
    result = run(capsys, "db", "backup")

    assert result.code == 0, result.err
    (copy,) = (workdir / "backups").iterdir()
    assert copy.name.startswith("laurel-")
    assert copy.suffix == ".db"
    assert scalar(copy, "SELECT count(*) FROM awards") == scalar(
        initialized, "SELECT count(*) FROM awards"
    )


def test_the_backups_name_is_stamped_by_the_command_lines_clock(
    capsys: pytest.CaptureFixture[str], initialized: Path, workdir: Path
) -> None:
    clock = ManualClock(dt.datetime(2026, 3, 2, 9, 30, 5, tzinfo=dt.UTC))
    assert main_on(["db", "backup"], clock) == 0
    assert listing(workdir / "backups") == ["laurel-20260302T093005Z.db"]


# -- export and import ----------------------------------------------------------------------


@pytest.fixture
def exported(capsys: pytest.CaptureFixture[str], initialized: Path, workdir: Path) -> Path:
    result = run(capsys, "export", "out.toml")
    assert result.code == 0, result.err
    awards = scalar(initialized, "SELECT count(*) FROM awards")
    assert f"and {awards} awards to out.toml" in result.out
    return workdir / "out.toml"


def assert_all_unchanged(output: str) -> None:
    assert "unchanged:" in output
    assert "rejected: 0" in output
    for action in ("add:", "change:", "merge:"):
        assert action not in output


def test_dry_run_of_an_export_reports_everything_unchanged(
    capsys: pytest.CaptureFixture[str], exported: Path, initialized: Path
) -> None:
    before = audit_rows(initialized)

    result = run(capsys, "import", str(exported), "--dry-run")

    assert result.code == 0, result.err
    assert_all_unchanged(result.out)
    assert "dry run: nothing was written" in result.out
    assert audit_rows(initialized) == before


def test_importing_an_export_changes_nothing(
    capsys: pytest.CaptureFixture[str], exported: Path, initialized: Path
) -> None:
    before = audit_rows(initialized)

    result = run(capsys, "import", str(exported))

    assert result.code == 0, result.err
    assert_all_unchanged(result.out)
    assert audit_rows(initialized) == before


@pytest.fixture
def mixed(workdir: Path) -> Path:
    path = workdir / "mixed.toml"
    path.write_text(MIXED, encoding="utf-8")
    return path


def has_good_paper(db: Path) -> bool:
    return bool(scalar(db, "SELECT count(*) FROM papers WHERE title = ?", GOOD_TITLE))


def assert_both_rejections_listed(output: str) -> None:
    rejects = [line for line in output.splitlines() if line.startswith("reject")]
    assert len(rejects) == 2, output
    assert any("awards[1]" in r and "only http and https links" in r for r in rejects)
    assert any("unknown venue 'nowhere'" in r for r in rejects)
    assert "rejected: 2" in output


def test_import_writes_the_good_records_and_lists_the_bad(
    capsys: pytest.CaptureFixture[str], mixed: Path, initialized: Path
) -> None:
    before = audit_rows(initialized)

    result = run(capsys, "import", "mixed.toml")

    assert result.code == 0, result.err
    assert_both_rejections_listed(result.out)
    assert has_good_paper(initialized)
    assert audit_rows(initialized) > before
    assert scalar(initialized, "SELECT count(*) FROM papers WHERE title LIKE '%Nowhere%'") == 0


def test_strict_import_writes_nothing_when_a_record_is_bad(
    capsys: pytest.CaptureFixture[str], mixed: Path, initialized: Path
) -> None:
    before = audit_rows(initialized)

    result = run(capsys, "import", "mixed.toml", "--strict")

    assert result.code == 1
    assert_both_rejections_listed(result.out)
    assert "strict: nothing written" in result.out
    assert not has_good_paper(initialized)
    assert audit_rows(initialized) == before


def test_dry_run_shows_what_would_change_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], mixed: Path, initialized: Path
) -> None:
    before = audit_rows(initialized)

    result = run(capsys, "import", "mixed.toml", "--dry-run")

    assert result.code == 0, result.err
    assert any(line.startswith("add") and GOOD_TITLE in line for line in result.out.splitlines()), (
        result.out
    )
    assert_both_rejections_listed(result.out)
    assert "dry run: nothing was written" in result.out
    assert not has_good_paper(initialized)
    assert audit_rows(initialized) == before


def test_an_unknown_suffix_asks_for_format(
    capsys: pytest.CaptureFixture[str], initialized: Path, workdir: Path
) -> None:
    (workdir / "awards.txt").write_text(MIXED, encoding="utf-8")

    result = run(capsys, "import", "awards.txt")

    assert result.code == 1
    assert "awards.txt" in result.err
    assert "--format" in result.err


def test_importing_a_missing_file_fails(
    capsys: pytest.CaptureFixture[str], initialized: Path
) -> None:
    before = audit_rows(initialized)

    result = run(capsys, "import", "missing.toml")

    assert result.code == 1
    assert "missing.toml: no such file" in result.err
    assert audit_rows(initialized) == before


def test_importing_invalid_toml_names_the_file_and_writes_nothing(
    capsys: pytest.CaptureFixture[str], initialized: Path, workdir: Path
) -> None:
    (workdir / "broken.toml").write_text('[[awards]\nvenue = "icml"\n', encoding="utf-8")
    before = audit_rows(initialized)

    result = run(capsys, "import", "broken.toml")

    assert result.code == 1
    assert "broken.toml: not valid TOML" in result.err
    assert audit_rows(initialized) == before


# -- settings -------------------------------------------------------------------------------


def test_an_invalid_setting_stops_the_command_and_is_named(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, workdir: Path
) -> None:
    monkeypatch.setenv("LAUREL_LOGGING__LEVEL", "LOUD")

    result = run(capsys, "db", "init")

    assert result.code == 1
    assert "logging.level" in result.err
    assert listing(workdir) == []
