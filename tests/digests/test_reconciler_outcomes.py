"""What each outcome of a post leaves behind: the result a caller is given, the ledger row, the
metrics events, the notice the admins get, and what a second settle of one row does. Found by
mutation testing of bot/digests/reconciler.py (docs/mutation.md); every check goes through the
service's public methods, the ledger and the recording deliverer, not the reconciler's insides.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from bot.digests.delivery import ChannelGone, DeliveryError, RejectedError, TransientError
from bot.digests.service import DigestService
from bot.domain.subscriptions import Theme
from bot.render.digest_posts import Post, paused_notice
from bot.render.i18n import Strings
from bot.settings import DigestSettings
from bot.store.editions import EditionRepository
from bot.store.ledger import LedgerEntry
from bot.store.papers import PaperRepository
from bot.store.subscriptions import SubscriptionRepository
from tests.digests.conftest import RecordingDeliverer, Rig

MINUTE = dt.timedelta(minutes=1)
DAY = dt.timedelta(days=1)
POTD = Theme.PAPER_OF_THE_DAY.value


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


async def test_a_rejected_post_now_says_failed_with_its_row_and_why_and_metrics_hear_it(
    rig: Rig,
) -> None:
    events = heard_by(rig)
    rig.clock.now = dt.datetime(2026, 1, 5, 10, 0, tzinfo=dt.UTC)
    first = await rig.subscribe(channel_id=5)
    second = await rig.subscribe(channel_id=6)
    for sub in (first, second):
        rig.deliverer.failures[sub.channel_id] = [RejectedError("400 50035: Invalid Form Body")]
    results = [await rig.service.post_now(sub, requested_by=7) for sub in (first, second)]
    for sub, result in zip((first, second), results, strict=True):
        assert sub.id is not None
        (row,) = await rig.service.ledger.of_subscription(sub.id)
        assert (row.status, row.error) == ("failed", "400 50035: Invalid Form Body")
        assert result.status == "failed"
        assert result.entry_id == row.id
        assert result.error == "400 50035: Invalid Form Body"
        assert result.message_id is None
    assert events.heard == [("failed", POTD), ("failed", POTD)]
    assert rig.service.stats.failed[POTD] == 2


async def test_a_post_given_up_after_its_retries_is_heard_once_as_failed(rig: Rig) -> None:
    events = heard_by(rig, DigestSettings(requests_per_second=None, retry_attempts=2))
    rig.clock.now = dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC)
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503 0: unavailable")] * 2
    await rig.run_until(rig.clock.now + 2 * MINUTE, MINUTE)
    assert rig.deliverer.sent == []
    assert events.heard == [("failed", POTD)]
    assert sub.id is not None
    (row,) = await rig.service.ledger.of_subscription(sub.id)
    assert (row.status, row.error) == ("pending", "503 0: unavailable")


async def test_each_lost_channel_pauses_its_digests_and_tells_its_guild_of_all_of_them(
    rig: Rig,
) -> None:
    rig.clock.now = dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC)
    first = await rig.subscribe(guild_id=41, channel_id=5)
    second = await rig.subscribe(guild_id=41, channel_id=5, theme=Theme.TEST_OF_TIME)
    other = await rig.subscribe(guild_id=42, channel_id=6, language="zh-TW")
    for channel in (5, 6):
        rig.deliverer.failures[channel] = [ChannelGone("forbidden", "403 50001: Missing Access")]
    await rig.run_until(rig.clock.now + DAY, MINUTE * 30)
    strings = Strings.load()
    # Channel 5's notice names both of its digests, one line each, in its own guild.
    both = "\n".join(
        paused_notice(5, sub.theme, "forbidden", sub.language, strings) for sub in (first, second)
    )
    alone = paused_notice(6, other.theme, "forbidden", "zh-TW", strings)
    assert sorted(rig.deliverer.notices) == [(41, 5, both), (42, 6, alone)]
    assert rig.service.stats.paused["forbidden"] == 3


async def test_a_row_is_settled_by_one_caller_at_a_time_and_again_once_free(rig: Rig) -> None:
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=1))
    rig.clock.now = dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC)
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")]
    await rig.run_until(rig.clock.now + 2 * MINUTE, MINUTE)
    (entry,) = await rig.service.ledger.pending()
    # Two settles of one row at once (a resync and a start): one of them works on it.
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")]
    before = rig.deliverer.requests
    await asyncio.gather(rig.service.reconciler.settle(entry), rig.service.reconciler.settle(entry))
    assert rig.deliverer.requests == before + 1
    assert await rig.service.ledger.pending_count() == 1
    # Once that settle is over, the row is free to be settled again: and now it goes out.
    await rig.service.reconciler.settle(entry)
    assert rig.deliverer.periods(sub.channel_id) == ["2026-01-05"]
    assert await rig.service.ledger.pending_count() == 0
    assert rig.service.stats.settled == 2  # the one turned away settled nothing


async def test_a_pending_row_of_a_digest_paused_since_is_failed_saying_so(rig: Rig) -> None:
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=1))
    rig.clock.now = dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC)
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")]
    await rig.run_until(rig.clock.now + 2 * MINUTE, MINUTE)
    (entry,) = await rig.service.ledger.pending()
    await rig.subscriptions.pause_channel(sub.channel_id, "not-found")
    requests = rig.deliverer.requests
    await rig.service.reconciler.settle(entry)
    settled = await rig.service.ledger.get(entry.id)
    assert settled is not None
    assert (settled.status, settled.error) == ("failed", "paused (not-found)")
    assert rig.deliverer.requests == requests  # nothing sent to a paused channel


@dataclass
class Lookups(RecordingDeliverer):
    """The recording deliverer, also keeping every lookup it is asked for and failing them as
    scripted (the recording one de-duplicates every nonce forever, so a re-send and a lookup
    look alike to it)."""

    finds: list[dict[str, Any]] = field(default_factory=list)
    lookup_failures: list[DeliveryError] = field(default_factory=list)
    sends: int = 0
    roles: list[int | None] = field(default_factory=list)
    slow: bool = False  # every send waits a turn before it answers, as a real request does

    async def send(
        self, channel_id: int, post: Post, *, nonce: str, thread_name: str, role_id: int | None
    ) -> int:
        self.sends += 1
        self.roles.append(role_id)
        if self.slow:
            await asyncio.sleep(0.01)
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


async def stranded_after_the_window(rig: Rig, **fields: Any) -> tuple[Lookups, LedgerEntry]:
    """A post Discord stored whose row the process never marked (it died), then a restart
    past the nonce window: the row must be looked up, not sent again."""
    rig.deliverer = Lookups(rig.clock)
    rig.restart()
    rig.clock.now = dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC)
    sub = await rig.subscribe(**fields)
    rig.clock.now += MINUTE
    await rig.service.tick()
    await rig.service.drain()
    await rig.db.write(
        lambda c: c.execute("UPDATE digest_ledger SET status = 'pending', message_id = NULL")
    )
    assert sub.id is not None
    (entry,) = await rig.service.ledger.of_subscription(sub.id)
    rig.clock.now += 10 * MINUTE
    rig.restart()
    return rig.deliverer, entry


async def test_a_stranded_row_is_looked_up_by_its_marker_time_and_thread_name(rig: Rig) -> None:
    deliverer, entry = await stranded_after_the_window(rig, language="zh-TW")
    sends = deliverer.sends
    await rig.service.tick()
    await rig.service.drain()
    strings = Strings.load()
    title = strings.text("digests-theme-paper-of-the-day", "zh-TW")
    assert deliverer.finds == [
        {
            "channel_id": 100,
            "marker": entry.nonce,
            "since": entry.reserved_at,
            "thread_name": f"{title} · 2026-01-05",
            "limit": DigestSettings().history_lookup_limit,
        }
    ]
    assert deliverer.sends == sends  # found: not sent again
    settled = await rig.service.ledger.get(entry.id)
    assert settled is not None
    assert (settled.status, settled.message_id) == ("sent", deliverer.sent[0].message_id)


async def test_a_lookup_that_finds_the_channel_gone_pauses_and_fails_the_row(rig: Rig) -> None:
    deliverer, entry = await stranded_after_the_window(rig, guild_id=41)
    deliverer.lookup_failures = [ChannelGone("not-found", "404 10003: Unknown Channel")]
    sends = deliverer.sends
    await rig.service.tick()
    await rig.service.drain()
    settled = await rig.service.ledger.get(entry.id)
    assert settled is not None
    assert (settled.status, settled.error) == ("failed", "not-found")
    sub = await rig.subscriptions.get(entry.subscription_id)
    assert sub is not None
    assert (sub.status, sub.paused_reason) == ("paused", "not-found")
    assert [(g, c) for g, c, _ in deliverer.notices] == [(41, 100)]
    assert deliverer.sends == sends
    assert rig.service.stats.failed[POTD] == 1


async def test_a_lookup_that_fails_for_now_leaves_the_row_pending_and_sends_nothing(
    rig: Rig,
) -> None:
    deliverer, entry = await stranded_after_the_window(rig)
    deliverer.lookup_failures = [TransientError("503 0: unavailable")]
    sends = deliverer.sends
    await rig.service.tick()
    await rig.service.drain()
    assert len(deliverer.finds) == 1
    assert deliverer.sends == sends
    settled = await rig.service.ledger.get(entry.id)
    assert settled is not None
    assert settled.status == "pending"
    sub = await rig.subscriptions.get(entry.subscription_id)
    assert sub is not None
    assert sub.status == "active"


async def test_a_late_post_found_by_its_lookup_is_heard_as_posted_late(rig: Rig) -> None:
    rig.deliverer = Lookups(rig.clock)
    rig.clock.now = dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC)
    sub = await rig.subscribe()
    rig.clock.now = dt.datetime(2026, 1, 5, 11, 0, tzinfo=dt.UTC)  # down over 09:00: late
    rig.restart()
    await rig.service.tick()
    await rig.service.drain()
    await rig.db.write(
        lambda c: c.execute("UPDATE digest_ledger SET status = 'pending', message_id = NULL")
    )
    rig.clock.now += 10 * MINUTE
    events = heard_by(rig)
    await rig.service.tick()
    await rig.service.drain()
    assert sub.id is not None
    (row,) = await rig.service.ledger.of_subscription(sub.id)
    assert (row.status, row.late) == ("sent", True)
    assert events.heard == [("posted", POTD), ("late", POTD)]


async def test_a_row_never_sent_is_given_up_once_the_catch_up_window_is_over(rig: Rig) -> None:
    rig.deliverer = Lookups(rig.clock)
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=1))
    rig.clock.now = dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC)
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")]
    await rig.run_until(rig.clock.now + 2 * MINUTE, MINUTE)
    (entry,) = await rig.service.ledger.pending()
    rig.clock.now = entry.reserved_at + dt.timedelta(hours=6, minutes=1)  # the window is 6 h
    rig.restart()
    sends = rig.deliverer.sends
    await rig.service.tick()
    await rig.service.drain()
    settled = await rig.service.ledger.get(entry.id)
    assert settled is not None
    assert (settled.status, settled.error) == (
        "failed",
        "expired: not sent within the catch-up window",
    )
    assert rig.deliverer.sends == sends  # looked up (not there), then given up, not sent
    assert len(rig.deliverer.finds) == 1


async def test_retries_back_off_doubling_up_to_the_cap_and_note_each_attempt(rig: Rig) -> None:
    slept: list[float] = []
    settings = DigestSettings(
        requests_per_second=None, retry_attempts=5, retry_base_seconds=2, retry_max_seconds=5
    )
    rig.deliverer = Lookups(rig.clock)
    heard_by(rig, settings, slept)
    rig.clock.now = dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC)
    sub = await rig.subscribe(role_id=77)
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")] * 3
    await rig.run_until(rig.clock.now + MINUTE, MINUTE)
    assert slept == [2, 4, 5]  # 2, 4, 8 capped at 5
    assert rig.service.stats.retries == 3
    assert rig.deliverer.roles == [77] * 4  # every try carries the opted-in role
    assert rig.deliverer.finds == []  # a channel (not a forum) is never looked up
    assert sub.id is not None
    (row,) = await rig.service.ledger.of_subscription(sub.id)
    assert row.status == "sent"
    assert row.attempted_at == rig.clock.now  # the last retry is noted on the row


async def test_a_forum_post_is_looked_up_before_each_retry_and_not_sent_twice(rig: Rig) -> None:
    rig.deliverer = Lookups(rig.clock)
    rig.restart()
    rig.clock.now = dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC)
    sub = await rig.subscribe(channel_id=300)
    rig.deliverer.forums.add(300)
    rig.deliverer.failures[300] = [TransientError("502 after the store")]
    await rig.run_until(rig.clock.now + 2 * MINUTE, MINUTE)
    assert sub.id is not None
    (row,) = await rig.service.ledger.of_subscription(sub.id)
    assert row.status == "sent"
    (lookup,) = rig.deliverer.finds  # none before the first try; one before the retry
    assert lookup == {
        "channel_id": 300,
        "marker": row.nonce,
        "since": row.reserved_at,
        "thread_name": "Paper of the day · 2026-01-05",
        "limit": DigestSettings().history_lookup_limit,
    }
    assert rig.deliverer.sends == 2


async def test_a_post_after_its_channel_was_lost_is_failed_as_paused_not_sent(rig: Rig) -> None:
    rig.clock.now = dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC)
    first = await rig.subscribe(channel_id=5)
    second = await rig.subscribe(channel_id=5, theme=Theme.TEST_OF_TIME)
    rig.deliverer.failures[5] = [ChannelGone("forbidden", "403 50001: Missing Access")]
    await rig.run_until(rig.clock.now + 2 * dt.timedelta(hours=1), MINUTE * 30)
    rows = [
        row
        for sub in (first, second)
        for row in await rig.service.ledger.of_subscription(sub.id or 0)
    ]
    assert sorted((row.status, row.error) for row in rows) == [
        ("failed", "channel paused"),
        ("failed", "forbidden"),
    ]
    # And once paused, nothing more is even reserved for that channel.
    third = await rig.service.post_now(first, requested_by=7)
    assert third.status == "paused"
    assert rig.deliverer.requests == 1


async def test_post_now_shows_its_date_and_a_repeat_names_the_same_post(rig: Rig) -> None:
    rig.clock.now = dt.datetime(2026, 11, 29, 18, 30, tzinfo=dt.UTC)
    sub = await rig.subscribe(channel_id=9)
    first = await rig.service.post_now(sub, requested_by=7)
    again = await rig.service.post_now(sub, requested_by=7)
    assert rig.deliverer.periods(9) == ["2026-11-29"]
    assert (first.status, first.channel_id) == ("sent", 9)
    assert (again.status, again.entry_id, again.message_id, again.channel_id) == (
        "already",
        first.entry_id,
        first.message_id,
        9,
    )


async def test_posts_to_one_channel_go_one_at_a_time_so_a_403_stops_the_next(rig: Rig) -> None:
    rig.deliverer = Lookups(rig.clock, slow=True)
    rig.restart()
    rig.clock.now = dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC)
    for theme in (Theme.PAPER_OF_THE_DAY, Theme.TEST_OF_TIME, Theme.VENUE_SPOTLIGHT):
        await rig.subscribe(channel_id=5, theme=theme, days={0})
    rig.deliverer.failures[5] = [ChannelGone("forbidden", "403 50001: Missing Access")] * 3
    await rig.run_until(rig.clock.now + MINUTE, MINUTE)
    assert rig.deliverer.sends == 1  # the others waited for it, then saw the channel gone
    assert len(rig.deliverer.notices) == 1


async def test_asking_again_for_a_post_still_pending_does_not_send_it_again(rig: Rig) -> None:
    rig.deliverer = Lookups(rig.clock)
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=1))
    rig.clock.now = dt.datetime(2026, 1, 5, 10, 0, tzinfo=dt.UTC)
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")]
    first = await rig.service.post_now(sub, requested_by=7)
    assert first.status == "pending"
    again = await rig.service.post_now(sub, requested_by=7)
    assert (again.status, again.entry_id) == ("already", first.entry_id)
    assert rig.deliverer.sends == 1  # left to settling, not sent by a second click
    assert await rig.service.ledger.pending_count() == 1
