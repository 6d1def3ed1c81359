"""The APScheduler side of the digests: one job that runs the tick.

One job, a tick every `tick_seconds` (on the minute by default), rather than one job per
subscription: APScheduler 3's CronTrigger resolves wall times across daylight-saving changes
by its own rules (a skipped time can be dropped, a repeated one run twice), while the periods
module is where that is decided and tested; one job also means one id to replace, so a second
`setup_hook` or `on_ready` can never double anything, and 10,000 subscriptions cost a
dictionary scan per minute rather than 10,000 jobs. The ledger makes it exactly-once either way.
"""

from __future__ import annotations

import asyncio
import logging
from zoneinfo import ZoneInfo

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger
from apscheduler.triggers.date import DateTrigger

from bot.digests.ticker import Ticker
from bot.errors import StoreError

log = logging.getLogger(__name__)
TICK_JOB = "digests:tick"


class TickJob:
    def __init__(
        self, scheduler: AsyncIOScheduler | None, ticker: Ticker, tick_seconds: int
    ) -> None:
        self._scheduler = scheduler
        self._ticker = ticker
        self._tick_seconds = tick_seconds

    def install(self) -> None:
        """Add (or replace) the tick job; called from `setup_hook`, before the scheduler runs."""
        if self._scheduler is None:
            return
        every = self._tick_seconds
        trigger = CronTrigger(second="0" if every == 60 else f"*/{every}", timezone=ZoneInfo("UTC"))
        self._scheduler.add_job(
            self._run,
            trigger,
            id=TICK_JOB,
            name="digests",
            replace_existing=True,
            coalesce=True,
            max_instances=1,
            misfire_grace_time=6 * 3600,
        )

    def wake(self) -> None:
        """Tick now (from `on_ready`): settle and catch up without waiting for the minute."""
        if self._scheduler is not None and self._scheduler.get_job(TICK_JOB) is not None:
            # APScheduler keeps the system's time: the job is moved to "now" on that clock (a
            # date trigger without a date is APScheduler's own now), whatever clock the engine
            # reads (a test's may stand anywhere in time).
            now = DateTrigger(timezone=ZoneInfo("UTC")).run_date
            self._scheduler.modify_job(TICK_JOB, next_run_time=now)

    async def _run(self) -> None:
        try:
            await self._ticker.tick()
        except asyncio.CancelledError:
            # The bot is closing: posts in flight stay pending and the next start settles them.
            log.debug("digest tick cancelled by shutdown")
        except StoreError as exc:
            # The store refused (busy, read-only, full, closing): nothing was reserved, so
            # nothing is lost; the next tick tries again.
            log.warning("digest tick skipped: %s", exc)
