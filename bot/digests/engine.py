"""The digest engine, assembled: each part made once, and handed to those that use it.

    TickJob (APScheduler) -> Ticker -> DueSet (what is due)
                                    -> PostSupervisor (posts in flight) -> Reconciler -> ledger
    DigestService (the /digest commands) -> DueSet, Reconciler, ledger, content

The composition root (`LaurelBot`) builds one with `DigestEngine.build` from the clock, the
repositories and the deliverer it made (the engine makes no repository of its own), and uses
only its facade: `start`, `wake`, `close`, `pending_count`, `service` (what the /digest
commands and `/paper today` read and post through) and `subscriptions` (every change to a
subscription, which tells the schedule itself). Tests build one on a
fake deliverer and a `ManualClock` and may look at the parts (`ledger`, `reconciler`, …).
"""

from __future__ import annotations

from dataclasses import dataclass

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.digests.content import DigestContent
from bot.digests.delivery import Deliverer
from bot.digests.reconciler import DigestEvents, Reconciler
from bot.digests.schedule import DueSet
from bot.digests.service import DigestService
from bot.digests.subscriptions import SubscriptionService
from bot.digests.supervisor import PostSupervisor
from bot.digests.themes import ThemeRegistry
from bot.digests.tick_job import TickJob
from bot.digests.ticker import Ticker
from bot.domain.clock import Clock
from bot.domain.shards import Shards
from bot.render.chart_fonts import ChartFonts
from bot.render.i18n import Strings
from bot.settings import DigestSettings
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.digest_content import DigestContentRepository
from bot.store.ledger import LedgerRepository
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
    subscriptions: SubscriptionService

    @classmethod
    def build(
        cls,
        *,
        settings: DigestSettings,
        ledger: LedgerRepository,
        content: DigestContentRepository,
        subscriptions: SubscriptionRepository,
        papers: PaperRepository,
        editions: EditionRepository,
        strings: Strings,
        deliverer: Deliverer,
        scheduler: AsyncIOScheduler | None,
        clock: Clock,
        events: DigestEvents,
        themes: ThemeRegistry,
        fonts: ChartFonts | None = None,
        shards: Shards | None = None,
    ) -> DigestEngine:
        """`shards`: the gateway shards of this process; it schedules and settles the digests
        of their guilds only (None: of every guild). The ledger is shared: whichever process
        reserves a (subscription, period) first posts it, and no other ever does."""
        pickers = DigestContent(
            content, papers, editions, strings, fonts or ChartFonts(), clock, themes
        )
        reconciler = Reconciler(
            settings=settings,
            subscriptions=subscriptions,
            ledger=ledger,
            content=pickers,
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
            content=pickers,
            subscriptions=subscriptions,
            shards=shards,
        )
        job = TickJob(scheduler, ticker, settings.tick_seconds)
        return cls(
            ledger,
            reconciler,
            due,
            supervisor,
            ticker,
            job,
            service,
            SubscriptionService(subscriptions, service),
        )

    def start(self) -> None:
        """Install the tick job (replaced by id: a second `setup_hook` never doubles it)."""
        self.job.install()

    def wake(self) -> None:
        """Tick now (from `on_ready`): settle and catch up without waiting for the minute."""
        self.job.wake()

    async def close(self) -> None:
        """Let the posts in flight finish (or leave them pending for the next start)."""
        await self.supervisor.close()

    async def pending_count(self) -> int:
        """Ledger rows reserved but not settled: what the metrics report."""
        return await self.ledger.pending_count()

    async def run_due(self) -> int:
        """One tick, and wait for the posts it started: what a test or benchmark drives."""
        started = await self.ticker.tick()
        await self.supervisor.drain()
        return started
