"""The digest ledger on its own, on real SQLite: every read returns what was written, field by
field, and every write touches its own row only. The reconciler's tests (tests/digests) use the
ledger through the service; these pin what mutation testing found they leave open
(docs/mutation.md)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import pytest

from bot.domain.ledger import Choice, LedgerEntry
from bot.domain.subscriptions import CycleState, Subscription, Theme
from bot.store.database import Database
from bot.store.ledger import LedgerRepository
from bot.store.subscriptions import SubscriptionRepository

NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
LATER = NOW + dt.timedelta(minutes=5)
CONTENT = {"paper": 7, "title": "Attention"}


async def subscription(db: Database, channel_id: int = 20) -> int:
    added = await SubscriptionRepository(db).add(
        Subscription.model_validate(
            {
                "guild_id": 10,
                "channel_id": channel_id,
                "theme": Theme.PAPER_OF_THE_DAY,
                "time": dt.time(9, 0),
                "timezone": "UTC",
                "created_by": 3,
                "created_at": NOW,
            }
        )
    )
    assert added.id is not None
    return added.id


def picks(choice: Choice, seen: list[tuple[CycleState, int]] | None = None) -> Any:
    def choose(cycle: CycleState, watermark: int) -> Choice:
        if seen is not None:
            seen.append((cycle, watermark))
        return choice

    return choose


async def reserve(
    ledger: LedgerRepository,
    sub_id: int,
    period: str = "2026-11-29",
    choice: Choice | None = None,
    *,
    late: bool = False,
    now: dt.datetime = NOW,
) -> tuple[LedgerEntry, bool]:
    return await ledger.reserve(
        sub_id,
        period,
        "paper-of-the-day",
        late=late,
        now=now,
        choose=picks(choice or Choice(content=CONTENT)),
    )


async def test_a_reservation_is_a_pending_row_with_a_nonce_naming_it(db: Database) -> None:
    ledger = LedgerRepository(db)
    sub_id = await subscription(db)
    entry, made = await reserve(ledger, sub_id, late=True)
    assert made
    assert entry.subscription_id == sub_id
    assert (entry.period, entry.status, entry.theme) == (
        "2026-11-29",
        "pending",
        "paper-of-the-day",
    )
    assert entry.late is True
    assert entry.content == CONTENT
    assert entry.reserved_at == NOW
    assert (entry.attempted_at, entry.sent_at, entry.message_id, entry.error) == (None,) * 4
    # "L", the row, and a random salt of 6 hex digits: a restored or rebuilt database that
    # reuses row ids does not repeat (but by a 1 in 16.7 million chance) a nonce Discord or a
    # marker lookup has already seen, and the nonce keeps within Discord's 25 characters for
    # any row id up to 17 digits.
    assert re.fullmatch(rf"L{entry.id}-[0-9a-f]{{6}}", entry.nonce), entry.nonce
    assert await ledger.get(entry.id) == entry
    assert await ledger.find(sub_id, "2026-11-29") == entry
    assert await ledger.of_subscription(sub_id) == [entry]
    assert await ledger.pending() == [entry]
    assert await ledger.pending_count() == 1
    again, _ = await reserve(ledger, await subscription(db, channel_id=21))
    assert again.nonce.split("-")[1] != entry.nonce.split("-")[1]  # 1 in 16.7 million alike


async def test_a_second_reservation_returns_the_first_row_and_does_not_choose(
    db: Database,
) -> None:
    ledger = LedgerRepository(db)
    sub_id = await subscription(db)
    first, _ = await reserve(ledger, sub_id)
    seen: list[tuple[CycleState, int]] = []
    again, made = await ledger.reserve(
        sub_id,
        "2026-11-29",
        "paper-of-the-day",
        late=False,
        now=LATER,
        choose=picks(Choice(), seen),
    )
    assert (again, made, seen) == (first, False, [])


async def test_nothing_to_post_is_an_empty_row_and_not_pending(db: Database) -> None:
    ledger = LedgerRepository(db)
    sub_id = await subscription(db)
    entry, made = await reserve(ledger, sub_id, choice=Choice())
    assert made
    assert (entry.status, entry.content, entry.late) == ("empty", {}, False)
    assert await ledger.pending() == []
    assert await ledger.pending_count() == 0


async def test_the_picker_state_is_stored_with_the_row_and_handed_to_the_next_choice(
    db: Database,
) -> None:
    ledger = LedgerRepository(db)
    sub_id = await subscription(db)
    assert await ledger.cycle_state(sub_id) == CycleState()
    cycle = CycleState(cycle=3, shown=(5, 8))
    await reserve(ledger, sub_id, choice=Choice(content=CONTENT, cycle=cycle, watermark=41))
    assert await ledger.cycle_state(sub_id) == cycle
    assert await SubscriptionRepository(db).audit_watermark(sub_id) == 41

    seen: list[tuple[CycleState, int]] = []
    later = Choice(content=CONTENT, cycle=CycleState(cycle=4, shown=(1,)))
    await ledger.reserve(
        sub_id, "2026-11-30", "paper-of-the-day", late=False, now=LATER, choose=picks(later, seen)
    )
    assert seen == [(cycle, 41)]
    assert await ledger.cycle_state(sub_id) == CycleState(cycle=4, shown=(1,))
    assert await SubscriptionRepository(db).audit_watermark(sub_id) == 41  # None: unchanged


async def test_a_reservation_for_no_subscription_is_refused(db: Database) -> None:
    with pytest.raises(LookupError, match="no subscription 404"):
        await reserve(LedgerRepository(db), 404)


async def test_reads_keep_subscriptions_and_periods_apart(db: Database) -> None:
    ledger = LedgerRepository(db)
    a, b = await subscription(db), await subscription(db, channel_id=21)
    a1, _ = await reserve(ledger, a, "2026-11-28", now=NOW - dt.timedelta(days=1))
    a2, _ = await reserve(ledger, a, "2026-11-29")
    b1, _ = await reserve(ledger, b, "2026-11-29")
    assert await ledger.find(a, "2026-11-29") == a2
    assert await ledger.find(b, "2026-11-28") is None
    assert await ledger.get(a2.id + b1.id + 100) is None
    assert await ledger.of_subscription(a) == [a1, a2]
    assert await ledger.of_subscription(b) == [b1]
    assert await ledger.periods_since(NOW) == {(a, "2026-11-29"), (b, "2026-11-29")}
    assert await ledger.periods_since(NOW - dt.timedelta(days=2)) == {
        (a, "2026-11-28"),
        (a, "2026-11-29"),
        (b, "2026-11-29"),
    }
    assert [e.id for e in await ledger.pending()] == [a1.id, a2.id, b1.id]
    assert await ledger.pending_count() == 3


async def test_held_names_the_periods_of_one_subscription_that_have_a_row(db: Database) -> None:
    """What `/digest post-now` reads to find the next post still to make (issue 25, item 7):
    rows of any status count, another subscription's do not, an old manual key is kept."""
    ledger = LedgerRepository(db)
    a, b = await subscription(db), await subscription(db, channel_id=21)
    sent, _ = await reserve(ledger, a, "2026-11-30")
    await ledger.mark_sent(sent.id, 555, LATER)
    await reserve(ledger, a, "2026-12-01")
    await reserve(ledger, a, "now-20261129T1830")
    await reserve(ledger, b, "2026-12-02")
    asked = ["2026-11-30", "2026-12-01", "2026-12-02", "now-20261129T1830"]
    assert await ledger.held(a, asked) == {
        "2026-11-30": "sent",
        "2026-12-01": "pending",
        "now-20261129T1830": "pending",
    }
    assert await ledger.held(b, ["2026-11-30"]) == {}
    assert await ledger.held(a, []) == {}


