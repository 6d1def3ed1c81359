"""The scheduler glue: one tick job, replaced by id, in an explicit zone, with hours of grace."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger
from pydantic import ValidationError

from bot.digests.service import TICK_JOB, DigestService
from bot.render.i18n import Strings
from bot.settings import DigestSettings
from bot.store.editions import EditionRepository
from bot.store.papers import PaperRepository
from bot.store.subscriptions import SubscriptionRepository
from tests.digests.conftest import Rig


def service_on(rig: Rig, scheduler: AsyncIOScheduler, tick_seconds: int) -> DigestService:
    return DigestService(
        settings=DigestSettings(tick_seconds=tick_seconds),
        db=rig.db,
        subscriptions=SubscriptionRepository(rig.db),
        papers=PaperRepository(rig.db),
        editions=EditionRepository(rig.db),
        strings=Strings.load(),
        deliverer=rig.deliverer,
        scheduler=scheduler,
        clock=rig.clock,
    )


async def test_installing_twice_keeps_one_job_and_waking_moves_it_to_now(rig: Rig) -> None:
    scheduler = AsyncIOScheduler(timezone="UTC")
    service = service_on(rig, scheduler, tick_seconds=60)
    service.install()
    scheduler.start(paused=True)
    try:
        service.install()  # a second setup_hook
        service_on(rig, scheduler, tick_seconds=60).install()  # or a second service
        (job,) = scheduler.get_jobs()
        assert job.id == TICK_JOB
        assert isinstance(job.trigger, CronTrigger)
        assert job.trigger.timezone == ZoneInfo("UTC")
        assert job.coalesce is True
        assert job.misfire_grace_time >= 3600
        assert job.max_instances == 1
        service.wake()
        service.wake()  # on_ready again
        (job,) = scheduler.get_jobs()
        assert job.next_run_time is not None
        assert abs(job.next_run_time - dt.datetime.now(dt.UTC)) < dt.timedelta(seconds=30)
    finally:
        scheduler.shutdown(wait=False)


def test_the_tick_divides_a_minute() -> None:
    assert DigestSettings(tick_seconds=15).tick_seconds == 15
    with pytest.raises(ValidationError, match="divide 60"):
        DigestSettings(tick_seconds=7)
