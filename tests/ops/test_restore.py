"""`laurel db restore FILE`: checked before anything changes, refused beside a running bot, the
old database kept aside with its WAL, and the new one swapped in whole."""

from __future__ import annotations

import datetime as dt
import errno
import io
import os
import shutil
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.cli import main
from bot.errors import StoreError
from bot.store import migrations
from bot.store.backup_files import Restored, restore
from bot.store.lock import InstanceLock


@pytest.fixture
def workdir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for name in list(os.environ):
        if name.startswith("LAUREL_") or name == "DISCORD_TOKEN":
            monkeypatch.delenv(name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(tmp_path / "laurel.db"))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))  # no terminal, as under CI or cron
    return tmp_path


@pytest.fixture
def backup(template_db: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A backup as `laurel db backup` makes it, of a database with the bundled catalogue."""
    shutil.copyfile(template_db, workdir / "source.db")
    with monkeypatch.context() as patch:
        patch.setenv("LAUREL_DATABASE__PATH", str(workdir / "source.db"))
        assert main(["db", "backup", str(workdir / "laurel-20260301T120000Z.db")]) == 0
    return workdir / "laurel-20260301T120000Z.db"


def _papers(path: Path) -> int:
    with closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("SELECT count(*) FROM papers").fetchone()[0])


def _crashed_database(template_db: Path, target: Path, *, drop: int) -> None:
    """A database as a killed bot leaves it: its last writes only in the -wal beside it."""
    live = target.with_name("live.db")
    shutil.copyfile(template_db, live)
    conn = sqlite3.connect(live)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute("PRAGMA foreign_keys = OFF")
    conn.execute(f"DELETE FROM papers WHERE rowid IN (SELECT rowid FROM papers LIMIT {drop})")
    conn.commit()
    shutil.copyfile(live, target)
    shutil.copyfile(f"{live}-wal", f"{target}-wal")
    conn.close()
    live.unlink()


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_restore_replaces_the_database_and_keeps_the_old_one_with_its_wal(
    template_db: Path, workdir: Path, backup: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = workdir / "laurel.db"
    bundled = _papers(template_db)  # the bundled catalogue's papers, however many it holds
    _crashed_database(template_db, database, drop=5)
    assert _papers(database) == bundled - 5  # (reading it folds the -wal in; crash it again)
    _crashed_database(template_db, database, drop=5)
    assert main(["db", "restore", str(backup), "--yes"]) == 0
    out = capsys.readouterr().out
    version = migrations.available()[-1].version
    assert f"checked, schema version {version}, {bundled} papers" in out
    (aside,) = workdir.glob("laurel.db.before-restore-*")
    assert f"kept at {aside}" in out
    assert not Path(f"{database}-wal").exists()  # the old WAL was not left to replay
    assert _papers(database) == bundled
    assert _papers(aside) == bundled - 5  # the old database, its last writes included
    assert not list(workdir.glob("*.restoring"))
    assert main(["db", "check"]) == 0


def test_restore_into_an_empty_folder(template_db: Path, workdir: Path, backup: Path) -> None:
    assert main(["db", "restore", str(backup), "--yes"]) == 0
    assert _papers(workdir / "laurel.db") == _papers(template_db)
    assert not list(workdir.glob("laurel.db.before-restore-*"))


def test_restore_is_refused_while_a_bot_runs(
    template_db: Path, workdir: Path, backup: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copyfile(template_db, workdir / "laurel.db")
    before = _files(workdir)
    with InstanceLock(workdir / "laurel.db"):
        assert main(["db", "restore", str(backup), "--yes"]) == 1
    assert "already running" in capsys.readouterr().err
    assert _files(workdir) == before | {"laurel.db.lock": (workdir / "laurel.db.lock").read_bytes()}


def test_without_yes_and_without_a_terminal_nothing_changes(
    template_db: Path, workdir: Path, backup: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copyfile(template_db, workdir / "laurel.db")
    before = _files(workdir)
    assert main(["db", "restore", str(backup)]) == 1
    assert "without --yes" in capsys.readouterr().err
    assert {k: v for k, v in _files(workdir).items() if k != "laurel.db.lock"} == before


def _damaged(backup: Path) -> Path:
    data = bytearray(backup.read_bytes())
    page = 4096
    data[3 * page : 6 * page] = os.urandom(3 * page)  # table pages, not the header
    bad = backup.with_name("damaged.db")
    bad.write_bytes(bytes(data))
    return bad


def _newer(backup: Path) -> Path:
    newer = backup.with_name("newer.db")
    shutil.copyfile(backup, newer)
    with closing(sqlite3.connect(newer)) as conn:
        conn.execute("PRAGMA user_version = 999")
    return newer


def _foreign(backup: Path) -> Path:
    other = backup.with_name("other.db")
    with closing(sqlite3.connect(other)) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.commit()
    return other


def _text(backup: Path) -> Path:
    text = backup.with_name("notes.db")
    text.write_text("not a database\n" * 100)
    return text


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda b: b.with_name("missing.db"), "no backup file at"),
        (lambda b: b.parent, "no backup file at"),
        (_text, "is not a SQLite database"),
        (_foreign, "not one of Laurel's"),
        (_newer, "schema version 999, newer than this Laurel knows"),
        (_damaged, "damaged|cannot be read as a database"),
    ],
    ids=["missing", "a-folder", "text", "foreign", "newer", "damaged"],
)
def test_bad_backups_are_refused_before_anything_changes(
    make: object,
    message: str,
    template_db: Path,
    workdir: Path,
    backup: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    bad = make(backup)  # type: ignore[operator]
    shutil.copyfile(template_db, workdir / "laurel.db")
    before = _files(workdir)
    assert main(["db", "restore", str(bad), "--yes"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    assert line.startswith("laurel: ")
    assert any(m in line for m in message.split("|")), line
    after = {k: v for k, v in _files(workdir).items() if k != "laurel.db.lock"}
    assert after == before


# -- restoring from a WAL-mode file, leaving it as it was ----------------------------------------


WAL_TITLE = "A Title Written Only Into The WAL"


def _wal_only_write(template_db: Path, target: Path) -> None:
    """`target`: the template with one paper renamed, the change only in the -wal beside it."""
    live = target.with_name("live.db")
    shutil.copyfile(template_db, live)
    conn = sqlite3.connect(live)
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    conn.execute(
        "UPDATE papers SET title = ? WHERE id = (SELECT min(id) FROM papers)", (WAL_TITLE,)
    )
    conn.commit()
    shutil.copyfile(live, target)
    shutil.copyfile(f"{live}-wal", f"{target}-wal")
    conn.close()
    live.unlink()


def _has_wal_title(path: Path) -> bool:
    with closing(sqlite3.connect(path)) as conn:
        return bool(
            conn.execute("SELECT count(*) FROM papers WHERE title = ?", (WAL_TITLE,)).fetchone()[0]
        )


def _wal_sources(template_db: Path, folder: Path) -> dict[str, tuple[Path, bool]]:
    """WAL-mode files one may hand to restore, each in a folder of its own, and whether the
    restored database has the WAL's write: a plain `cp` of a live database (no -wal), and a
    database whose last write is still in its -wal (as a killed bot, or restore's own
    set-aside, leaves it)."""
    plain = folder / "plain" / "copy-of-live.db"
    plain.parent.mkdir()
    shutil.copyfile(template_db, plain)  # the template was made by open_database: WAL mode
    with_wal = folder / "with-wal" / "crashed.db"
    with_wal.parent.mkdir()
    _wal_only_write(template_db, with_wal)
    return {"plain copy": (plain, False), "with its -wal": (with_wal, True)}


def _snapshot(folder: Path) -> tuple[list[str], dict[str, bytes], dict[str, int]]:
    files = sorted(folder.iterdir())
    return (
        [p.name for p in files],
        {p.name: p.read_bytes() for p in files},
        {p.name: p.stat().st_mtime_ns for p in files},
    )


def test_restore_works_from_a_wal_mode_file_and_leaves_it_untouched(
    template_db: Path, workdir: Path
) -> None:
    with closing(sqlite3.connect(template_db)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    for how, (source, has_write) in _wal_sources(template_db, workdir).items():
        before = _snapshot(source.parent)
        assert main(["db", "restore", str(source), "--yes"]) == 0, how
        assert _snapshot(source.parent) == before, how  # no -wal/-shm made, no byte changed
        assert _papers(workdir / "laurel.db") == _papers(template_db), how
        assert _has_wal_title(workdir / "laurel.db") == has_write, how
        assert not Path(f"{workdir / 'laurel.db'}-wal").exists(), how
        assert not list(workdir.glob("*.restoring*")), how
        assert main(["db", "check"]) == 0, how


def test_restore_works_from_the_copy_it_kept_aside_itself(
    template_db: Path, workdir: Path, backup: Path
) -> None:
    database = workdir / "laurel.db"
    _wal_only_write(template_db, database)
    assert main(["db", "restore", str(backup), "--yes"]) == 0
    (aside,) = workdir.glob("laurel.db.before-restore-*")
    assert not _has_wal_title(database)
    listing = sorted(p.name for p in workdir.iterdir())
    own = [Path(f"{aside}{suffix}") for suffix in ("", "-wal", "-shm")]
    aside_files = {p.name: p.read_bytes() for p in own if p.exists()}

    assert main(["db", "restore", str(aside), "--yes"]) == 0

    assert _has_wal_title(database)  # the database as it was before the first restore
    assert {p.name: p.read_bytes() for p in own if p.exists()} == aside_files
    assert {p.name for p in workdir.iterdir()} - set(listing) <= {
        p.name for p in workdir.glob("laurel.db.before-restore-*")
    }


def test_two_restores_in_the_same_second_keep_both_old_databases(
    template_db: Path, workdir: Path, backup: Path
) -> None:
    database = workdir / "laurel.db"
    _wal_only_write(template_db, database)
    now = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
    first = restore(backup, database, confirm=lambda *_: True, now=now)
    second = restore(backup, database, confirm=lambda *_: True, now=now)

    assert first is not None
    assert second is not None
    assert first.kept_aside is not None
    assert second.kept_aside is not None
    assert first.kept_aside != second.kept_aside
    assert _has_wal_title(first.kept_aside)
    assert not _has_wal_title(second.kept_aside)
    # Numbered from 2, one up each time: the name says which came first.
    assert second.kept_aside.name == f"{first.kept_aside.name}-2"
    third = restore(backup, database, confirm=lambda *_: True, now=now)
    assert third is not None
    assert third.kept_aside is not None
    assert third.kept_aside.name == f"{first.kept_aside.name}-3"


# -- restore() itself (survivors of mutation testing: docs/mutation.md) ------------------------
def test_restore_reports_what_it_checked_and_asks_with_the_same_numbers(
    workdir: Path, backup: Path
) -> None:
    asked: list[tuple[int, int]] = []

    def confirm(version: int, papers: int) -> bool:
        asked.append((version, papers))
        return True

    now = dt.datetime(2026, 3, 2, tzinfo=dt.UTC)
    in_backup = _papers(backup)
    done = restore(backup, workdir / "laurel.db", confirm=confirm, now=now)
    latest = migrations.available()[-1].version
    assert done == Restored(schema_version=latest, papers=in_backup, kept_aside=None)
    assert asked == [(latest, in_backup)]
    assert _papers(workdir / "laurel.db") == in_backup


def test_restoring_the_database_onto_itself_is_refused_saying_so(workdir: Path) -> None:
    database = workdir / "laurel.db"
    sqlite3.connect(database).close()
    now = dt.datetime(2026, 3, 2, tzinfo=dt.UTC)
    with pytest.raises(StoreError, match=r"laurel\.db is the database itself; name a backup of it"):
        restore(database, database, confirm=lambda v, p: True, now=now)


def test_a_backup_that_cannot_be_copied_is_refused_saying_why(
    backup: Path, workdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def disk_full(source: object, target: object) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(shutil, "copyfile", disk_full)
    before = _files(workdir)
    now = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
    with pytest.raises(StoreError) as refused:
        restore(backup, workdir / "laurel.db", confirm=lambda v, p: True, now=now)
    assert str(refused.value) == (
        f"{backup} cannot be copied beside the database: {os.strerror(errno.ENOSPC)}"
    )
    after = {name: data for name, data in _files(workdir).items() if name != "laurel.db.lock"}
    assert after == before  # no database, nothing staged


def test_a_backup_with_broken_links_is_refused_naming_the_first_three(
    backup: Path, workdir: Path
) -> None:
    broken = backup.with_name("broken.db")
    shutil.copyfile(backup, broken)
    with closing(sqlite3.connect(broken)) as conn:  # foreign keys are not enforced here
        conn.executemany(
            "INSERT INTO digest_ledger (id, subscription_id, period, status, theme, nonce,"
            " reserved_at) VALUES (?, 9, ?, 'sent', 'paper-of-the-day', ?, '2026-03-01')",
            [(n, f"2026-03-0{n}", f"nonce-{n}") for n in range(1, 5)],
        )
        conn.commit()
    now = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
    with pytest.raises(StoreError) as refused:
        restore(broken, workdir / "laurel.db", confirm=lambda v, p: True, now=now)
    problems = [f"digest_ledger row {n} points to a missing subscriptions" for n in (1, 2, 3)]
    assert str(refused.value) == f"{broken} is damaged: {'; '.join(problems)}"


def test_a_crashed_restores_leftover_wal_is_not_replayed_into_the_next(
    template_db: Path, workdir: Path
) -> None:
    # A WAL-mode backup (a copy of a live database), and beside the database the -wal a
    # crashed restore left for its staged copy, holding writes made on top of that backup.
    _crashed_database(template_db, workdir / "copy-of-live.db", drop=5)
    Path(workdir / "copy-of-live.db-wal").replace(workdir / "laurel.db.restoring-wal")
    now = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
    done = restore(
        workdir / "copy-of-live.db", workdir / "laurel.db", confirm=lambda v, p: True, now=now
    )
    assert done is not None
    assert done.papers == _papers(template_db)
    assert _papers(workdir / "laurel.db") == _papers(template_db)


def test_a_database_too_damaged_to_checkpoint_is_kept_aside_with_its_sidecars(
    workdir: Path, backup: Path
) -> None:
    database = workdir / "laurel.db"
    database.write_bytes(b"not a database\n" * 100)
    # Sidecars SQLite leaves where they are when it cannot open the file (it deletes a -wal
    # with frames in it).
    Path(f"{database}-wal").write_bytes(b"")
    Path(f"{database}-shm").write_bytes(b"its index")
    now = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
    done = restore(backup, database, confirm=lambda v, p: True, now=now)
    assert done is not None
    assert done.kept_aside is not None
    assert Path(f"{done.kept_aside}-wal").exists()
    assert Path(f"{done.kept_aside}-shm").read_bytes() == b"its index"
    assert not Path(f"{database}-wal").exists()  # not read with the restored database
    assert not Path(f"{database}-shm").exists()
    assert _papers(database) == done.papers
