from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterator
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from bot.digests.periods import (
    Period,
    firings,
    last_firing,
    local_instant,
    next_firing,
    period_key,
    period_of,
)
from bot.domain.subscriptions import Cadence, Subscription, Theme

UTC = dt.UTC


def sub(**fields: Any) -> Subscription:
    base: dict[str, Any] = {
        "guild_id": 1,
        "channel_id": 2,
        "theme": Theme.PAPER_OF_THE_DAY,
        "time": dt.time(9, 0),
        "timezone": "UTC",
        "created_by": 3,
        "created_at": dt.datetime(2026, 1, 1, tzinfo=UTC),
    }
    return Subscription.model_validate({**base, **fields})


@pytest.mark.parametrize(
    ("zone", "day", "time", "utc"),
    [
        # Skipped wall times fire at the change itself.
        ("America/New_York", dt.date(2026, 3, 8), dt.time(2, 30), dt.datetime(2026, 3, 8, 7, 0)),
        ("Europe/Berlin", dt.date(2026, 3, 29), dt.time(2, 59), dt.datetime(2026, 3, 29, 1, 0)),
        (
            "Australia/Lord_Howe",
            dt.date(2026, 10, 4),
            dt.time(2, 15),
            dt.datetime(2026, 10, 3, 15, 30),
        ),
        # Repeated wall times fire at their first occurrence.
        ("America/New_York", dt.date(2026, 11, 1), dt.time(1, 30), dt.datetime(2026, 11, 1, 5, 30)),
        ("Europe/Berlin", dt.date(2026, 10, 25), dt.time(2, 30), dt.datetime(2026, 10, 25, 0, 30)),
        (
            "Australia/Lord_Howe",
            dt.date(2026, 4, 5),
            dt.time(1, 45),
            dt.datetime(2026, 4, 4, 14, 45),
        ),
        # An ordinary day.
        ("Europe/Berlin", dt.date(2026, 7, 1), dt.time(9, 0), dt.datetime(2026, 7, 1, 7, 0)),
    ],
)
def test_local_instant(zone: str, day: dt.date, time: dt.time, utc: dt.datetime) -> None:
    assert local_instant(day, time, ZoneInfo(zone)) == utc.replace(tzinfo=UTC)


def test_period_keys() -> None:
    assert period_key(Cadence.DAILY, dt.date(2026, 3, 8)) == "2026-03-08"
    assert period_key(Cadence.WEEKLY, dt.date(2026, 12, 31)) == "2026-W53"
    assert period_key(Cadence.WEEKLY, dt.date(2027, 1, 1)) == "2026-W53"
    assert period_key(Cadence.WEEKLY, dt.date(2027, 1, 4)) == "2027-W01"
    # The period is the date where the subscription lives, not in UTC.
    late_utc = dt.datetime(2026, 3, 8, 13, 0, tzinfo=UTC)
    assert period_of(sub(timezone="Pacific/Kiritimati"), late_utc) == "2026-03-09"
    assert period_of(sub(timezone="Pacific/Pago_Pago"), late_utc) == "2026-03-08"


@pytest.mark.usefixtures("machine_zone")  # "no zone given" is UTC, not where the bot runs
def test_a_scheduled_period_shows_its_key_and_a_manual_one_its_date() -> None:
    daily = Period.scheduled(Cadence.DAILY, dt.date(2026, 3, 8))
    weekly = Period.scheduled(Cadence.WEEKLY, dt.date(2027, 1, 1))
    assert (daily.key, daily.shown, daily.is_manual) == ("2026-03-08", "2026-03-08", False)
    assert (weekly.key, weekly.shown) == ("2026-W53", "2027-01-01")  # a post shows its day
    # A post made by hand: one key per minute (seconds dropped), in UTC whatever the zone;
    # shown as the date where the subscription lives (issue 25, item 7).
    taipei = dt.datetime(2026, 11, 30, 2, 30, 59, tzinfo=ZoneInfo("Asia/Taipei"))
    manual = Period.manual(taipei, ZoneInfo("Asia/Taipei"))
    assert (manual.key, manual.shown, manual.is_manual) == ("now-20261129T1830", "2026-11-30", True)
    assert str(manual) == manual.key
    assert Period.manual(taipei).shown == "2026-11-29"  # no zone given: UTC's date


def test_a_stored_key_of_a_subscription_reads_back_with_its_label() -> None:
    """What the reconciler posts for a ledger row shows what the preview said (issue 25)."""
    weekly = sub(timezone="Asia/Taipei", days={2}, cadence=Cadence.WEEKLY)
    assert Period.from_key("2026-W49", weekly) == Period("2026-W49", "2026-12-02")  # its Wednesday
    assert Period.from_key("now-20261201T1630", weekly).shown == "2026-12-02"  # 00:30 in Taipei


@pytest.mark.parametrize(
    ("key", "shown"),
    [
        ("2026-03-08", "2026-03-08"),
        ("2026-W10", "2026-W10"),
        ("now-20261129T1830", "2026-11-29"),
        ("now-20270101T0000", "2027-01-01"),
    ],
)
def test_a_stored_key_reads_back_as_the_period_it_was(key: str, shown: str) -> None:
    period = Period.from_key(key)
    assert (period.key, period.shown, period.is_manual) == (key, shown, key.startswith("now-"))
    if period.is_manual:
        assert (
            Period.manual(dt.datetime.strptime(key, "now-%Y%m%dT%H%M").replace(tzinfo=UTC))
            == period
        )


