"""Scheduled backups: names, retention of only our own files, the first run, the job itself."""

from __future__ import annotations

import datetime as dt
import os
import sqlite3
import time
from pathlib import Path

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.backups import JOB_ID, START_DELAY, BackupJob, schedule_backups
from bot.observability.metrics import Metrics
from bot.settings import BackupSettings, DatabaseSettings, Settings
from bot.store.backup_files import backup_name, made_by_laurel, prune
from bot.store.sqlite import SqliteDatabase
from tests.support.clock import ManualClock

NOON = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


def _touch(folder: Path, name: str, *, age: dt.timedelta = dt.timedelta(0)) -> Path:
    """A file in `folder` last written `age` before NOON (the tests' "now")."""
    path = folder / name
    path.write_bytes(b"x")
    when = (NOON - age).timestamp()
    os.utime(path, (when, when))
    return path


def test_prune_keeps_the_newest_and_touches_nothing_it_did_not_make(tmp_path: Path) -> None:
    ours = [_touch(tmp_path, backup_name(NOON + dt.timedelta(hours=h))) for h in range(5)]
    strangers = [
        _touch(tmp_path, name)
        for name in (
            "laurel-20200101T000000Z.db.keep",  # close, but not our name
            "laurel-2020-01-01.db",
            "mine.db",
            "laurel-20200101T000000Z.DB",
        )
    ]
    stale = _touch(tmp_path, "laurel-20200101T000000Z.db.partial", age=dt.timedelta(hours=2))
    fresh = _touch(tmp_path, "laurel-20200101T000001Z.db.partial")  # a backup still running
    removed = prune(tmp_path, keep=2, now=NOON)
    assert sorted(removed) == sorted([*ours[:3], stale])
    assert [p for _, p in made_by_laurel(tmp_path)] == ours[3:]
    assert all(p.exists() for p in [*strangers, fresh])


async def test_the_job_backs_up_a_usable_copy_and_prunes(
    db: SqliteDatabase, tmp_path: Path
) -> None:
    clock, metrics = ManualClock(NOON), Metrics()
    job = BackupJob(db, tmp_path / "backups", keep=2, metrics=metrics, clock=clock)
    made = []
    for hour in range(3):
        clock.set(NOON + dt.timedelta(hours=hour))
        path = await job.run()
        assert path is not None
        made.append(path)
    assert [p for _, p in made_by_laurel(tmp_path / "backups")] == made[1:]
    assert sorted(p.name for p in (tmp_path / "backups").iterdir()) == [p.name for p in made[1:]]
    with sqlite3.connect(db.path) as live:
        papers = live.execute("SELECT count(*) FROM papers").fetchone()[0]
    assert papers > 0
    with sqlite3.connect(made[-1]) as copy:  # one file: no -wal needed to read it
        assert copy.execute("SELECT count(*) FROM papers").fetchone()[0] == papers
        assert copy.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    assert metrics.registry.get_sample_value("laurel_backups_total", {"outcome": "ok"}) == 3
    assert metrics.registry.get_sample_value("laurel_last_backup_timestamp_seconds") == (
        clock.now().timestamp()
    )


