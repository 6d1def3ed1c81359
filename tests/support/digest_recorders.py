"""Test doubles of the digest engine's edges, beyond tests/support/digests.py: a listener that
keeps the order in which the engine's events were heard (the metrics keep only counts), and a
deliverer that keeps every lookup and can fail them (the recording one de-duplicates every
nonce forever, so to it a re-send and a lookup look alike)."""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from bot.digests.delivery import DeliveryError
from bot.digests.engine import DigestEngine
from bot.digests.themes import ThemeRegistry
from bot.domain.subscriptions import Theme
from bot.observability.metrics import Metrics
from bot.render.digest_posts import Post
from bot.render.i18n import Strings
from bot.settings import DigestSettings
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.digest_content import DigestContentRepository
from bot.store.ledger import LedgerRepository
from tests.support.digests import RecordingDeliverer, Rig


@dataclass
class Events:
    """The engine's events in the order heard (posted, failed, late), each passed on to the
    rig's Prometheus metrics, so the counts read there stay whole."""

    metrics: Metrics
    heard: list[tuple[str, str]] = field(default_factory=list)

    def digest_posted(self, theme: str) -> None:
        self.heard.append(("posted", theme))
        self.metrics.digest_posted(theme)

    def digest_failed(self, theme: str) -> None:
        self.heard.append(("failed", theme))
        self.metrics.digest_failed(theme)

    def digest_late(self, theme: str) -> None:
        self.heard.append(("late", theme))
        self.metrics.digest_late(theme)

    def digest_empty(self, theme: str) -> None:
        self.metrics.digest_empty(theme)

    def digest_paused(self, reason: str, subscriptions: int) -> None:
        self.metrics.digest_paused(reason, subscriptions)

    def digest_retried(self) -> None:
        self.metrics.digest_retried()

    def digest_settled(self) -> None:
        self.metrics.digest_settled()


def heard_by(rig: Rig, settings: DigestSettings | None = None) -> Events:
    """Restart the rig's engine (same database, deliverer, clock and metrics) with a listener
    that keeps the order of its events; the listener. The backoff's sleeps are the clock's
    (`rig.clock.sleeps`)."""
    events = Events(rig.metrics)
    rig.engine = DigestEngine.build(
        settings=settings or DigestSettings(requests_per_second=None),
        ledger=LedgerRepository(rig.db),
        content=DigestContentRepository(rig.db),
        themes=ThemeRegistry.shipped(),
        subscriptions=rig.subscriptions,
        papers=PaperRepository(rig.db),
        editions=EditionRepository(rig.db),
        strings=Strings.load(),
        deliverer=rig.deliverer,
        scheduler=None,
        clock=rig.clock,
        events=events,
    )
    return events


@dataclass
class Lookups(RecordingDeliverer):
    """The recording deliverer, also keeping every lookup it is asked for (failing them as
    scripted), the sends and their roles."""

    finds: list[dict[str, Any]] = field(default_factory=list)
    lookup_failures: list[DeliveryError] = field(default_factory=list)
    sends: int = 0
    roles: list[int | None] = field(default_factory=list)
    slow: bool = False  # every send waits a turn before it answers, as a real request does
    # With `slow`: a send also waits (5 s at most) until this many are in flight, so a test of
    # sends that may overlap does not depend on how busy the machine is.
    together: int = 1
    in_flight: int = 0
    most_at_once: int = 0  # the most sends awaiting their answer at one time

    async def send(
        self, channel_id: int, post: Post, *, nonce: str, thread_name: str, role_id: int | None
    ) -> int:
        self.sends += 1
        self.roles.append(role_id)
        if self.slow:
            self.in_flight += 1
            self.most_at_once = max(self.most_at_once, self.in_flight)
            for _ in range(500):
                if self.in_flight >= self.together:
                    break
                await asyncio.sleep(0.01)
            await asyncio.sleep(0.01)
            self.in_flight -= 1
        return await super().send(
            channel_id, post, nonce=nonce, thread_name=thread_name, role_id=role_id
        )

    async def find(
        self, channel_id: int, *, marker: str, since: dt.datetime, thread_name: str, limit: int
    ) -> int | None:
        self.finds.append(
            {
                "channel_id": channel_id,
                "marker": marker,
                "since": since,
                "thread_name": thread_name,
                "limit": limit,
            }
        )
        if self.lookup_failures:
            raise self.lookup_failures.pop(0)
        return await super().find(
            channel_id, marker=marker, since=since, thread_name=thread_name, limit=limit
        )


def by_theme(rig: Rig, name: str) -> dict[str, float]:
    """A digest counter labelled by theme (`laurel_digests_failed_total`, …), every theme
    counted at least once: what the old per-theme stats dicts held."""
    counts = {theme.value: rig.count(name, theme=theme.value) for theme in Theme}
    return {theme: count for theme, count in counts.items() if count}
