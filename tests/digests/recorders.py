"""Test doubles of the digest engine's edges, beyond tests/digests/conftest.py: a metrics
listener, and a deliverer that keeps every lookup and can fail them (the recording one
de-duplicates every nonce forever, so to it a re-send and a lookup look alike)."""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from bot.digests.delivery import DeliveryError
from bot.digests.service import DigestService
from bot.render.digest_posts import Post
from bot.render.i18n import Strings
from bot.settings import DigestSettings
from bot.store.editions import EditionRepository
from bot.store.papers import PaperRepository
from bot.store.subscriptions import SubscriptionRepository
from tests.digests.conftest import RecordingDeliverer, Rig


@dataclass
class Events:
    """The metrics' side of the digest engine, as bot/observability/metrics.py hears it."""

    heard: list[tuple[str, str]] = field(default_factory=list)

    def digest_posted(self, theme: str) -> None:
        self.heard.append(("posted", theme))

    def digest_failed(self, theme: str) -> None:
        self.heard.append(("failed", theme))

    def digest_late(self, theme: str) -> None:
        self.heard.append(("late", theme))


def heard_by(
    rig: Rig, settings: DigestSettings | None = None, slept: list[float] | None = None
) -> Events:
    """Restart the rig's service with a metrics listener (and the backoff's sleeps kept in
    `slept`); the listener."""
    events = Events()

    async def no_sleep(seconds: float) -> None:
        if slept is not None:
            slept.append(seconds)

    rig.service = DigestService(
        settings=settings or DigestSettings(requests_per_second=None),
        db=rig.db,
        subscriptions=SubscriptionRepository(rig.db),
        papers=PaperRepository(rig.db),
        editions=EditionRepository(rig.db),
        strings=Strings.load(),
        deliverer=rig.deliverer,
        scheduler=None,
        clock=rig.clock,
        sleep=no_sleep,
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
