"""How the reconciler finds a post whose outcome was lost, and how it retries: what it asks
the deliverer for, and what each answer leaves on the row. Found by mutation testing of
bot/digests/reconciler.py (docs/mutation.md); through the service's public methods only.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.digests.delivery import ChannelGone, TransientError
from bot.domain.clock import SystemClock
from bot.domain.ledger import LedgerEntry
from bot.domain.subscriptions import Theme
from bot.render.i18n import Strings
from bot.settings import DigestSettings
from bot.store.catalog.repository import CatalogRepository
from tests.support.digest_recorders import Lookups, by_theme, heard_by
from tests.support.digests import Rig

MINUTE = dt.timedelta(minutes=1)
POTD = Theme.PAPER_OF_THE_DAY.value


async def stranded_after_the_window(rig: Rig, **fields: Any) -> tuple[Lookups, LedgerEntry]:
    """A post Discord stored whose row the process never marked (it died), then a restart
    past the nonce window: the row must be looked up, not sent again."""
    rig.deliverer = Lookups(rig.clock)
    rig.restart()
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe(**fields)
    rig.clock.set(rig.clock.now() + MINUTE)
    await rig.engine.run_due()
    await rig.db.write(
        lambda c: c.execute("UPDATE digest_ledger SET status = 'pending', message_id = NULL")
    )
    assert sub.id is not None
    (entry,) = await rig.engine.ledger.of_subscription(sub.id)
    rig.clock.set(rig.clock.now() + 10 * MINUTE)
    rig.restart()
    return rig.deliverer, entry


async def test_a_stranded_row_is_looked_up_by_its_marker_time_and_thread_name(rig: Rig) -> None:
    deliverer, entry = await stranded_after_the_window(rig, language="zh-TW")
    sends = deliverer.sends
    await rig.engine.run_due()
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
    settled = await rig.engine.ledger.get(entry.id)
    assert settled is not None
    assert (settled.status, settled.message_id) == ("sent", deliverer.sent[0].message_id)


async def test_a_lookup_that_finds_the_channel_gone_pauses_and_fails_the_row(rig: Rig) -> None:
    deliverer, entry = await stranded_after_the_window(rig, guild_id=41)
    deliverer.lookup_failures = [ChannelGone("not-found", "404 10003: Unknown Channel")]
    sends = deliverer.sends
    await rig.engine.run_due()
    settled = await rig.engine.ledger.get(entry.id)
    assert settled is not None
    assert (settled.status, settled.error) == ("failed", "not-found")
    sub = await rig.subscriptions.get(entry.subscription_id)
    assert sub is not None
    assert (sub.status, sub.paused_reason) == ("paused", "not-found")
    assert [(g, c) for g, c, _ in deliverer.notices] == [(41, 100)]
    assert deliverer.sends == sends
    assert by_theme(rig, "laurel_digests_failed_total") == {POTD: 1}


async def test_a_lookup_that_fails_for_now_leaves_the_row_pending_and_sends_nothing(
    rig: Rig,
) -> None:
    deliverer, entry = await stranded_after_the_window(rig)
    deliverer.lookup_failures = [TransientError("503 0: unavailable")]
    sends = deliverer.sends
    await rig.engine.run_due()
    assert len(deliverer.finds) == 1
    assert deliverer.sends == sends
    settled = await rig.engine.ledger.get(entry.id)
    assert settled is not None
    assert settled.status == "pending"
    sub = await rig.subscriptions.get(entry.subscription_id)
    assert sub is not None
    assert sub.status == "active"


async def test_a_late_post_found_by_its_lookup_is_heard_as_posted_late(rig: Rig) -> None:
    rig.deliverer = Lookups(rig.clock)
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    rig.clock.set(dt.datetime(2026, 1, 5, 11, 0, tzinfo=dt.UTC))  # down over 09:00: late
    rig.restart()
    await rig.engine.run_due()
    await rig.db.write(
        lambda c: c.execute("UPDATE digest_ledger SET status = 'pending', message_id = NULL")
    )
    rig.clock.set(rig.clock.now() + 10 * MINUTE)
    events = heard_by(rig)
    await rig.engine.run_due()
    assert sub.id is not None
    (row,) = await rig.engine.ledger.of_subscription(sub.id)
    assert (row.status, row.late) == ("sent", True)
    assert events.heard == [("posted", POTD), ("late", POTD)]


async def test_a_row_never_sent_is_given_up_once_the_catch_up_window_is_over(rig: Rig) -> None:
    rig.deliverer = Lookups(rig.clock)
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=1))
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")]
    await rig.run_until(rig.clock.now() + 2 * MINUTE, MINUTE)
    (entry,) = await rig.engine.ledger.pending()
    rig.clock.set(entry.reserved_at + dt.timedelta(hours=6, minutes=1))  # the window is 6 h
    events = heard_by(rig)  # a restart, heard by the metrics
    sends = rig.deliverer.sends
    await rig.engine.run_due()
    settled = await rig.engine.ledger.get(entry.id)
    assert settled is not None
    assert (settled.status, settled.error) == (
        "failed",
        "expired: not sent within the catch-up window",
    )
    assert rig.deliverer.sends == sends  # looked up (not there), then given up, not sent
    assert len(rig.deliverer.finds) == 1
    assert events.heard == [("failed", POTD)]


async def test_retries_back_off_doubling_up_to_the_cap_and_note_each_attempt(rig: Rig) -> None:
    settings = DigestSettings(
        requests_per_second=None, retry_attempts=5, retry_base_seconds=2, retry_max_seconds=5
    )
    rig.deliverer = Lookups(rig.clock)
    heard_by(rig, settings)
    slept_before = len(rig.clock.sleeps)
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe(role_id=77)
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")] * 3
    await rig.run_until(rig.clock.now() + MINUTE, MINUTE)
    assert rig.clock.sleeps[slept_before:] == [2, 4, 5]  # 2, 4, 8 capped at 5
    assert rig.count("laurel_digest_retries_total") == 3
    assert rig.deliverer.roles == [77] * 4  # every try carries the opted-in role
    assert rig.deliverer.sent[0].post.content.startswith("<@&77>")  # and pings it
    assert rig.deliverer.finds == []  # a channel (not a forum) is never looked up
    assert sub.id is not None
    (row,) = await rig.engine.ledger.of_subscription(sub.id)
    assert row.status == "sent"
    assert row.attempted_at == rig.clock.now()  # the last retry is noted on the row


async def test_a_forum_post_is_looked_up_before_each_retry_and_not_sent_twice(rig: Rig) -> None:
    rig.deliverer = Lookups(rig.clock)
    rig.restart()
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe(channel_id=300)
    rig.deliverer.forums.add(300)
    rig.deliverer.failures[300] = [TransientError("502 after the store")]
    await rig.run_until(rig.clock.now() + 2 * MINUTE, MINUTE)
    assert sub.id is not None
    (row,) = await rig.engine.ledger.of_subscription(sub.id)
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
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC))
    first = await rig.subscribe(channel_id=5)
    second = await rig.subscribe(channel_id=5, theme=Theme.TEST_OF_TIME)
    rig.deliverer.failures[5] = [ChannelGone("forbidden", "403 50001: Missing Access")]
    await rig.run_until(rig.clock.now() + 2 * dt.timedelta(hours=1), MINUTE * 30)
    rows = [
        row
        for sub in (first, second)
        for row in await rig.engine.ledger.of_subscription(sub.id or 0)
    ]
    assert sorted((row.status, row.error) for row in rows) == [
        ("failed", "channel paused"),
        ("failed", "forbidden"),
    ]
    assert by_theme(rig, "laurel_digests_failed_total") == {
        POTD: 1,
        Theme.TEST_OF_TIME.value: 1,
    }
    # And once paused, nothing more is even reserved for that channel.
    third = await rig.service.post_now(first, requested_by=7)
    assert third.status == "paused"
    assert rig.deliverer.requests == 1


async def test_post_now_shows_its_date_and_its_firing_names_the_same_post(rig: Rig) -> None:
    rig.clock.set(dt.datetime(2026, 11, 29, 18, 30, tzinfo=dt.UTC))
    sub = await rig.subscribe(channel_id=9)
    first = await rig.service.post_now(sub, requested_by=7)
    assert first.period is not None
    # What the scheduled firing of that period does when it comes: the ledger says done.
    again = await rig.engine.reconciler.deliver(sub, first.period, late=False)
    assert rig.deliverer.periods(9) == ["2026-11-30"]  # the next scheduled post, posted early
    assert (first.status, first.channel_id) == ("sent", 9)
    assert (again.status, again.entry_id, again.message_id, again.channel_id) == (
        "already",
        first.entry_id,
        first.message_id,
        9,
    )


async def test_a_pending_row_whose_paper_was_removed_since_is_failed_saying_so(rig: Rig) -> None:
    rig.deliverer = Lookups(rig.clock)
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=1))
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")]
    await rig.run_until(rig.clock.now() + 2 * MINUTE, MINUTE)
    (entry,) = await rig.engine.ledger.pending()
    paper = entry.content["paper"]
    await CatalogRepository(rig.db, SystemClock()).remove("paper", paper, actor="curator")
    sends = rig.deliverer.sends
    rig.clock.set(rig.clock.now() + MINUTE)
    await rig.engine.reconciler.settle(entry)
    settled = await rig.engine.ledger.get(entry.id)
    assert settled is not None
    assert (settled.status, settled.error) == ("failed", f"content removed: paper {paper}")
    assert rig.deliverer.sends == sends


async def test_a_stranded_row_at_the_nonce_windows_very_end_is_sent_again_not_looked_up(
    rig: Rig,
) -> None:
    rig.deliverer = Lookups(rig.clock)
    rig.restart()
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    await rig.run_until(rig.clock.now() + MINUTE, MINUTE)
    await rig.db.write(
        lambda c: c.execute("UPDATE digest_ledger SET status = 'pending', message_id = NULL")
    )
    assert sub.id is not None
    (entry,) = await rig.engine.ledger.of_subscription(sub.id)
    last = max(entry.reserved_at, entry.attempted_at or entry.reserved_at)
    rig.clock.set(last + dt.timedelta(seconds=DigestSettings().nonce_window_seconds))
    rig.restart()
    sends = rig.deliverer.sends
    await rig.engine.run_due()
    assert rig.deliverer.finds == []  # still inside the window: the nonce is enough
    assert rig.deliverer.sends == sends + 1
    settled = await rig.engine.ledger.get(entry.id)
    assert settled is not None
    assert settled.status == "sent"


async def test_a_stranded_forum_post_is_looked_up_even_inside_the_nonce_window(rig: Rig) -> None:
    rig.deliverer = Lookups(rig.clock)
    rig.deliverer.forums.add(300)
    rig.restart()
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe(channel_id=300)
    await rig.run_until(rig.clock.now() + MINUTE, MINUTE)
    await rig.db.write(
        lambda c: c.execute("UPDATE digest_ledger SET status = 'pending', message_id = NULL")
    )
    rig.clock.set(rig.clock.now() + MINUTE)
    rig.restart()
    sends = rig.deliverer.sends
    await rig.engine.run_due()
    assert len(rig.deliverer.finds) == 1  # a forum post takes no nonce: always looked up
    assert rig.deliverer.sends == sends
    assert sub.id is not None
    (row,) = await rig.engine.ledger.of_subscription(sub.id)
    assert (row.status, row.message_id) == ("sent", rig.deliverer.sent[0].message_id)


async def test_a_row_at_the_catch_up_windows_very_end_is_still_sent(rig: Rig) -> None:
    rig.deliverer = Lookups(rig.clock)
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=1))
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")]
    await rig.run_until(rig.clock.now() + 2 * MINUTE, MINUTE)
    (entry,) = await rig.engine.ledger.pending()
    rig.clock.set(entry.reserved_at + dt.timedelta(hours=DigestSettings().catch_up_hours))
    rig.restart()
    await rig.engine.run_due()
    settled = await rig.engine.ledger.get(entry.id)
    assert settled is not None
    assert settled.status == "sent"
    assert len(rig.deliverer.finds) == 1  # looked up (not there), then sent
