"""The digest rig: a digest engine on a real SQLite copy of the bundled catalogue, with a
`ManualClock`, the real Prometheus metrics and a recording deliverer (the one edge faked here;
tests/e2e run the real one on the stand-in). tests/digests/conftest.py makes one per test."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.digests.delivery import DeliveryError
from bot.digests.engine import DigestEngine
from bot.digests.service import DigestService
from bot.digests.themes import ThemeRegistry
from bot.domain.clock import Clock
from bot.domain.shards import Shards
from bot.domain.subscriptions import Subscription, Theme
from bot.observability.metrics import Metrics
from bot.render.digest_posts import Post, hidden_marker
from bot.render.i18n import Strings
from bot.settings import DigestSettings
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.database import Database
from bot.store.digest_content import DigestContentRepository
from bot.store.ledger import LedgerRepository
from bot.store.subscriptions import SubscriptionRepository
from tests.support.clock import ManualClock


@dataclass
class Sent:
    channel_id: int
    post: Post
    nonce: str
    thread_name: str
    at: dt.datetime
    message_id: int


@dataclass
class RecordingDeliverer:
    """Keeps what was sent; de-duplicates nonces as Discord does; fails as scripted."""

    clock: Clock
    sent: list[Sent] = field(default_factory=list)
    failures: dict[int, list[DeliveryError]] = field(default_factory=dict)
    notices: list[tuple[int, int, str]] = field(default_factory=list)
    forums: set[int] = field(default_factory=set)
    requests: int = 0

    def ready(self) -> bool:
        return True

    def is_forum(self, channel_id: int) -> bool:
        return channel_id in self.forums

    async def send(
        self, channel_id: int, post: Post, *, nonce: str, thread_name: str, role_id: int | None
    ) -> int:
        self.requests += 1
        queued = self.failures.get(channel_id)
        if queued:
            raise queued.pop(0)
        earlier = next((s for s in self.sent if s.nonce == nonce), None)
        if earlier is not None:
            return earlier.message_id
        message_id = 1_000 + len(self.sent)
        self.sent.append(Sent(channel_id, post, nonce, thread_name, self.clock.now(), message_id))
        return message_id

    async def find(
        self, channel_id: int, *, marker: str, since: dt.datetime, thread_name: str, limit: int
    ) -> int | None:
        self.requests += 1
        for sent in self.sent:
            footer = sent.post.embeds[-1].footer.text or ""
            if sent.channel_id == channel_id and footer.endswith(hidden_marker(marker)):
                return sent.message_id
        return None

    async def notify_admins(self, guild_id: int, channel_id: int, text: str) -> bool:
        self.notices.append((guild_id, channel_id, text))
        return True

    def periods(self, channel_id: int) -> list[str]:
        return [s.thread_name.rsplit(" · ", 1)[1] for s in self.sent if s.channel_id == channel_id]


@dataclass
class Rig:
    db: Database
    clock: ManualClock
    deliverer: RecordingDeliverer
    subscriptions: SubscriptionRepository
    engine: DigestEngine
    metrics: Metrics

    @property
    def service(self) -> DigestService:
        """What the /digest commands call."""
        return self.engine.service

    async def subscribe(self, **fields: Any) -> Subscription:
        base: dict[str, Any] = {
            "guild_id": 1,
            "channel_id": 100,
            "theme": Theme.PAPER_OF_THE_DAY,
            "time": dt.time(9, 0),
            "timezone": "UTC",
            "created_by": 7,
            "created_at": self.clock.now(),
        }
        sub = await self.subscriptions.add(Subscription.model_validate({**base, **fields}))
        self.service.scheduled(sub)
        return sub

    async def run_until(self, end: dt.datetime, step: dt.timedelta) -> None:
        """Tick every `step` of fake time until `end`, letting each tick's posts finish."""
        while self.clock.now() < end:
            self.clock.set(min(end, self.clock.now() + step))
            await self.engine.run_due()

    def restart(self, settings: DigestSettings | None = None) -> DigestEngine:
        """A new engine on the same database, deliverer and metrics: a process restart."""
        self.engine = make_engine(
            self.db, self.clock, self.deliverer, self.metrics, settings, self.subscriptions
        )
        return self.engine

    def count(self, name: str, **labels: str) -> float:
        """A digest counter as Prometheus would read it (`laurel_digests_posted_total`, …)."""
        return self.metrics.value(name, **labels)


def make_engine(
    db: Database,
    clock: ManualClock,
    deliverer: RecordingDeliverer,
    metrics: Metrics,
    settings: DigestSettings | None = None,
    subscriptions: SubscriptionRepository | None = None,
    scheduler: AsyncIOScheduler | None = None,
    shards: Shards | None = None,
) -> DigestEngine:
    return DigestEngine.build(
        settings=settings or DigestSettings(requests_per_second=None),
        ledger=LedgerRepository(db),
        content=DigestContentRepository(db),
        themes=ThemeRegistry.shipped(),
        subscriptions=subscriptions or SubscriptionRepository(db),
        papers=PaperRepository(db),
        editions=EditionRepository(db),
        strings=Strings.load(),
        deliverer=deliverer,
        scheduler=scheduler,
        clock=clock,
        events=metrics,
        shards=shards,
    )


START = dt.datetime(2026, 1, 5, 0, 0, tzinfo=dt.UTC)
