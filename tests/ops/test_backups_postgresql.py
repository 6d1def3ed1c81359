"""On PostgreSQL the bot schedules no backups of its own (PostgreSQL's are pg_dump's), says so in
its log once, and leaves the backup folder alone (issue 15)."""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.backups import JOB_ID, schedule_backups
from bot.observability.metrics import Metrics
from bot.settings import BackupSettings, DatabaseSettings, Settings
from tests.support.backends import open_postgres
from tests.support.clock import ManualClock

NOON = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


async def test_no_backup_job_on_postgresql(
    postgres_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    where = DatabaseSettings(url=postgres_url, backup_dir=tmp_path / "backups")
    settings = Settings(database=where, backups=BackupSettings(interval_hours=6, keep=3))
    scheduler = AsyncIOScheduler(timezone="UTC")
    async with await open_postgres(postgres_url) as db:
        with caplog.at_level(logging.INFO, logger="bot.backups"):
            job = schedule_backups(scheduler, db, settings, Metrics(), ManualClock(NOON))
    assert job is None
    assert scheduler.get_job(JOB_ID) is None
    assert [r.getMessage() for r in caplog.records] == [
        "scheduled backups are SQLite's: on PostgreSQL, back up with pg_dump"
    ]
    assert not (tmp_path / "backups").exists()
