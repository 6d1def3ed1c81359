"""What each tick does: settle and catch up at the first one, follow the store every few, and
start the posts that are due.

At the first tick after the bot is ready, rows a previous run left pending are settled, and a
period missed while the bot was down (within `catch_up_hours`) is due at once, marked late —
only the latest one per subscription, so a long outage never floods a channel. A row whose
retries ran out while the bot kept running is settled the same way at a later resync.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging

from bot.digests.delivery import Deliverer
from bot.digests.schedule import DueSet
from bot.digests.supervisor import PostSupervisor
from bot.domain.clock import Clock
from bot.domain.shards import Shards
from bot.settings import DigestSettings
from bot.store.ledger import LedgerRepository
from bot.store.subscriptions import SubscriptionRepository

log = logging.getLogger(__name__)
# Every this many ticks the schedule is re-read from the database, so a subscription changed
# by any other way than `SubscriptionService` (another process, a restore) is picked up too:
# a safety net, not the way the commands reach the schedule.
RESYNC_TICKS = 10
# How far back a start looks in the ledger for periods already posted.
_LEDGER_HORIZON = dt.timedelta(days=8)


class Ticker:
    def __init__(
        self,
        *,
        settings: DigestSettings,
        clock: Clock,
        deliverer: Deliverer,
        subscriptions: SubscriptionRepository,
        ledger: LedgerRepository,
        due: DueSet,
        supervisor: PostSupervisor,
        shards: Shards | None = None,
    ) -> None:
        """`shards`: this process's gateway shards; only their guilds' subscriptions are
        scheduled, and only their pending rows settled (None: every guild's)."""
        self._settings = settings
        self._clock = clock
        self._deliverer = deliverer
        self._subscriptions = subscriptions
        self._ledger = ledger
        self._due = due
        self._supervisor = supervisor
        self._shards = shards
        self._started = False
        self._start_lock = asyncio.Lock()
        self._ticks = 0

    @property
    def shards(self) -> Shards | None:
        """The shards whose guilds' digests this ticker runs (None: every guild's)."""
        return self._shards

    async def tick(self, now: dt.datetime | None = None) -> int:
        """Start every post that is due; returns how many were started."""
        if not self._deliverer.ready():
            return 0
        now = now or self._clock.now()
        self._due.new_tick()
        await self._ensure_started(now)
        self._ticks += 1
        if self._ticks % RESYNC_TICKS == 0:
            self._due.resync(await self._subscriptions.active_timings(self._shards), now)
            await self._settle_stranded(now)
        due = self._due.take_due(now, self._supervisor.running())
        subs = await self._subscriptions.by_ids([d.sub_id for d in due]) if due else {}
        started = 0
        for item in due:
            sub = subs.get(item.sub_id)
            if sub is None or sub.status != "active":
                continue  # removed or paused by other means since the last resync
            self._supervisor.start(sub, item)
            started += 1
        self._supervisor.settle_refused()
        return started

    async def _ensure_started(self, now: dt.datetime) -> None:
        async with self._start_lock:
            if self._started:
                return
            # Settled side by side, not one after another: one request stuck in flight must
            # not hold back every other channel's post.
            pending = await self._ledger.pending(self._shards)
            if pending:
                log.info("settling %s digest posts left pending by the last run", len(pending))
            for entry in pending:
                self._supervisor.settle(entry)
            recent = await self._ledger.periods_since(now - _LEDGER_HORIZON)
            self._due.build(await self._subscriptions.active_timings(self._shards), recent, now)
            self._started = True

    async def _settle_stranded(self, now: dt.datetime) -> None:
        """Rows whose retries ran out during this run (Discord down for a while) are settled
        again every few minutes, as a start would settle them: looked up, or re-sent with
        their own nonce, until the catch-up window closes. Never silently left for a restart."""
        quiet = dt.timedelta(seconds=self._settings.retry_max_seconds)
        waiting = self._supervisor.waiting()
        for entry in await self._ledger.pending(self._shards):
            if entry.id in waiting:
                continue
            if now - (entry.attempted_at or entry.reserved_at) >= quiet:
                self._supervisor.settle(entry)
