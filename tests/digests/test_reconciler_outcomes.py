"""What each outcome of a post leaves behind: the result a caller is given, the ledger row, the
metrics events, the notice the admins get, and what a second settle of one row does. Found by
mutation testing of bot/digests/reconciler.py (docs/mutation.md); every check goes through the
service's public methods, the ledger and the recording deliverer, not the reconciler's insides.
"""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from bot.digests.delivery import ChannelGone, RejectedError, TransientError
from bot.domain.subscriptions import Theme
from bot.errors import UserError
from bot.render.digest_posts import paused_notice
from bot.render.i18n import Strings
from bot.settings import DigestSettings
from tests.support.digest_recorders import Lookups, by_theme, heard_by
from tests.support.digests import Rig

MINUTE = dt.timedelta(minutes=1)
DAY = dt.timedelta(days=1)
POTD = Theme.PAPER_OF_THE_DAY.value


async def test_a_rejected_post_now_says_failed_with_its_row_and_why_and_metrics_hear_it(
    rig: Rig,
) -> None:
    events = heard_by(rig)
    rig.clock.set(dt.datetime(2026, 1, 5, 10, 0, tzinfo=dt.UTC))
    first = await rig.subscribe(channel_id=5)
    second = await rig.subscribe(channel_id=6)
    for sub in (first, second):
        rig.deliverer.failures[sub.channel_id] = [RejectedError("400 50035: Invalid Form Body")]
    results = [await rig.service.post_now(sub, requested_by=7) for sub in (first, second)]
    for sub, result in zip((first, second), results, strict=True):
        assert sub.id is not None
        (row,) = await rig.engine.ledger.of_subscription(sub.id)
        assert (row.status, row.error) == ("failed", "400 50035: Invalid Form Body")
        assert result.status == "failed"
        assert result.entry_id == row.id
        assert result.error == "400 50035: Invalid Form Body"
        assert result.message_id is None
    assert events.heard == [("failed", POTD), ("failed", POTD)]
    assert by_theme(rig, "laurel_digests_failed_total") == {POTD: 2}


async def test_a_post_given_up_after_its_retries_is_heard_once_as_failed(rig: Rig) -> None:
    events = heard_by(rig, DigestSettings(requests_per_second=None, retry_attempts=2))
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503 0: unavailable")] * 2
    await rig.run_until(rig.clock.now() + 2 * MINUTE, MINUTE)
    assert rig.deliverer.sent == []
    assert events.heard == [("failed", POTD)]
    assert sub.id is not None
    (row,) = await rig.engine.ledger.of_subscription(sub.id)
    assert (row.status, row.error) == ("pending", "503 0: unavailable")


async def test_each_lost_channel_pauses_its_digests_and_tells_its_guild_of_all_of_them(
    rig: Rig,
) -> None:
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 0, tzinfo=dt.UTC))
    first = await rig.subscribe(guild_id=41, channel_id=5)
    second = await rig.subscribe(guild_id=41, channel_id=5, theme=Theme.TEST_OF_TIME)
    other = await rig.subscribe(guild_id=42, channel_id=6, language="zh-TW")
    for channel in (5, 6):
        rig.deliverer.failures[channel] = [ChannelGone("forbidden", "403 50001: Missing Access")]
    await rig.run_until(rig.clock.now() + DAY, MINUTE * 30)
    strings = Strings.load()
    # Channel 5's notice names both of its digests, one line each, in its own guild.
    both = "\n".join(
        paused_notice(5, sub.theme, "forbidden", sub.language, strings) for sub in (first, second)
    )
    alone = paused_notice(6, other.theme, "forbidden", "zh-TW", strings)
    assert sorted(rig.deliverer.notices) == [(41, 5, both), (42, 6, alone)]
    assert rig.count("laurel_digests_paused_total", reason="forbidden") == 3


