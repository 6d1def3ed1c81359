"""The ledger's promises on real SQLite: once per period, catch-up once, pauses, retries."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.digests.delivery import ChannelGone, RejectedError, TransientError
from bot.domain.clock import SystemClock
from bot.domain.models import Award, AwardKind, CatalogBatch, Paper
from bot.domain.shards import Shards
from bot.domain.subscriptions import DigestFilter, ScheduledRow, Subscription, Theme
from bot.settings import DigestSettings
from bot.store.catalog.repository import CatalogRepository
from bot.store.digest_content import DigestContentRepository
from tests.support.digests import Rig

DAY = dt.timedelta(days=1)
MINUTE = dt.timedelta(minutes=1)


async def test_subscribing_never_floods_and_two_runs_post_once(rig: Rig) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 9, 5, tzinfo=dt.UTC))  # after today's 09:00
    sub = await rig.subscribe()
    await rig.run_until(rig.clock.now() + 23 * dt.timedelta(hours=1), MINUTE * 10)
    assert rig.deliverer.sent == []
    rig.clock.set(dt.datetime(2026, 1, 6, 9, 0, tzinfo=dt.UTC))
    other = rig.restart()  # a second engine on the same database, same instant
    assert rig.engine is other
    await rig.engine.ticker.tick()
    await rig.engine.run_due()
    rig.restart()
    await rig.engine.run_due()
    assert rig.deliverer.periods(sub.channel_id) == ["2026-01-06"]


async def test_a_missed_period_is_caught_up_once_and_marked_late(rig: Rig) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    # Down from 08:00 on the 5th until 11:00 on the 7th: three firings missed.
    rig.clock.set(dt.datetime(2026, 1, 7, 11, 0, tzinfo=dt.UTC))
    rig.restart()
    await rig.engine.run_due()
    assert rig.deliverer.periods(sub.channel_id) == ["2026-01-07"]  # the latest only
    assert sub.id is not None
    (row,) = await rig.engine.ledger.of_subscription(sub.id)
    assert row.late
    assert "late" in rig.deliverer.sent[0].post.content
    assert rig.count("laurel_digests_late_total", theme="paper-of-the-day") == 1
    rig.clock.set(rig.clock.now() + MINUTE)
    rig.restart()  # a second restart does not catch up again
    await rig.engine.run_due()
    assert len(rig.deliverer.sent) == 1


async def test_nothing_is_caught_up_beyond_the_window(rig: Rig) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC))
    await rig.subscribe()
    rig.clock.set(dt.datetime(2026, 1, 5, 16, 0, tzinfo=dt.UTC))  # 7 h late; window 6 h
    rig.restart()
    await rig.engine.run_due()
    assert rig.deliverer.sent == []


async def test_lost_access_pauses_the_channel_and_tells_admins_once(rig: Rig) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC))
    first = await rig.subscribe(channel_id=5)
    second = await rig.subscribe(channel_id=5, theme=Theme.TEST_OF_TIME)
    elsewhere = await rig.subscribe(channel_id=6)
    rig.deliverer.failures[5] = [ChannelGone("forbidden", "403 50001: Missing Access")] * 2
    await rig.run_until(rig.clock.now() + 3 * DAY, MINUTE * 30)
    for sub in (first, second):
        assert sub.id is not None
        stored = await rig.subscriptions.get(sub.id)
        assert stored is not None
        assert (stored.status, stored.paused_reason) == ("paused", "forbidden")
    assert len(rig.deliverer.notices) == 1
    assert "<#5>" in rig.deliverer.notices[0][2]
    # One request reached channel 5 (the other post saw the pause); channel 6 went on daily.
    assert len(rig.deliverer.failures[5]) == 1
    assert len(rig.deliverer.periods(elsewhere.channel_id)) == 3
    assert rig.count("laurel_digests_paused_total", reason="forbidden") == 2


async def test_transient_errors_are_retried_without_a_duplicate(rig: Rig) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [
        TransientError("429 0: rate limited"),
        TransientError("503 0: unavailable"),
    ]
    await rig.run_until(rig.clock.now() + 2 * dt.timedelta(hours=1), MINUTE * 5)
    assert rig.deliverer.periods(sub.channel_id) == ["2026-01-05"]
    assert rig.count("laurel_digest_retries_total") == 2
    assert rig.count("laurel_digests_posted_total", theme="paper-of-the-day") == 1


async def test_retries_exhausted_leave_the_row_pending_for_the_next_start(rig: Rig) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=2))
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")] * 2
    await rig.run_until(rig.clock.now() + 2 * MINUTE, MINUTE)
    assert rig.deliverer.sent == []
    assert await rig.engine.ledger.pending_count() == 1
    # Restarted within the nonce window: sent again, same nonce.
    rig.clock.set(rig.clock.now() + MINUTE)
    rig.restart()
    await rig.engine.run_due()
    assert rig.deliverer.periods(sub.channel_id) == ["2026-01-05"]
    assert await rig.engine.ledger.pending_count() == 0


async def test_a_row_whose_retries_ran_out_is_settled_again_without_a_restart(rig: Rig) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=2))
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")] * 2  # Discord down a while
    await rig.run_until(rig.clock.now() + 2 * MINUTE, MINUTE)
    assert rig.deliverer.sent == []
    assert await rig.engine.ledger.pending_count() == 1
    # The same process goes on ticking; within a resync or two the row is settled: looked up
    # (not found) and sent once, with its own nonce.
    await rig.run_until(rig.clock.now() + 30 * MINUTE, MINUTE)
    assert rig.deliverer.periods(sub.channel_id) == ["2026-01-05"]
    assert await rig.engine.ledger.pending_count() == 0
    await rig.run_until(rig.clock.now() + 30 * MINUTE, MINUTE)
    assert len(rig.deliverer.sent) == 1  # and never again


async def test_settling_after_the_nonce_window_looks_before_sending(rig: Rig) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    rig.clock.set(rig.clock.now() + MINUTE)
    await rig.engine.run_due()
    assert sub.id is not None
    (row,) = await rig.engine.ledger.of_subscription(sub.id)
    # As if the process died after Discord stored the message but before the row was marked.
    await rig.db.write(
        lambda c: c.execute("UPDATE digest_ledger SET status = 'pending', message_id = NULL")
    )
    # Past the nonce window: a re-send would not be de-duplicated.
    rig.clock.set(rig.clock.now() + 10 * MINUTE)
    requests = rig.deliverer.requests
    rig.restart()
    await rig.engine.run_due()
    assert len(rig.deliverer.sent) == 1
    assert rig.deliverer.requests == requests + 1  # one lookup, no send
    settled = await rig.engine.ledger.get(row.id)
    assert settled is not None
    assert (settled.status, settled.message_id) == ("sent", rig.deliverer.sent[0].message_id)


async def test_a_rejected_post_is_failed_not_retried(rig: Rig) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [RejectedError("400 50035: Invalid Form Body")]
    await rig.run_until(rig.clock.now() + 2 * MINUTE, MINUTE)
    assert sub.id is not None
    (row,) = await rig.engine.ledger.of_subscription(sub.id)
    assert (row.status, row.error) == ("failed", "400 50035: Invalid Form Body")
    assert rig.deliverer.requests == 1


async def test_paper_of_the_day_never_repeats_within_its_filtered_catalogue(rig: Rig) -> None:
    filters = DigestFilter(venue="icml", year_from=2024, year_to=2025)
    ids = await DigestContentRepository(rig.db).paper_ids(filters)
    assert 3 <= len(ids) <= 60
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC))
    sub = await rig.subscribe(filters=filters)
    await rig.run_until(rig.clock.now() + len(ids) * DAY, dt.timedelta(hours=6))
    assert sub.id is not None
    rows = await rig.engine.ledger.of_subscription(sub.id)
    shown = [row.content["paper"] for row in rows]
    assert sorted(shown) == sorted(ids)


async def test_new_awards_post_only_when_curators_add_some(rig: Rig) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC))  # a Monday
    sub = await rig.subscribe(theme=Theme.NEW_AWARDS)
    await rig.run_until(rig.clock.now() + 7 * DAY, dt.timedelta(hours=6))
    assert rig.deliverer.sent == []  # the bundled catalogue is not news
    award = Award(
        venue="icml",
        year=2025,
        name="Outstanding Paper",
        kind=AwardKind.OUTSTANDING,
        paper=Paper(title="A Freshly Awarded Paper About Digests"),
    )
    await CatalogRepository(rig.db, SystemClock()).apply(
        CatalogBatch(awards=(award,)), actor="t", policy="update"
    )
    await rig.run_until(rig.clock.now() + 7 * DAY, dt.timedelta(hours=6))
    (sent,) = rig.deliverer.sent
    assert "A Freshly Awarded Paper About Digests" in (sent.post.embeds[0].description or "")
    assert sub.id is not None
    statuses = [r.status for r in await rig.engine.ledger.of_subscription(sub.id)]
    assert statuses == ["empty", "sent"]


async def test_post_now_posts_the_previewed_post_once_and_preview_writes_nothing(
    rig: Rig,
) -> None:
    """Post-now posts the post the preview showed, under its period; a second one posts the
    post after it, each once (issue 25, item 7: no manual period of its own)."""
    rig.clock.set(dt.datetime(2026, 1, 5, 10, 0, 5, tzinfo=dt.UTC))
    sub = await rig.subscribe(theme=Theme.BY_THE_NUMBERS, filters=DigestFilter(venue="neurips"))
    preview = await rig.service.preview(sub)
    assert preview.files
    assert preview.files[0][1].startswith(b"\x89PNG")
    assert sub.id is not None
    assert await rig.engine.ledger.of_subscription(sub.id) == []
    first = await rig.service.post_now(sub, requested_by=7)
    rig.clock.set(rig.clock.now() + dt.timedelta(seconds=20))
    second = await rig.service.post_now(sub, requested_by=7)
    assert (first.status, second.status) == ("sent", "sent")
    assert second.message_id != first.message_id
    rows = await rig.engine.ledger.of_subscription(sub.id)
    assert [r.period for r in rows] == ["2026-W03", "2026-W04"]  # a weekly: the next two weeks
    assert len(rig.deliverer.sent) == 2


async def test_a_paper_a_curator_removed_is_never_picked(rig: Rig) -> None:
    filters = DigestFilter(venue="icml", year_from=2024, year_to=2025)
    ids = await DigestContentRepository(rig.db).paper_ids(filters)
    removed = ids[len(ids) // 2]
    await CatalogRepository(rig.db, SystemClock()).remove("paper", removed, actor="curator")
    assert removed not in await DigestContentRepository(rig.db).paper_ids(filters)
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC))
    sub = await rig.subscribe(filters=filters)
    # A whole cycle and into the next: every other paper shown, the removed one never.
    await rig.run_until(rig.clock.now() + (len(ids) + 2) * DAY, dt.timedelta(hours=6))
    assert sub.id is not None
    shown = [row.content["paper"] for row in await rig.engine.ledger.of_subscription(sub.id)]
    assert len(shown) == len(ids) + 2
    assert removed not in shown
    assert set(shown) == set(ids) - {removed}


async def test_a_subscription_made_while_the_first_schedule_is_read_is_kept(
    rig: Rig, monkeypatch: pytest.MonkeyPatch
) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC))
    repository = rig.subscriptions  # the one the engine reads too
    read = repository.active_timings
    made: list[Subscription] = []

    async def read_then_subscribe(shards: Shards | None = None) -> list[ScheduledRow]:
        found = await read(shards)
        if not made:  # a /digest subscribe lands between the read and the schedule's update
            made.append(await rig.subscribe())
        return found

    monkeypatch.setattr(repository, "active_timings", read_then_subscribe)
    await rig.run_until(dt.datetime(2026, 1, 5, 9, 30, tzinfo=dt.UTC), MINUTE * 10)
    (sub,) = made
    assert rig.deliverer.periods(sub.channel_id) == ["2026-01-05"]


async def test_the_schedule_keeps_timings_not_subscriptions(rig: Rig) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC))
    subs = [await rig.subscribe(channel_id=200 + n) for n in range(5)]
    rig.restart()
    await rig.engine.ticker.tick()  # builds the schedule from the store
    slots = rig.engine.due.slots()
    assert sorted(slots) == sorted(s.id or 0 for s in subs)
    assert not any(isinstance(part, Subscription) for slot in slots.values() for part in slot)
    assert len({id(timing) for _, timing, _ in slots.values()}) == 1  # one shared timing
    # Due: each is read from the store and posted, with what the store holds now.
    await rig.subscriptions.update(subs[0].model_copy(update={"language": "zh-TW"}))
    await rig.run_until(dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC), MINUTE * 60)
    assert [rig.deliverer.periods(s.channel_id) for s in subs] == [["2026-01-05"]] * 5
    names = {s.channel_id: s.thread_name for s in rig.deliverer.sent}
    assert names[subs[0].channel_id] != names[subs[1].channel_id]  # in Traditional Chinese


async def test_a_subscription_removed_since_the_resync_is_not_posted(rig: Rig) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC))
    kept = await rig.subscribe(channel_id=300)
    gone = await rig.subscribe(channel_id=301)
    await rig.engine.ticker.tick()
    await rig.subscriptions.remove(gone.id or 0)  # not through the commands: still scheduled
    await rig.run_until(dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC), MINUTE * 60)
    assert rig.deliverer.periods(kept.channel_id) == ["2026-01-05"]
    assert rig.deliverer.periods(gone.channel_id) == []


async def test_after_a_graceful_stop_nothing_is_reserved_and_the_next_start_posts_it(
    rig: Rig,
) -> None:
    """`close` (SIGTERM, `docker stop`) reserves nothing new: a firing that comes while the
    process is stopping leaves no ledger row and sends nothing; the next start posts it once
    (the subprocess test in tests/reliability/test_digest_stop.py shows the same end to end)."""
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    assert sub.id is not None
    await rig.engine.close()
    await rig.run_until(dt.datetime(2026, 1, 5, 9, 2, tzinfo=dt.UTC), MINUTE)
    assert await rig.engine.ledger.of_subscription(sub.id) == []
    assert rig.deliverer.sent == []
    rig.restart()
    await rig.engine.run_due()
    assert rig.deliverer.periods(sub.channel_id) == ["2026-01-05"]
