"""The scheduler glue: one tick job, replaced by id, in an explicit zone, with hours of grace."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger
from pydantic import ValidationError

from bot.digests.tick_job import TICK_JOB, TickJob
from bot.settings import DigestSettings
from tests.support.digests import Rig, make_engine


def job_on(rig: Rig, scheduler: AsyncIOScheduler, tick_seconds: int) -> TickJob:
    settings = DigestSettings(tick_seconds=tick_seconds)
    return make_engine(
        rig.db, rig.clock, rig.deliverer, rig.metrics, settings, scheduler=scheduler
    ).job


async def test_installing_twice_keeps_one_job_and_waking_moves_it_to_now(rig: Rig) -> None:
    scheduler = AsyncIOScheduler(timezone="UTC")
    job = job_on(rig, scheduler, tick_seconds=60)
    job.install()
    scheduler.start(paused=True)
    try:
        job.install()  # a second setup_hook
        job_on(rig, scheduler, tick_seconds=60).install()  # or a second engine
        (installed,) = scheduler.get_jobs()
        assert installed.id == TICK_JOB
        assert isinstance(installed.trigger, CronTrigger)
        assert installed.trigger.timezone == ZoneInfo("UTC")
        assert installed.coalesce is True
        assert installed.misfire_grace_time >= 3600
        assert installed.max_instances == 1
        job.wake()
        job.wake()  # on_ready again
        (installed,) = scheduler.get_jobs()
        # Moved to now on the scheduler's own (system) clock, not the engine's manual one.
        assert installed.next_run_time is not None
        assert abs(installed.next_run_time - dt.datetime.now(dt.UTC)) < dt.timedelta(seconds=30)
    finally:
        scheduler.shutdown(wait=False)


def test_the_tick_divides_a_minute() -> None:
    assert DigestSettings(tick_seconds=15).tick_seconds == 15
    with pytest.raises(ValidationError, match="divide 60"):
        DigestSettings(tick_seconds=7)
