"""The digest engine, assembled: each part made once, and handed to those that use it.

    TickJob (APScheduler) -> Ticker -> DueSet (what is due)
                                    -> PostSupervisor (posts in flight) -> Reconciler -> ledger
    DigestService (the /digest commands) -> DueSet, Reconciler, ledger, content

The composition root (`LaurelBot`) builds one with `DigestEngine.build` from the clock, the
store and the deliverer it has; tests build one on a fake deliverer and a `ManualClock`.
"""

from __future__ import annotations

from dataclasses import dataclass

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.digests.content import DigestContent
from bot.digests.delivery import Deliverer
from bot.digests.reconciler import DigestEvents, Reconciler
from bot.digests.schedule import DueSet
from bot.digests.service import DigestService
from bot.digests.supervisor import PostSupervisor
from bot.digests.tick_job import TickJob
from bot.digests.ticker import Ticker
from bot.domain.clock import Clock
from bot.domain.shards import Shards
from bot.render.chart_fonts import ChartFonts
from bot.render.i18n import Strings
from bot.settings import DigestSettings
from bot.store.database import Database
from bot.store.digest_content import DigestContentRepository
from bot.store.editions import EditionRepository
from bot.store.ledger import LedgerRepository
from bot.store.papers import PaperRepository
from bot.store.subscriptions import SubscriptionRepository


@dataclass(frozen=True, slots=True)
class DigestEngine:
    ledger: LedgerRepository
    reconciler: Reconciler
    due: DueSet
    supervisor: PostSupervisor
    ticker: Ticker
    job: TickJob
    service: DigestService

    @classmethod
    def build(
        cls,
        *,
        settings: DigestSettings,
        db: Database,
        subscriptions: SubscriptionRepository,
        papers: PaperRepository,
        editions: EditionRepository,
        strings: Strings,
        deliverer: Deliverer,
        scheduler: AsyncIOScheduler | None,
        clock: Clock,
        events: DigestEvents,
        fonts: ChartFonts | None = None,
        shards: Shards | None = None,
    ) -> DigestEngine:
        """`shards`: the gateway shards of this process; it schedules and settles the digests
        of their guilds only (None: of every guild). The ledger is shared: whichever process
        reserves a (subscription, period) first posts it, and no other ever does."""
        ledger = LedgerRepository(db)
        content = DigestContent(
            DigestContentRepository(db), papers, editions, strings, fonts or ChartFonts(), clock
        )
        reconciler = Reconciler(
            settings=settings,
            subscriptions=subscriptions,
            ledger=ledger,
            content=content,
            deliverer=deliverer,
            strings=strings,
            clock=clock,
            events=events,
        )
        due = DueSet(settings)
        supervisor = PostSupervisor(reconciler, due)
        ticker = Ticker(
            settings=settings,
            clock=clock,
            deliverer=deliverer,
            subscriptions=subscriptions,
            ledger=ledger,
            due=due,
            supervisor=supervisor,
            shards=shards,
        )
        service = DigestService(
            clock=clock,
            due=due,
            reconciler=reconciler,
            ledger=ledger,
            content=content,
            subscriptions=subscriptions,
            shards=shards,
        )
        job = TickJob(scheduler, ticker, settings.tick_seconds)
        return cls(ledger, reconciler, due, supervisor, ticker, job, service)

    async def run_due(self) -> int:
        """One tick, and wait for the posts it started: what a test or benchmark drives."""
        started = await self.ticker.tick()
        await self.supervisor.drain()
        return started
