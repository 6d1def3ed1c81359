"""DigestService: the scheduler glue, and what the /digest commands call.

One APScheduler job, a tick every `tick_seconds` (on the minute by default), wakes the service;
the service keeps each active subscription's next firing in memory (computed by `periods`, in
the subscription's own zone) and starts the posts that are due. Why a tick rather than one job
per subscription: APScheduler 3's CronTrigger resolves wall times across daylight-saving
changes by its own rules (a skipped time can be dropped, a repeated one run twice), while the
periods module is where that is decided and tested; one job also means one id to replace, so a
second `setup_hook` or `on_ready` can never double anything, and 10,000 subscriptions cost a
dictionary scan per minute rather than 10,000 jobs. The ledger makes it exactly-once either way.

At the first tick after the bot is ready, rows a previous run left pending are settled, and a
period missed while the bot was down (within `catch_up_hours`) is due at once, marked late —
only the latest one per subscription, so a long outage never floods a channel. A row whose
retries ran out while the bot kept running is settled the same way at a later resync.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Coroutine
from typing import Any
from zoneinfo import ZoneInfo

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.cron import CronTrigger

from bot.digests.content import DigestContent
from bot.digests.delivery import Deliverer
from bot.digests.periods import Firing, last_firing, next_firing
from bot.digests.reconciler import (
    Clock,
    DigestEvents,
    DigestStats,
    PostResult,
    Reconciler,
    Sleep,
)
from bot.domain.subscriptions import CycleState, Subscription, Theme
from bot.errors import UserError
from bot.render.chart_fonts import ChartFonts
from bot.render.digest_posts import Frame, Post
from bot.render.i18n import Strings
from bot.settings import DigestSettings
from bot.store.database import Database
from bot.store.digest_content import DigestContentRepository
from bot.store.editions import EditionRepository
from bot.store.errors import StoreError
from bot.store.ledger import LedgerEntry, LedgerRepository
from bot.store.papers import PaperRepository
from bot.store.subscriptions import SubscriptionRepository

log = logging.getLogger(__name__)
TICK_JOB = "digests:tick"
# Every this many ticks the schedule is re-read from the database, so a subscription changed
# by any other way than the commands (which call `scheduled`) is picked up too.
RESYNC_TICKS = 10
_LEDGER_HORIZON = dt.timedelta(days=8)


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class DigestService:
    def __init__(
        self,
        *,
        settings: DigestSettings,
        db: Database,
        subscriptions: SubscriptionRepository,
        papers: PaperRepository,
        editions: EditionRepository,
        strings: Strings,
        deliverer: Deliverer,
        scheduler: AsyncIOScheduler | None,
        clock: Clock = utc_now,
        sleep: Sleep = asyncio.sleep,
        events: DigestEvents | None = None,
        fonts: ChartFonts | None = None,
    ) -> None:
        self._settings = settings
        self._subscriptions = subscriptions
        self._deliverer = deliverer
        self._scheduler = scheduler
        self._clock = clock
        self.ledger = LedgerRepository(db)
        self._content = DigestContent(
            DigestContentRepository(db), papers, editions, strings, fonts or ChartFonts()
        )
        self.reconciler = Reconciler(
            settings=settings,
            subscriptions=subscriptions,
            ledger=self.ledger,
            content=self._content,
            deliverer=deliverer,
            strings=strings,
            clock=clock,
            sleep=sleep,
            events=events,
        )
        self._schedule: dict[int, tuple[Subscription, Firing]] = {}
        self._started = False
        self._start_lock = asyncio.Lock()
        self._inflight: dict[int, asyncio.Task[None]] = {}  # by subscription
        self._tasks: set[asyncio.Task[None]] = set()  # every post in flight, settling too
        # (subscription, period) whose delivery the store refused: due again, and resumed.
        self._refused: set[tuple[int, str]] = set()
        self._unsettled: list[LedgerEntry] = []  # pending rows whose settling the store refused
        self._ticks = 0

    # -- metrics ---------------------------------------------------------------------------
    @property
    def stats(self) -> DigestStats:
        return self.reconciler.stats

    async def pending_count(self) -> int:
        return await self.ledger.pending_count()

    # -- scheduler glue ----------------------------------------------------------------------
    def install(self) -> None:
        """Add (or replace) the tick job; called from `setup_hook`, before the scheduler runs."""
        if self._scheduler is None:
            return
        every = self._settings.tick_seconds
        trigger = CronTrigger(second="0" if every == 60 else f"*/{every}", timezone=ZoneInfo("UTC"))
        self._scheduler.add_job(
            self._scheduled_tick,
            trigger,
            id=TICK_JOB,
            name="digests",
            replace_existing=True,
            coalesce=True,
            max_instances=1,
            misfire_grace_time=6 * 3600,
        )

    async def _scheduled_tick(self) -> None:
        try:
            await self.tick()
        except asyncio.CancelledError:
            # The bot is closing: posts in flight stay pending and the next start settles them.
            log.debug("digest tick cancelled by shutdown")
        except StoreError as exc:
            # The store refused (busy, read-only, full, closing): nothing was reserved, so
            # nothing is lost; the next tick tries again.
            log.warning("digest tick skipped: %s", exc)

    def wake(self) -> None:
        """Tick now (from `on_ready`): settle and catch up without waiting for the minute."""
        if self._scheduler is not None and self._scheduler.get_job(TICK_JOB) is not None:
            self._scheduler.modify_job(TICK_JOB, next_run_time=utc_now())

    async def tick(self, now: dt.datetime | None = None) -> int:
        """Start every post that is due; returns how many were started."""
        if not self._deliverer.ready():
            return 0
        now = now or self._clock()
        await self._ensure_started(now)
        self._ticks += 1
        if self._ticks % RESYNC_TICKS == 0:
            await self._resync(now)
            await self._settle_stranded(now)
        catch_up = dt.timedelta(hours=self._settings.catch_up_hours)
        late_after = dt.timedelta(minutes=self._settings.late_after_minutes)
        started = 0
        for sub_id, (sub, firing) in list(self._schedule.items()):
            if firing.at > now or sub_id in self._inflight:
                continue
            self._schedule[sub_id] = (sub, next_firing(sub, max(now, firing.at)))
            age = now - firing.at
            if age > catch_up:
                log.warning("digest %s: %s missed by %s; skipped", sub_id, firing.period, age)
                continue
            self._spawn(sub, firing, late=age > late_after)
            started += 1
        for entry in self._unsettled:
            self._track(self._settling(entry))
        self._unsettled = []
        return started

    def _spawn(self, sub: Subscription, firing: Firing, *, late: bool) -> None:
        assert sub.id is not None
        sub_id = sub.id
        task = self._track(self._delivering(sub, firing, late=late))
        self._inflight[sub_id] = task
        task.add_done_callback(lambda _: self._inflight.pop(sub_id, None))

    async def _delivering(self, sub: Subscription, firing: Firing, *, late: bool) -> None:
        assert sub.id is not None
        key = (sub.id, firing.period)
        try:
            await self.reconciler.deliver(
                sub, firing.period, late=late, resume=key in self._refused
            )
        except StoreError as exc:
            # The store refused a write (busy, read-only, full) after `tick` had moved on to the
            # next firing: put this one back, or the period would be silently skipped. The next
            # tick tries again; a row reserved before the refusal is resumed, not sent anew.
            log.warning(
                "digest %s (%s): %s; tried again at the next tick", sub.id, firing.period, exc
            )
            self._refused.add(key)
            known = self._schedule.get(sub.id)
            if known is not None and known[0] == sub:  # not edited, paused or removed meanwhile
                self._schedule[sub.id] = (sub, firing)
            return
        except Exception:
            log.exception("a digest post (%s) could not be delivered", firing.period)
        self._refused.discard(key)

    async def _settling(self, entry: LedgerEntry) -> None:
        try:
            await self.reconciler.settle(entry)
        except StoreError as exc:
            log.warning("digest row %s: %s; settled again at the next tick", entry.id, exc)
            self._unsettled.append(entry)
        except Exception:
            log.exception("a digest post (%s) could not be settled", entry.period)

    def _track(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def drain(self) -> None:
        """Wait for every post in flight."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        """Stop posts in flight; their pending rows are settled at the next start."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _ensure_started(self, now: dt.datetime) -> None:
        async with self._start_lock:
            if self._started:
                return
            # Settled side by side, not one after another: one request stuck in flight must
            # not hold back every other channel's post.
            pending = await self.ledger.pending()
            if pending:
                log.info("settling %s digest posts left pending by the last run", len(pending))
            for entry in pending:
                self._track(self._settling(entry))
            await self._build(now)
            self._started = True

    async def _build(self, now: dt.datetime) -> None:
        recent = await self.ledger.periods_since(now - _LEDGER_HORIZON)
        catch_up = dt.timedelta(hours=self._settings.catch_up_hours)
        schedule = {}
        for sub in await self._subscriptions.active():
            assert sub.id is not None
            firing = next_firing(sub, now)
            last = last_firing(sub, now)
            # Missed while down: due now (at most this one), unless already in the ledger, too
            # old, or from before the subscription existed (subscribing never floods).
            if (
                last is not None
                and last.at > sub.created_at
                and (sub.id, last.period) not in recent
                and now - last.at <= catch_up
            ):
                firing = last
            schedule[sub.id] = (sub, firing)
        # A subscription the commands scheduled while this was being read (a /digest
        # subscribe as the bot starts) is kept, and wins: replacing the dict whole lost it.
        self._schedule = {**schedule, **self._schedule}

    async def _settle_stranded(self, now: dt.datetime) -> None:
        """Rows whose retries ran out during this run (Discord down for a while) are settled
        again every few minutes, as a start would settle them: looked up, or re-sent with
        their own nonce, until the catch-up window closes. Never silently left for a restart."""
        quiet = dt.timedelta(seconds=self._settings.retry_max_seconds)
        waiting = self.reconciler.busy | {e.id for e in self._unsettled}
        for entry in await self.ledger.pending():
            if entry.id in waiting:
                continue
            if now - (entry.attempted_at or entry.reserved_at) >= quiet:
                self._track(self._settling(entry))

    async def _resync(self, now: dt.datetime) -> None:
        active = {s.id: s for s in await self._subscriptions.active() if s.id is not None}
        for sub_id in list(self._schedule):
            if sub_id not in active:
                del self._schedule[sub_id]
        for sub_id, sub in active.items():
            known = self._schedule.get(sub_id)
            if known is None or known[0] != sub:
                self._schedule[sub_id] = (sub, next_firing(sub, now))

    # -- what the commands call ------------------------------------------------------------
    def now(self) -> dt.datetime:
        """The service's clock (UTC): what "now" means for schedules, in tests too."""
        return self._clock()

    def next_post(self, sub: Subscription, now: dt.datetime | None = None) -> dt.datetime:
        return next_firing(sub, now or self._clock()).at

    def scheduled(self, sub: Subscription) -> None:
        """(Re)schedule after subscribe, edit or resume; the first post is the next firing."""
        if sub.id is None:
            return
        if sub.status != "active":
            self.unscheduled(sub.id)
            return
        self.reconciler.dead_channels.discard(sub.channel_id)
        self._schedule[sub.id] = (sub, next_firing(sub, self._clock()))

    def unscheduled(self, sub_id: int) -> None:
        self._schedule.pop(sub_id, None)

    async def preview(self, sub: Subscription) -> Post:
        """What the next post would show, rendered; nothing is reserved or sent."""
        choose = await self._content.chooser(sub)
        state = CycleState() if sub.id is None else await self.ledger.cycle_state(sub.id)
        watermark = await self._subscriptions.audit_watermark(sub.id) if sub.id is not None else -1
        choice = choose(state, watermark)
        if not choice.content:
            key = "digests-nothing-new" if sub.theme == Theme.NEW_AWARDS else "digests-filter-empty"
            raise UserError(key)
        # The firing's own period: where the clock skips midnight (America/Nuuk), Saturday's
        # 23:30 post fires at Sunday 00:00 local, and the instant alone would say Sunday.
        period = next_firing(sub, self._clock()).period
        frame = Frame(sub.theme, period, sub.language, sub.role_id, marker="preview")
        return await self._content.render(sub, choice.content, frame)

    async def post_now(self, sub: Subscription, *, requested_by: int) -> PostResult:
        """One post now, through the ledger: a second request in the same minute is the same
        post (status "already"), never a second one."""
        if sub.id is None:
            raise ValueError("post_now needs a stored subscription")
        await self._content.check_not_empty(sub)
        period = f"now-{self._clock():%Y%m%dT%H%M}"
        log.info("digest %s posted now by %s (%s)", sub.id, requested_by, period)
        result = await self.reconciler.deliver(sub, period, late=False)
        if result.status == "empty":
            raise UserError("digests-nothing-new")
        return result
