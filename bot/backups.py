"""Scheduled online backups of the running bot's database, with retention.

The job is added in `LaurelBot.setup_hook` (once per process). Its first run follows the newest
backup already on disk, not the start of the process: a bot restarted every day with a daily
interval still backs up daily instead of never.
"""

from __future__ import annotations

import datetime as dt
import logging
from pathlib import Path

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.interval import IntervalTrigger

from bot.domain.clock import Clock
from bot.observability.metrics import Metrics
from bot.settings import Settings
from bot.store.backup_files import backup_name, made_by_laurel, prune
from bot.store.database import Database

log = logging.getLogger(__name__)

JOB_ID = "laurel-backup"
# Not in the first minute: the bot is still syncing commands and filling caches then.
START_DELAY = dt.timedelta(minutes=1)


class BackupJob:
    def __init__(
        self, db: Database, directory: Path, keep: int, metrics: Metrics, clock: Clock
    ) -> None:
        self.db = db
        self.directory = directory
        self.keep = keep
        self.metrics = metrics
        self.clock = clock

    async def run(self) -> Path | None:
        """Back up, then prune; a failure is logged and counted, and the next run tries again."""
        now = self.clock.now()
        try:
            path = await self.db.backup(self.directory / backup_name(now))
            removed = prune(self.directory, self.keep, now)
        except Exception:
            log.exception("scheduled backup into %s failed", self.directory)
            self.metrics.backup_done(False, at=now)
            return None
        self.metrics.backup_done(True, at=now)
        log.info("backed up to %s (%s old file(s) removed)", path, len(removed))
        return path

    def first_run(self, interval: dt.timedelta) -> dt.datetime:
        now = self.clock.now()
        backups = made_by_laurel(self.directory)
        due = backups[-1][0] + interval if backups else now
        return max(due, now + START_DELAY)


def schedule_backups(
    scheduler: AsyncIOScheduler,
    db: Database,
    settings: Settings,
    metrics: Metrics,
    clock: Clock,
) -> BackupJob | None:
    """Add the backup job to `scheduler` as [backups] asks; None when backups are off, and on
    PostgreSQL, whose backups are its own (pg_dump, or the server's continuous archiving)."""
    config = settings.backups
    if not config.enabled:
        return None
    if db.dialect == "postgresql":
        log.info("scheduled backups are SQLite's: on PostgreSQL, back up with pg_dump")
        return None
    job = BackupJob(db, settings.database.backup_dir, config.keep, metrics, clock)
    interval = dt.timedelta(hours=config.interval_hours)
    first = job.first_run(interval)
    scheduler.add_job(
        job.run,
        IntervalTrigger(seconds=interval.total_seconds(), start_date=first, timezone=dt.UTC),
        id=JOB_ID,
        name="database backup",
        replace_existing=True,
        max_instances=1,
        coalesce=True,  # after a long sleep, one backup, not one per missed interval
        misfire_grace_time=int(interval.total_seconds()),
        next_run_time=first,
    )
    return job