async def test_a_row_is_settled_by_one_caller_at_a_time_and_again_once_free(rig: Rig) -> None:
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=1))
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")]
    await rig.run_until(rig.clock.now() + 2 * MINUTE, MINUTE)
    (entry,) = await rig.engine.ledger.pending()
    # Two settles of one row at once (a resync and a start): one of them works on it.
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")]
    before = rig.deliverer.requests
    await asyncio.gather(rig.engine.reconciler.settle(entry), rig.engine.reconciler.settle(entry))
    assert rig.deliverer.requests == before + 1
    assert await rig.engine.ledger.pending_count() == 1
    # Once that settle is over, the row is free to be settled again: and now it goes out.
    await rig.engine.reconciler.settle(entry)
    assert rig.deliverer.periods(sub.channel_id) == ["2026-01-05"]
    assert await rig.engine.ledger.pending_count() == 0
    assert rig.count("laurel_digest_rows_settled_total") == 2  # the one turned away settled nothing


async def test_a_pending_row_of_a_digest_paused_since_is_failed_saying_so(rig: Rig) -> None:
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=1))
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")]
    await rig.run_until(rig.clock.now() + 2 * MINUTE, MINUTE)
    (entry,) = await rig.engine.ledger.pending()
    await rig.subscriptions.pause_channel(sub.channel_id, "not-found")
    requests = rig.deliverer.requests
    await rig.engine.reconciler.settle(entry)
    settled = await rig.engine.ledger.get(entry.id)
    assert settled is not None
    assert (settled.status, settled.error) == ("failed", "paused (not-found)")
    assert rig.deliverer.requests == requests  # nothing sent to a paused channel


async def test_posts_to_one_channel_go_one_at_a_time_so_a_403_stops_the_next(rig: Rig) -> None:
    rig.deliverer = Lookups(rig.clock, slow=True, together=2)
    rig.restart()
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    themes = (Theme.PAPER_OF_THE_DAY, Theme.TEST_OF_TIME, Theme.VENUE_SPOTLIGHT)
    subs = [await rig.subscribe(channel_id=5, theme=theme, days={0}) for theme in themes]
    elsewhere = await rig.subscribe(channel_id=6)
    rig.deliverer.failures[5] = [ChannelGone("forbidden", "403 50001: Missing Access")] * 3
    await rig.run_until(rig.clock.now() + MINUTE, MINUTE)
    # Channel 5: one request; the others waited for it, then saw the channel gone.
    assert [s.channel_id for s in rig.deliverer.sent] == [6]
    assert rig.deliverer.sends == 2
    assert len(rig.deliverer.notices) == 1
    rows = [row for sub in subs for row in await rig.engine.ledger.of_subscription(sub.id or 0)]
    assert sorted((row.status, row.error) for row in rows) == [
        ("failed", "channel paused"),
        ("failed", "channel paused"),
        ("failed", "forbidden"),
    ]
    assert by_theme(rig, "laurel_digests_failed_total") == {theme.value: 1 for theme in themes}
    # Another channel's post did not wait for channel 5's: the two were in flight together.
    assert rig.deliverer.most_at_once == 2
    assert elsewhere.id is not None
    (posted,) = await rig.engine.ledger.of_subscription(elsewhere.id)
    assert posted.status == "sent"


async def test_asking_again_for_a_post_still_pending_does_not_send_it_again(rig: Rig) -> None:
    rig.deliverer = Lookups(rig.clock)
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=1))
    rig.clock.set(dt.datetime(2026, 1, 5, 10, 0, tzinfo=dt.UTC))
    sub = await rig.subscribe()
    rig.deliverer.failures[sub.channel_id] = [TransientError("503")]
    first = await rig.service.post_now(sub, requested_by=7)
    assert (first.status, first.error) == ("pending", "503")  # the curator is told why
    again = await rig.service.post_now(sub, requested_by=7)
    assert (again.status, again.entry_id) == ("already", first.entry_id)
    assert rig.deliverer.sends == 1  # left to settling, not sent by a second click
    assert await rig.engine.ledger.pending_count() == 1


