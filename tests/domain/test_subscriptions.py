from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from pydantic import ValidationError

from bot.domain.subscriptions import Cadence, DigestFilter, Subscription, Theme

NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


def sub(**fields: Any) -> Subscription:
    base: dict[str, Any] = {
        "guild_id": 1,
        "channel_id": 2,
        "theme": Theme.PAPER_OF_THE_DAY,
        "time": dt.time(9, 0),
        "timezone": "Europe/Berlin",
        "created_by": 3,
        "created_at": NOW,
    }
    return Subscription.model_validate({**base, **fields})


def test_cadence_and_days_default_by_theme() -> None:
    daily = sub()
    assert daily.cadence == Cadence.DAILY
    assert daily.days == frozenset(range(7))
    weekly = sub(theme=Theme.VENUE_SPOTLIGHT)
    assert weekly.cadence == Cadence.WEEKLY
    assert weekly.days == frozenset({0})
    assert sub(theme="new-awards", days={4}).days == frozenset({4})
    assert daily.zone.key == "Europe/Berlin"


@pytest.mark.parametrize(
    "zone", ["", "localtime", "/etc/localtime", "../../etc/passwd", "Mars/Olympus", "posixrules"]
)
def test_bad_time_zones_are_refused(zone: str) -> None:
    with pytest.raises(ValidationError, match=r"time zone|time-zone"):
        sub(timezone=zone)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"theme": Theme.VENUE_SPOTLIGHT, "days": {0, 3}}, "exactly one day"),
        ({"days": set()}, "at least one day"),
        ({"days": {7}}, "weekdays"),
        ({"time": dt.time(9, 0, 30)}, "to the minute"),
        ({"status": "paused"}, "needs a reason"),
        ({"paused_reason": "manual"}, "no pause reason"),
        ({"role_id": 0}, "greater than 0"),
        ({"created_at": dt.datetime(2026, 1, 1)}, "time zone"),
        ({"surprise": 1}, "Extra inputs"),
    ],
)
def test_inconsistent_subscriptions_are_refused(fields: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError, match=message):
        sub(**fields)


def test_filter_years_in_order() -> None:
    assert DigestFilter(year_from=2020, year_to=2020).year_to == 2020
    with pytest.raises(ValidationError, match="year_from"):
        DigestFilter(year_from=2021, year_to=2020)
