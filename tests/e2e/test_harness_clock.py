"""The harness takes a scheduler or none: a bot on the system clock gets a live one, as
`laurel run` does; a bot on a clock the test moves gets none, so nothing fired by the wall
clock (a digest tick, a backup, the search index's polling) can race the test."""

from __future__ import annotations

import datetime as dt

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.schedulers.base import STATE_PAUSED

from bot.app import SEARCH_FOLLOW_JOB
from bot.digests.tick_job import TICK_JOB
from bot.domain.clock import SystemClock
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.clock import ManualClock


async def test_a_bot_on_the_system_clock_runs_a_live_scheduler(
    server: LocalDiscord, db: Database
) -> None:
    async with laurel_on(server, db, clock=SystemClock()) as bot:
        assert isinstance(bot.clock, SystemClock)
        assert bot.scheduler is not None
        assert bot.scheduler.running
        jobs = {job.id for job in bot.scheduler.get_jobs()}
        assert {TICK_JOB, SEARCH_FOLLOW_JOB} <= jobs
    assert not bot.scheduler.running  # shut down with the bot


async def test_a_bot_on_a_manual_clock_has_no_scheduler_and_reads_that_clock(
    server: LocalDiscord, db: Database
) -> None:
    clock = ManualClock(dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC))
    async with laurel_on(server, db, clock=clock) as bot:
        assert bot.scheduler is None
        assert bot.clock is clock
        assert bot.digests.now() == clock.now()  # the digests read it too
        clock.advance(3600)
        assert bot.digests.now() == dt.datetime(2026, 3, 2, 10, 0, tzinfo=dt.UTC)


async def test_a_test_that_counts_jobs_hands_in_a_paused_scheduler(
    server: LocalDiscord, db: Database
) -> None:
    scheduler = AsyncIOScheduler(timezone="UTC")
    scheduler.start(paused=True)  # holds jobs, fires none
    async with laurel_on(server, db, clock=ManualClock(), scheduler=scheduler) as bot:
        held = bot.scheduler
        assert held is not None
        assert held is scheduler
        assert TICK_JOB in {job.id for job in held.get_jobs()}
        assert held.state == STATE_PAUSED  # the bot did not start it again