async def test_a_post_now_with_nothing_new_is_refused_and_nothing_is_sent_or_failed(
    rig: Rig,
) -> None:
    events = heard_by(rig)
    rig.clock.set(dt.datetime(2026, 1, 5, 10, 0, tzinfo=dt.UTC))
    sub = await rig.subscribe(theme=Theme.NEW_AWARDS)
    for minutes in (0, 1):  # two periods (a manual one is by the minute): two empty rows
        rig.clock.advance(minutes * MINUTE.total_seconds())
        with pytest.raises(UserError) as refused:
            await rig.service.post_now(sub, requested_by=7)
        assert refused.value.key == "digests-nothing-new"
    assert sub.id is not None
    assert [r.status for r in await rig.engine.ledger.of_subscription(sub.id)] == [
        "empty",
        "empty",
    ]
    assert rig.deliverer.requests == 0
    assert events.heard == []  # nothing failed: there was nothing to post
    assert by_theme(rig, "laurel_digests_empty_total") == {Theme.NEW_AWARDS.value: 2}


class Held(Lookups):
    """Every send waits for `gate` and then fails for now (a 503); every lookup finds the
    channel gone (a 404)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.gate = asyncio.Event()
        self.waiting = asyncio.Event()

    async def send(self, channel_id: int, post: object, **fields: object) -> int:
        self.sends += 1
        self.waiting.set()
        await self.gate.wait()
        raise TransientError("503 0: unavailable")

    async def find(self, channel_id: int, **fields: object) -> int | None:
        self.finds.append({"channel_id": channel_id})
        raise ChannelGone("not-found", "404 10003: Unknown Channel")


async def test_a_post_whose_channel_is_lost_while_its_try_waits_fails_without_a_retry(
    rig: Rig,
) -> None:
    # A row stranded in channel 5, past the nonce window: settling it looks it up.
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=1))
    rig.clock.set(dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC))
    await rig.subscribe(channel_id=5)
    rig.deliverer.failures[5] = [TransientError("503")]
    await rig.run_until(rig.clock.now() + 2 * MINUTE, MINUTE)
    (entry,) = await rig.engine.ledger.pending()
    rig.clock.set(rig.clock.now() + 10 * MINUTE)
    # Another digest of that channel is being sent, its first try awaiting Discord's answer,
    # when that lookup finds the channel gone; then the try fails for now (a 503).
    held = Held(rig.clock)
    rig.deliverer = held
    heard_by(rig, DigestSettings(requests_per_second=None, retry_attempts=3))
    other = await rig.subscribe(channel_id=5, theme=Theme.TEST_OF_TIME)
    posting = asyncio.create_task(rig.service.post_now(other, requested_by=7))
    await held.waiting.wait()
    await rig.engine.reconciler.settle(entry)
    assert held.finds == [{"channel_id": 5}]
    slept, retried = len(rig.clock.sleeps), rig.count("laurel_digest_retries_total")
    held.gate.set()
    result = await posting
    # Not retried into a channel known to be gone: no back-off, no second try, no note.
    assert (result.status, result.error) == ("failed", "channel paused")
    assert len(rig.clock.sleeps) == slept
    assert rig.count("laurel_digest_retries_total") == retried
    assert held.sends == 1
    assert other.id is not None
    (row,) = await rig.engine.ledger.of_subscription(other.id)
    assert (row.status, row.error) == ("failed", "channel paused")
    assert row.attempted_at == row.reserved_at  # its one try, noted when it was reserved


async def test_a_row_whose_first_send_is_in_flight_is_not_settled_beside_it(rig: Rig) -> None:
    held = Held(rig.clock)
    rig.deliverer = held
    rig.restart(DigestSettings(requests_per_second=None, retry_attempts=1))
    rig.clock.set(dt.datetime(2026, 1, 5, 10, 0, tzinfo=dt.UTC))
    sub = await rig.subscribe(channel_id=5)
    posting = asyncio.create_task(rig.service.post_now(sub, requested_by=7))
    await held.waiting.wait()
    (entry,) = await rig.engine.ledger.pending()
    # A resync meets the row while its first send awaits Discord: it leaves it to that send
    # (no lookup, no second send), at once.
    await asyncio.wait_for(rig.engine.reconciler.settle(entry), timeout=5)
    assert (held.sends, held.finds) == (1, [])
    held.gate.set()
    result = await posting
    assert (result.status, held.sends) == ("pending", 1)
