"""The due set on its own: pure bookkeeping, given its instants (no store, no clock)."""

from __future__ import annotations

import dataclasses
import datetime as dt

from bot.digests.periods import next_firing
from bot.digests.schedule import Due, DueSet
from bot.domain.subscriptions import Cadence, ScheduledRow, Timing
from bot.settings import DigestSettings

NINE = Timing(Cadence.DAILY, frozenset(range(7)), dt.time(9, 0), "UTC")
MONDAY = dt.datetime(2026, 1, 5, tzinfo=dt.UTC)
SETTINGS = DigestSettings(catch_up_hours=6, late_after_minutes=5)


def row(sub_id: int, mark: int = 1, created: dt.datetime | None = None) -> ScheduledRow:
    """A stored subscription at 09:00 UTC daily, its timing an equal object of its own."""
    created = created or MONDAY - dt.timedelta(days=30)
    timing = dataclasses.replace(NINE)
    return ScheduledRow(id=sub_id, fingerprint=mark, timing=timing, created_at=created)


def at(hours: float) -> dt.datetime:
    return MONDAY + dt.timedelta(hours=hours)


def test_a_firing_is_taken_once_on_time_then_moves_to_the_next_day() -> None:
    due = DueSet(SETTINGS)
    due.build([row(1)], recent=set(), now=at(8))
    assert due.take_due(at(8.99), running=()) == []
    (first,) = due.take_due(at(9), running=())
    assert (first.sub_id, first.firing.period.key, first.late) == (1, "2026-01-05", False)
    assert due.take_due(at(9), running=()) == []  # taken: the slot moved on
    assert due.slots()[1][2].period.key == "2026-01-06"


def test_equal_timings_are_one_shared_object() -> None:
    due = DueSet(SETTINGS)
    due.build([row(1), row(2), row(3)], recent=set(), now=at(8))
    assert len({id(timing) for _, timing, _ in due.slots().values()}) == 1


def test_a_start_catches_up_the_last_missed_firing_late_unless_already_in_the_ledger() -> None:
    due = DueSet(SETTINGS)
    due.build([row(1), row(2)], recent={(2, "2026-01-05")}, now=at(11))
    (caught,) = due.take_due(at(11), running=())
    assert (caught.sub_id, caught.firing.period.key, caught.late) == (1, "2026-01-05", True)


def test_a_start_never_floods_a_new_subscription_nor_goes_past_the_window() -> None:
    due = DueSet(SETTINGS)
    new = row(1, created=at(10))  # made after today's 09:00
    due.build([new, row(2)], recent=set(), now=at(15.5))  # 6.5 h after 09:00: too old
    assert due.take_due(at(15.5), running=()) == []
    assert {s: slot[2].period.key for s, slot in due.slots().items()} == {
        1: "2026-01-06",
        2: "2026-01-06",
    }


def test_a_post_in_flight_is_not_taken_again_and_a_long_missed_one_is_skipped() -> None:
    due = DueSet(SETTINGS)
    due.build([row(1), row(2)], recent=set(), now=at(8))
    assert [d.sub_id for d in due.take_due(at(9), running={1})] == [2]
    assert due.take_due(at(9 + 6.5), running=()) == []  # 1's 09:00 is 6.5 h old: skipped
    assert due.slots()[1][2].period.key == "2026-01-06"


def test_a_refused_firing_is_put_back_unless_the_subscription_changed_meanwhile() -> None:
    due = DueSet(SETTINGS)
    due.build([row(1, mark=10), row(2, mark=20)], recent=set(), now=at(8))
    taken = {d.sub_id: d for d in due.take_due(at(9), running=())}
    due.resync([row(1, mark=10), row(2, mark=21)], now=at(9))  # 2 was edited
    for item in taken.values():
        due.put_back(item)
    assert [d.sub_id for d in due.take_due(at(9.01), running=())] == [1]


def test_a_resync_drops_the_removed_and_a_removed_one_is_never_put_back() -> None:
    due = DueSet(SETTINGS)
    due.build([row(1), row(2)], recent=set(), now=at(8))
    due.resync([row(2)], now=at(8))
    assert list(due.slots()) == [2]
    due.remove(2)
    due.put_back(Due(2, 1, next_firing(NINE, at(8)), late=False))
    assert len(due) == 0


def test_a_slot_scheduled_while_a_start_read_the_store_wins_over_the_rows_it_read() -> None:
    due = DueSet(SETTINGS)
    due.build([row(7, mark=70)], recent=set(), now=at(8))  # as the commands' `add` would
    due.build([row(7, mark=69), row(8)], recent=set(), now=at(8))  # rows read before the edit
    assert {sub_id: slot[0] for sub_id, slot in due.slots().items()} == {7: 70, 8: 1}
    due.resync([row(7, mark=69), row(8)], now=at(8))  # the store is the truth at a resync
    assert due.slots()[7][0] == 69
