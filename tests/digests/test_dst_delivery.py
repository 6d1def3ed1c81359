"""Exactly one post per local period across daylight-saving changes, driven by a fake clock."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from zoneinfo import ZoneInfo

import pytest

from bot.domain.subscriptions import Theme
from tests.support.digests import Rig

# (zone, the local day of a change, a local time that day which the change skips or repeats)
CHANGES = [
    ("America/New_York", dt.date(2026, 3, 8), dt.time(2, 30)),  # 02:00 -> 03:00: skipped
    ("America/New_York", dt.date(2026, 11, 1), dt.time(1, 30)),  # 02:00 -> 01:00: twice
    ("Europe/Berlin", dt.date(2026, 3, 29), dt.time(2, 0)),  # 02:00 -> 03:00: skipped
    ("Europe/Berlin", dt.date(2026, 10, 25), dt.time(2, 30)),  # 03:00 -> 02:00: twice
    ("Australia/Lord_Howe", dt.date(2026, 10, 4), dt.time(2, 15)),  # 02:00 -> 02:30: skipped
    ("Australia/Lord_Howe", dt.date(2026, 4, 5), dt.time(1, 45)),  # 02:00 -> 01:30: twice
]


@pytest.mark.parametrize(("zone", "day", "time"), CHANGES, ids=lambda v: str(v))
async def test_one_post_per_local_day_across_the_change(
    rig: Rig, zone: str, day: dt.date, time: dt.time
) -> None:
    tz = ZoneInfo(zone)
    # Start two local days before the change; run four local days in 5-minute ticks.
    rig.clock.set(dt.datetime.combine(day - dt.timedelta(days=2), dt.time(12), tz))
    daily = await rig.subscribe(channel_id=1, timezone=zone, time=time)
    hourly_neighbours = [
        await rig.subscribe(channel_id=2 + n, timezone=zone, time=dt.time(hour, 0))
        for n, hour in enumerate((0, 1, 2, 3, 23))
    ]
    await rig.run_until(rig.clock.now() + dt.timedelta(days=4), dt.timedelta(minutes=5))

    def expected(at: dt.time) -> list[str]:
        # The run covers local noon two days before to noon two days after.
        offsets = (-1, 0, 1, 2) if at < dt.time(12) else (-2, -1, 0, 1)
        return [(day + dt.timedelta(days=n)).isoformat() for n in offsets]

    for sub in (daily, *hourly_neighbours):
        periods = rig.deliverer.periods(sub.channel_id)
        assert Counter(periods) == Counter(expected(sub.time)), (sub.time, periods)
    # The skipped or repeated time itself fired once, at the first valid instant after it.
    on_the_day = [
        s for s in rig.deliverer.sent if s.channel_id == 1 and day.isoformat() in s.thread_name
    ]
    assert len(on_the_day) == 1
    local = on_the_day[0].at.astimezone(tz).replace(tzinfo=None)
    # Ticks are 5 minutes apart; a skipped time waits for the change (at most an hour).
    assert dt.timedelta(0) <= local - dt.datetime.combine(day, time) <= dt.timedelta(minutes=65)
    # The ledger agrees: one sent row per period, nothing pending or late.
    assert daily.id is not None
    rows = await rig.engine.ledger.of_subscription(daily.id)
    assert sorted(r.period for r in rows) == expected(time)
    assert {r.status for r in rows} == {"sent"}
    assert not any(r.late for r in rows)


async def test_weekly_posts_once_per_iso_week_across_the_change(rig: Rig) -> None:
    tz = ZoneInfo("America/New_York")
    rig.clock.set(dt.datetime(2026, 2, 28, 12, tzinfo=tz).astimezone(dt.UTC))
    weekly = await rig.subscribe(
        theme=Theme.VENUE_SPOTLIGHT, timezone="America/New_York", days={6}, time=dt.time(2, 30)
    )
    await rig.run_until(rig.clock.now() + dt.timedelta(days=21), dt.timedelta(minutes=30))
    # Keyed by ISO week (2026-W09..W11); each post shows its Sunday's date (issue 25, item 7).
    assert rig.deliverer.periods(weekly.channel_id) == ["2026-03-01", "2026-03-08", "2026-03-15"]
    assert weekly.id is not None
    rows = await rig.engine.ledger.of_subscription(weekly.id)
    assert sorted(r.period for r in rows) == ["2026-W09", "2026-W10", "2026-W11"]


@pytest.mark.parametrize("zone", ["America/Nuuk", "America/Scoresbysund"])
async def test_a_preview_names_the_period_its_post_will_have_when_the_clock_skips_midnight(
    rig: Rig, zone: str
) -> None:
    """On 2026-03-28 these zones jump from Saturday 23:00 to Sunday 00:00: Saturday's 23:30
    post fires at Sunday 00:00 local, for Saturday. The preview said Sunday (issue 12)."""
    rig.clock.set(dt.datetime(2026, 3, 28, 12, 0, tzinfo=dt.UTC))
    sub = await rig.subscribe(channel_id=1, timezone=zone, time=dt.time(23, 30))
    preview = await rig.service.preview(sub)
    assert "2026-03-28" in preview.content, preview.content
    await rig.run_until(rig.clock.now() + dt.timedelta(days=1), dt.timedelta(minutes=5))
    assert rig.deliverer.periods(1)[0] == "2026-03-28"