async def test_a_failed_backup_is_counted_logged_and_leaves_no_file(
    db: SqliteDatabase, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    (folder / backup_name(NOON)).mkdir()  # the final rename cannot land: after all the copying
    metrics = Metrics()
    job = BackupJob(db, folder, keep=2, metrics=metrics, clock=ManualClock(NOON))
    assert await job.run() is None
    assert metrics.registry.get_sample_value("laurel_backups_total", {"outcome": "error"}) == 1
    assert metrics.registry.get_sample_value("laurel_backups_total", {"outcome": "ok"}) is None
    assert "scheduled backup into" in caplog.text
    assert [p.name for p in folder.iterdir()] == [backup_name(NOON)]  # no .partial left
    caplog.clear()


async def test_the_first_run_follows_the_newest_backup_not_the_restart(
    db: SqliteDatabase, tmp_path: Path
) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    day = dt.timedelta(hours=24)
    job = BackupJob(db, folder, keep=2, metrics=Metrics(), clock=ManualClock(NOON))
    assert job.first_run(day) == NOON + START_DELAY  # none yet: soon after start
    _touch(folder, backup_name(NOON - dt.timedelta(hours=20)))
    assert job.first_run(day) == NOON + dt.timedelta(hours=4)  # a day after the last one
    _touch(folder, backup_name(NOON - dt.timedelta(days=3)))  # older ones do not matter
    assert job.first_run(day) == NOON + dt.timedelta(hours=4)


async def test_scheduled_in_utc_at_the_interval_or_not_at_all(
    db: SqliteDatabase, tmp_path: Path
) -> None:
    settings = Settings(
        database=DatabaseSettings(path=db.path, backup_dir=tmp_path / "b"),
        backups=BackupSettings(interval_hours=6, keep=3),
    )
    scheduler = AsyncIOScheduler(timezone="UTC")
    job = schedule_backups(scheduler, db, settings, Metrics(), clock=ManualClock(NOON))
    assert job is not None
    assert job.keep == 3
    scheduled = scheduler.get_job(JOB_ID)
    assert scheduled.trigger.interval == dt.timedelta(hours=6)
    assert str(scheduled.trigger.timezone) == "UTC"
    assert scheduled.next_run_time == NOON + START_DELAY
    off = settings.model_copy(update={"backups": BackupSettings(enabled=False)})
    assert (
        schedule_backups(AsyncIOScheduler(timezone="UTC"), db, off, Metrics(), ManualClock())
        is None
    )


# -- the job's options (survivors of mutation testing: docs/mutation.md) -----------------------
async def test_a_scheduled_job_first_runs_an_interval_after_the_newest_backup(
    db: SqliteDatabase, tmp_path: Path
) -> None:
    settings = Settings(
        database=DatabaseSettings(path=db.path, backup_dir=tmp_path / "b"),
        backups=BackupSettings(interval_hours=6, keep=3),
    )
    (tmp_path / "b").mkdir()
    _touch(tmp_path / "b", backup_name(NOON - dt.timedelta(hours=2)))
    scheduler = AsyncIOScheduler(timezone="UTC")
    schedule_backups(scheduler, db, settings, Metrics(), clock=ManualClock(NOON))
    assert scheduler.get_job(JOB_ID).next_run_time == NOON + dt.timedelta(hours=4)


async def test_the_job_removes_a_partial_file_a_crash_left(
    db: SqliteDatabase, tmp_path: Path
) -> None:
    folder = tmp_path / "backups"
    folder.mkdir()
    stale = _touch(folder, "laurel-20200101T000000Z.db.partial", age=dt.timedelta(hours=2))
    job = BackupJob(db, folder, keep=2, metrics=Metrics(), clock=ManualClock(NOON))
    made = await job.run()
    assert made is not None
    assert sorted(folder.iterdir()) == [made]
    assert not stale.exists()


async def test_the_job_runs_once_at_a_time_catches_up_once_and_is_replaced_not_doubled(
    db: SqliteDatabase, tmp_path: Path
) -> None:
    settings = Settings(
        database=DatabaseSettings(path=db.path, backup_dir=tmp_path / "b"),
        backups=BackupSettings(interval_hours=6, keep=3),
    )
    scheduler = AsyncIOScheduler(timezone="UTC")
    metrics = Metrics()
    job = schedule_backups(scheduler, db, settings, metrics, clock=ManualClock(NOON))
    again = schedule_backups(scheduler, db, settings, metrics, clock=ManualClock(NOON))
    assert job is not None
    assert again is not None
    scheduler.start(paused=True)  # jobs land in the store (and replace) only once started
    try:
        (scheduled,) = scheduler.get_jobs()  # a second schedule replaced the first
    finally:
        scheduler.shutdown(wait=False)
    assert scheduled.id == JOB_ID
    assert scheduled.name == "database backup"
    assert (scheduled.max_instances, scheduled.coalesce) == (1, True)
    assert scheduled.misfire_grace_time == 6 * 3600
    assert scheduled.trigger.start_date == NOON + START_DELAY
    assert scheduled.trigger.start_date.utcoffset() == dt.timedelta(0)
    assert scheduled.func == again.run
    assert (again.db, again.metrics) == (db, metrics)


def test_backup_names_are_in_utc_wherever_the_bot_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Asia/Kathmandu")
    time.tzset()
    try:
        assert backup_name(NOON) == "laurel-20260301T120000Z.db"
        assert backup_name(NOON.astimezone(dt.timezone(dt.timedelta(hours=9)))) == (
            "laurel-20260301T120000Z.db"
        )
    finally:
        monkeypatch.undo()
        time.tzset()


def test_pruning_a_folder_that_does_not_exist_removes_nothing(tmp_path: Path) -> None:
    assert prune(tmp_path / "never-made", 2, NOON) == []