def test_a_malformed_manual_key_is_refused() -> None:
    with pytest.raises(ValueError, match="does not match format"):
        Period.from_key("now-yesterday")


def test_next_and_last_firing_follow_the_weekdays() -> None:
    weekdays = sub(timezone="Europe/Berlin", days={0, 1, 2, 3, 4}, time=dt.time(8, 15))
    friday_evening = dt.datetime(2026, 1, 9, 18, 0, tzinfo=UTC)
    following = next_firing(weekdays, friday_evening)
    assert following.period.key == "2026-01-12"  # Monday
    assert following.at == dt.datetime(2026, 1, 12, 7, 15, tzinfo=UTC)
    previous = last_firing(weekdays, friday_evening)
    assert previous is not None
    assert previous.period.key == "2026-01-09"
    # At the very instant it fires, that firing is the last one and the next is another.
    assert last_firing(weekdays, following.at) == following
    assert next_firing(weekdays, following.at).period.key == "2026-01-13"


def test_a_week_of_firings_has_one_per_posting_day_across_a_change() -> None:
    daily = sub(timezone="America/New_York", time=dt.time(2, 30))
    start = dt.datetime(2026, 3, 5, tzinfo=UTC)
    found = firings(daily, start, start + dt.timedelta(days=7))
    periods = [f.period.key for f in found]
    assert periods == [f"2026-03-{d:02d}" for d in range(5, 12)]
    assert len({f.at for f in found}) == 7


def test_naive_instants_are_refused() -> None:
    with pytest.raises(ValueError, match=r"^instants must carry a time zone$"):
        next_firing(sub(), dt.datetime(2026, 1, 1))


# -- found by mutation testing (docs/mutation.md) ---------------------------------------------
@pytest.fixture
def machine_zone(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The process's own zone far from UTC (and from every zone below): a period must never
    depend on where the bot runs, which a machine on UTC would not show."""
    monkeypatch.setenv("TZ", "Asia/Kathmandu")  # UTC+05:45
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def utc(year: int, month: int, day: int, hour: int = 0, minute: int = 0) -> dt.datetime:
    return dt.datetime(year, month, day, hour, minute, tzinfo=UTC)


@pytest.mark.usefixtures("machine_zone")
def test_firings_are_the_exact_utc_instants_across_a_change_wherever_the_bot_runs() -> None:
    daily = sub(timezone="America/New_York", time=dt.time(2, 30))
    start = utc(2026, 3, 5)
    found = firings(daily, start, start + dt.timedelta(days=7))
    assert [f.at for f in found] == [
        utc(2026, 3, 5, 7, 30),
        utc(2026, 3, 6, 7, 30),
        utc(2026, 3, 7, 7, 30),
        utc(2026, 3, 8, 7, 0),  # 02:30 does not exist that day: the moment of the change
        utc(2026, 3, 9, 6, 30),
        utc(2026, 3, 10, 6, 30),
        utc(2026, 3, 11, 6, 30),
    ]
    assert all(f.at.utcoffset() == dt.timedelta(0) for f in found)


@pytest.mark.usefixtures("machine_zone")
def test_a_window_excludes_its_start_and_includes_its_end() -> None:
    daily = sub(timezone="Europe/Berlin", time=dt.time(9, 0))
    first, second = utc(2026, 7, 1, 7, 0), utc(2026, 7, 2, 7, 0)
    assert [f.at for f in firings(daily, first, second)] == [second]
    assert firings(daily, first, second - dt.timedelta(seconds=1)) == []


@pytest.mark.usefixtures("machine_zone")
@pytest.mark.parametrize(
    ("zone", "day", "time"),
    [
        ("America/New_York", dt.date(2026, 3, 8), dt.time(2, 30)),  # in the gap
        ("Europe/Berlin", dt.date(2026, 10, 25), dt.time(2, 30)),  # twice
        ("Europe/Berlin", dt.date(2026, 7, 1), dt.time(9, 0)),
    ],
)
def test_every_instant_is_utc_wherever_the_bot_runs(zone: str, day: dt.date, time: dt.time) -> None:
    assert local_instant(day, time, ZoneInfo(zone)).utcoffset() == dt.timedelta(0)


@pytest.mark.usefixtures("machine_zone")
def test_next_and_last_firing_count_days_in_the_subscriptions_zone_not_the_machines() -> None:
    # 20:00 UTC on Friday is already Saturday 01:45 where the machine is, still Friday in
    # Los Angeles: the next post is Monday's, the last one Friday's, in Los Angeles time.
    weekdays = sub(timezone="America/Los_Angeles", days={0, 1, 2, 3, 4}, time=dt.time(8, 0))
    friday = utc(2026, 1, 9, 20, 0)
    following = next_firing(weekdays, friday)
    assert (following.period.key, following.at) == ("2026-01-12", utc(2026, 1, 12, 16, 0))
    previous = last_firing(weekdays, friday)
    assert previous is not None
    assert (previous.period.key, previous.at) == ("2026-01-09", utc(2026, 1, 9, 16, 0))
    assert period_of(weekdays, friday) == "2026-01-09"