async def test_settling_a_row_changes_that_row_alone(db: Database) -> None:
    ledger = LedgerRepository(db)
    sub_id = await subscription(db)
    sent, _ = await reserve(ledger, sub_id, "2026-11-27")
    failed, _ = await reserve(ledger, sub_id, "2026-11-28")
    waiting, _ = await reserve(ledger, sub_id, "2026-11-29")

    await ledger.attempted(sent.id, LATER)
    await ledger.note_error(sent.id, "503 Service Unavailable")
    noted = await ledger.get(sent.id)
    assert noted is not None
    assert (noted.status, noted.attempted_at, noted.error) == (
        "pending",
        LATER,
        "503 Service Unavailable",
    )
    await ledger.mark_sent(sent.id, 555, LATER)
    await ledger.mark_failed(failed.id, "403 Missing Access", LATER)

    done, gave_up, untouched = (
        await ledger.get(sent.id),
        await ledger.get(failed.id),
        await ledger.get(waiting.id),
    )
    assert done is not None
    assert gave_up is not None
    assert (done.status, done.message_id, done.sent_at, done.error) == ("sent", 555, LATER, None)
    assert (gave_up.status, gave_up.error, gave_up.attempted_at) == (
        "failed",
        "403 Missing Access",
        LATER,
    )
    assert (gave_up.message_id, gave_up.sent_at) == (None, None)
    assert untouched == waiting
    assert await ledger.pending() == [waiting]
    assert await ledger.pending_count() == 1


async def test_the_last_sent_post_is_the_latest_sent_row_of_that_subscription(
    db: Database,
) -> None:
    """What `/digest list` shows an admin: the latest post that went out, never one still
    pending or given up, nor another subscription's."""
    ledger = LedgerRepository(db)
    sub_id, other = await subscription(db), await subscription(db, channel_id=21)
    assert await ledger.last_sent(sub_id) is None
    first, _ = await reserve(ledger, sub_id, "2026-11-26")
    second, _ = await reserve(ledger, sub_id, "2026-11-27")
    failed, _ = await reserve(ledger, sub_id, "2026-11-28")
    await reserve(ledger, sub_id, "2026-11-29")  # still pending
    elsewhere, _ = await reserve(ledger, other, "2026-11-30")
    assert await ledger.last_sent(sub_id) is None  # nothing sent yet
    await ledger.mark_sent(second.id, 502, LATER)
    await ledger.mark_sent(first.id, 501, LATER + dt.timedelta(minutes=1))
    await ledger.mark_failed(failed.id, "403 Missing Access", LATER)
    await ledger.mark_sent(elsewhere.id, 503, LATER)
    last = await ledger.last_sent(sub_id)
    assert last is not None
    # The latest row sent, by its place in the ledger (a late first post settled after the
    # second is still the older post).
    assert (last.id, last.period, last.message_id, last.status) == (
        second.id,
        "2026-11-27",
        502,
        "sent",
    )
    assert last == await ledger.get(second.id)
    elsewhere_last = await ledger.last_sent(other)
    assert elsewhere_last is not None
    assert elsewhere_last.message_id == 503
