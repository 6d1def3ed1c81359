"""One metrics path: what the engine counts (posted, late, failed, empty, paused, retried,
settled) reaches the Prometheus exposition, where the tests read it too; and the reconciler's
own answers about the channels it closed and the rows in its hands."""

from __future__ import annotations

import datetime as dt

from bot.digests.delivery import ChannelGone, TransientError
from bot.domain.subscriptions import Theme
from bot.settings import DigestSettings
from tests.support.digests import Rig

DAY = dt.timedelta(days=1)
MINUTE = dt.timedelta(minutes=1)
MONDAY_0800 = dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC)


async def scraped(rig: Rig) -> list[str]:
    """The exposition's sample lines for the digests, as a scrape would read them."""
    text = (await rig.metrics.render()).decode()
    return [line for line in text.splitlines() if line.startswith("laurel_digest")]


async def test_an_empty_post_is_counted_in_prometheus(rig: Rig) -> None:
    rig.clock.set(MONDAY_0800)
    await rig.subscribe(theme=Theme.NEW_AWARDS, days={0})
    await rig.run_until(MONDAY_0800 + DAY, dt.timedelta(hours=6))
    assert rig.deliverer.sent == []
    assert 'laurel_digests_empty_total{theme="new-awards"} 1.0' in await scraped(rig)


async def test_pauses_retries_and_settled_rows_are_counted_in_prometheus(rig: Rig) -> None:
    rig.clock.set(MONDAY_0800)
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=2))
    gone = await rig.subscribe(channel_id=5)
    await rig.subscribe(channel_id=5, theme=Theme.TEST_OF_TIME)
    flaky = await rig.subscribe(channel_id=6)
    rig.deliverer.failures[gone.channel_id] = [ChannelGone("forbidden", "403")]
    rig.deliverer.failures[flaky.channel_id] = [TransientError("503")] * 2
    await rig.run_until(MONDAY_0800 + 61 * MINUTE, MINUTE)
    lines = await scraped(rig)
    assert 'laurel_digests_paused_total{reason="forbidden"} 2.0' in lines  # both in channel 5
    assert "laurel_digest_retries_total 1.0" in lines  # flaky's second try
    assert 'laurel_digests_failed_total{theme="paper-of-the-day"} 2.0' in lines
    assert "laurel_digest_rows_settled_total 0.0" in lines
    rig.restart()  # flaky's row is pending: the next start settles it (re-sent, same nonce)
    await rig.engine.run_due()
    assert rig.deliverer.periods(flaky.channel_id) == ["2026-01-05"]
    lines = await scraped(rig)
    assert "laurel_digest_rows_settled_total 1.0" in lines
    assert 'laurel_digests_posted_total{theme="paper-of-the-day"} 1.0' in lines


async def test_a_closed_channel_reopens_when_a_digest_there_is_resumed(rig: Rig) -> None:
    rig.clock.set(MONDAY_0800)
    sub = await rig.subscribe(channel_id=5)
    rig.deliverer.failures[5] = [ChannelGone("forbidden", "403")]
    await rig.run_until(MONDAY_0800 + 2 * dt.timedelta(hours=1), 10 * MINUTE)
    assert rig.engine.reconciler.is_closed(5)
    assert rig.engine.reconciler.in_hand() == frozenset()  # nothing left half-done
    assert sub.id is not None
    resumed = await rig.subscriptions.set_status(sub.id, "active", None)
    rig.service.scheduled(resumed)  # what /digest resume does
    assert not rig.engine.reconciler.is_closed(5)
    await rig.run_until(MONDAY_0800 + DAY + dt.timedelta(hours=2), 10 * MINUTE)
    assert rig.deliverer.periods(5) == ["2026-01-06"]


async def test_a_post_made_by_hand_is_the_next_scheduled_post_and_is_never_posted_twice(
    rig: Rig,
) -> None:
    """Post-now posts the next scheduled post early, under its own period (issue 25, item 7):
    a second one posts the post after it, and when the schedule reaches those firings (a
    restart among them) the ledger says they are done; the firing after them posts."""
    rig.clock.set(dt.datetime(2026, 1, 5, 18, 30, 10, tzinfo=dt.UTC))  # Monday's 09:00 is past
    sub = await rig.subscribe(channel_id=9)
    first = await rig.service.post_now(sub, requested_by=7)
    second = await rig.service.post_now(sub, requested_by=7)
    assert (first.status, second.status) == ("sent", "sent")
    assert (first.period and first.period.shown, second.period and second.period.shown) == (
        "2026-01-06",
        "2026-01-07",
    )
    assert sub.id is not None
    rows = await rig.engine.ledger.of_subscription(sub.id)
    assert [r.period for r in rows] == ["2026-01-06", "2026-01-07"]
    assert rig.deliverer.periods(9) == ["2026-01-06", "2026-01-07"]  # the date, not the key
    await rig.run_until(dt.datetime(2026, 1, 6, 12, 0, tzinfo=dt.UTC), 10 * MINUTE)
    rig.restart()  # a start after Wednesday's firing does not count it missed either
    rig.clock.set(dt.datetime(2026, 1, 7, 10, 0, tzinfo=dt.UTC))
    await rig.run_until(dt.datetime(2026, 1, 8, 12, 0, tzinfo=dt.UTC), 10 * MINUTE)
    assert rig.deliverer.periods(9) == ["2026-01-06", "2026-01-07", "2026-01-08"]
    assert 'laurel_digests_posted_total{theme="paper-of-the-day"} 3.0' in await scraped(rig)
