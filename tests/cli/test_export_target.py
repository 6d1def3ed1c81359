"""`laurel export PATH`: never over the database or its files, never over a file unasked, all of
the file or none of it, and a consistent catalogue while a bot writes beside it."""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.cli import main
from bot.domain.clock import SystemClock
from bot.store.catalog.repository import CatalogRepository
from bot.store.lock import InstanceLock
from tests.support.backends import open_sqlite


@pytest.fixture
def workdir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for name in list(os.environ):
        if name.startswith("LAUREL_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    (tmp_path / "data").mkdir()
    monkeypatch.chdir(tmp_path / "data")
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(tmp_path / "data" / "laurel.db"))
    return tmp_path


@pytest.fixture
def database(template_db: Path, workdir: Path) -> Path:
    path = workdir / "data" / "laurel.db"
    shutil.copyfile(template_db, path)
    # A running bot's files: its -wal and -shm (made by opening it), and its lock file.
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("UPDATE venues SET full_name = full_name")
    conn.commit()
    conn.close()
    Path(f"{path}-wal").touch()
    Path(f"{path}-shm").touch()
    Path(f"{path}.lock").write_text("12345")
    return path


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _names_of_the_database(database: Path, workdir: Path) -> dict[str, Path]:
    """Every way this test knows to name the database, or one of its files."""
    links = workdir / "links"
    links.mkdir()
    (links / "db-link.toml").symlink_to(database)
    (links / "wal-link.toml").symlink_to(f"{database}-wal")
    (links / "journal-link.toml").symlink_to(f"{database}-journal")  # dangling: made later
    (links / "folder").symlink_to(database.parent, target_is_directory=True)
    os.link(database, links / "hard-link.db")
    return {
        "absolute": database,
        "relative": Path(database.name),
        "dot-dot": Path("..") / "data" / database.name,
        "-wal": Path(f"{database}-wal"),
        "-shm": Path(f"{database}-shm"),
        "-journal": Path(f"{database}-journal"),
        "lock file": Path(f"{database}.lock"),
        "symlink": links / "db-link.toml",
        "symlink to -wal": links / "wal-link.toml",
        "dangling symlink to -journal": links / "journal-link.toml",
        "symlinked folder": links / "folder" / database.name,
        "hard link": links / "hard-link.db",
    }


@pytest.mark.parametrize("force", [[], ["--force"]], ids=["plain", "force"])
def test_export_refuses_every_name_of_the_database_and_its_files(
    database: Path, workdir: Path, capsys: pytest.CaptureFixture[str], force: list[str]
) -> None:
    names = _names_of_the_database(database, workdir)
    before = _files(database.parent)
    for how, target in names.items():
        capsys.readouterr()
        assert main(["export", str(target), *force]) == 1, how
        err = capsys.readouterr().err
        assert err.count("\n") == 1, (how, err)
        assert "is the database" in err, (how, err)
        assert _files(database.parent) == before, how
    assert not [p for p in (workdir / "links").iterdir() if ".partial" in p.name]
    assert main(["db", "check"]) == 0


def test_export_refuses_an_existing_file_unless_forced(
    database: Path, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = workdir / "catalog.toml"
    target.write_text("someone's notes\n")

    assert main(["export", str(target)]) == 1
    err = capsys.readouterr().err
    assert "exists" in err
    assert "--force" in err
    assert target.read_text() == "someone's notes\n"

    assert main(["export", str(target), "--force"]) == 0
    assert "[[awards]]" in target.read_text(encoding="utf-8")
    assert sorted(p.name for p in workdir.iterdir()) == ["catalog.toml", "data"]


def test_export_to_a_new_file_leaves_nothing_else_and_a_failed_one_leaves_nothing(
    database: Path, workdir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["export", str(workdir / "new.csv")]) == 0
    assert sorted(p.name for p in workdir.iterdir()) == ["data", "new.csv"]
    os.umask(old := os.umask(0o022))
    assert (workdir / "new.csv").stat().st_mode & 0o777 == 0o666 & ~old

    assert main(["export", str(workdir / "missing-folder" / "new.toml")]) == 1
    assert "cannot be written" in capsys.readouterr().err
    assert sorted(p.name for p in workdir.iterdir()) == ["data", "new.csv"]


def test_export_runs_beside_a_bot_holding_the_lock_and_a_write(
    database: Path, workdir: Path
) -> None:
    writer = sqlite3.connect(database, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")  # the bot is in the middle of a write
        writer.execute("UPDATE venues SET name = 'Mid-Write' WHERE key = 'icml'")
        with InstanceLock(database):
            assert main(["export", str(workdir / "live.toml")]) == 0
        writer.execute("ROLLBACK")
    finally:
        writer.close()
    text = (workdir / "live.toml").read_text(encoding="utf-8")
    assert "Mid-Write" not in text
    assert 'name = "ICML"' in text


async def test_an_export_reads_one_moment_even_when_a_write_commits_midway(
    database: Path,
) -> None:
    """A bot's write that commits while the export is between its SELECTs is either wholly in
    the export or wholly out of it: here it lands during the first SELECT, so it is out."""

    def write_once() -> Callable[[], int]:
        done = False

        def handler() -> int:
            nonlocal done
            if not done:
                done = True
                other = sqlite3.connect(database, isolation_level=None)
                other.execute("BEGIN IMMEDIATE")
                other.execute("UPDATE venues SET name = 'Renamed' WHERE key = 'icml'")
                # Larger than any bundled edition's accepted papers (ICML 2026: 6,352), so the
                # CHECK accepted <= submissions holds.
                other.execute("UPDATE editions SET submissions = 42424 WHERE venue = 'icml'")
                other.execute(
                    "UPDATE papers SET title = 'Retitled' WHERE id = (SELECT min(id) FROM papers)"
                )
                other.execute("COMMIT")
                other.close()
            return 0

        return handler

    async with await open_sqlite(database, create=False) as db:
        await db.snapshot(lambda conn: conn.set_progress_handler(write_once(), 50))
        batch = await CatalogRepository(db, SystemClock()).export()
        await db.snapshot(lambda conn: conn.set_progress_handler(None, 0))
        after = await CatalogRepository(db, SystemClock()).export()

    def seen(b: object) -> tuple[bool, bool, bool]:
        text = repr(b)
        return "Renamed" in text, "42424" in text, "Retitled" in text

    assert seen(after) == (True, True, True)  # the write did happen
    assert seen(batch) == (False, False, False)


def test_export_refuses_the_database_a_sqlite_url_names(
    database: Path,
    workdir: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # [database] url wins over path: the file it names is the database to keep safe.
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(workdir / "elsewhere.db"))
    monkeypatch.setenv("LAUREL_DATABASE__URL", f"sqlite:///{database}")
    before = database.read_bytes()
    assert main(["export", str(database), "--force"]) == 1
    assert "is the database" in capsys.readouterr().err
    assert database.read_bytes() == before
