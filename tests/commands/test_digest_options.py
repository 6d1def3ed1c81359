"""The /digest options and pure checks: times, weekdays, time zones, schedules, filters."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.commands.digest.checks import digest_filter, schedule
from bot.commands.digest.options import (
    COMMON_ZONES,
    TimeZoneTransformer,
    days_code,
    parse_days,
    parse_time,
)
from bot.digests.themes import ThemeRegistry
from bot.domain.models import AwardKind
from bot.domain.subscriptions import ALL_DAYS, Cadence, Theme
from bot.errors import UserError
from bot.render.i18n import Strings

STRINGS = Strings.load()
THEMES = ThemeRegistry.shipped()


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("09:00", dt.time(9)),
        ("7:30", dt.time(7, 30)),
        (" 23:59 ", dt.time(23, 59)),
        ("18：05", dt.time(18, 5)),
    ],
)
def test_times_are_read_on_a_24_hour_clock(text: str, expected: dt.time) -> None:
    assert parse_time(text) == expected


@pytest.mark.parametrize("text", ["24:00", "9", "9am", "12:60", "", "09:00:00", "-1:00"])
def test_anything_else_is_not_a_time(text: str) -> None:
    with pytest.raises(UserError) as raised:
        parse_time(text)
    assert raised.value.key == "digest-error-bad-time"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("mon,wed,fri", {0, 2, 4}),
        ("Monday Friday", {0, 4}),
        ("mon-fri", {0, 1, 2, 3, 4}),
        ("fri-mon", {4, 5, 6, 0}),  # wraps round the weekend
        ("weekdays", {0, 1, 2, 3, 4}),
        ("weekends", {5, 6}),
        ("every-day", set(range(7))),
        ("週一、週三", {0, 2}),
        ("周五，星期日", {4, 6}),
        ("工作日", {0, 1, 2, 3, 4}),
        ("tues, thurs", {1, 3}),
        ("週一至週五", {0, 1, 2, 3, 4}),
        ("周六到周日", {5, 6}),
    ],
)
def test_days_are_read_in_english_and_chinese(text: str, expected: set[int]) -> None:
    assert parse_days(text) == frozenset(expected)


@pytest.mark.parametrize("text", ["", "someday", "mon,funday", "週八", "mon-", "mon-funday"])
def test_unreadable_days_are_a_mistake(text: str) -> None:
    with pytest.raises(UserError) as raised:
        parse_days(text)
    assert raised.value.key == "digest-error-bad-days"


def test_the_canonical_days_read_back_the_same() -> None:
    for days in (frozenset({0, 2, 4}), ALL_DAYS, frozenset({6})):
        assert parse_days(days_code(days)) == days


ZONES = TimeZoneTransformer()


def test_zone_suggestions_put_city_and_name_prefixes_before_substrings() -> None:
    assert ZONES.suggest("berlin")[0] == "Europe/Berlin"
    assert ZONES.suggest("new y")[0] == "America/New_York"
    assert ZONES.suggest("LORD")[0] == "Australia/Lord_Howe"
    europe = ZONES.suggest("europe/")
    assert len(europe) == 25
    assert all(name.startswith("Europe/") for name in europe)
    assert ZONES.suggest("") == list(COMMON_ZONES)
    taipei = ZONES.suggest("pei")
    assert "Asia/Taipei" in taipei  # a substring of the city counts too
    assert ZONES.suggest("no such place") == []


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("Europe/Berlin", "Europe/Berlin"),
        ("europe/berlin", "Europe/Berlin"),
        ("america/new york", "America/New_York"),
        ("utc", "UTC"),
    ],
)
def test_zones_are_matched_without_regard_to_case(typed: str, canonical: str) -> None:
    assert ZONES.canonical(typed) == canonical


@pytest.mark.parametrize(
    "typed",
    [
        "",
        "localtime",
        "posixrules",
        "Factory",
        "../../etc/passwd",
        "/usr/share/zoneinfo/UTC",
        "Mars/Olympus",
        "GMT+8",
    ],
)
def test_anything_but_an_iana_name_is_refused(typed: str) -> None:
    with pytest.raises(UserError) as raised:
        ZONES.canonical(typed)
    assert raised.value.key == "digest-error-unknown-zone"


def test_a_schedule_follows_the_theme_unless_told_otherwise() -> None:
    assert schedule(THEMES[Theme.PAPER_OF_THE_DAY].cadence, None, None, STRINGS, "en") == (
        Cadence.DAILY,
        ALL_DAYS,
    )
    assert schedule(THEMES[Theme.VENUE_SPOTLIGHT].cadence, None, None, STRINGS, "en") == (
        Cadence.WEEKLY,
        frozenset({0}),
    )
    # Several days make it daily; one day keeps a weekly theme weekly, on that day.
    assert schedule(
        THEMES[Theme.VENUE_SPOTLIGHT].cadence, None, frozenset({1, 3}), STRINGS, "en"
    ) == (
        Cadence.DAILY,
        frozenset({1, 3}),
    )
    assert schedule(THEMES[Theme.BY_THE_NUMBERS].cadence, None, frozenset({4}), STRINGS, "en") == (
        Cadence.WEEKLY,
        frozenset({4}),
    )


def test_weekly_on_several_days_is_a_mistake_said_in_words() -> None:
    with pytest.raises(UserError) as raised:
        schedule(
            THEMES[Theme.NEW_AWARDS].cadence,
            Cadence.WEEKLY,
            frozenset({0, 1, 2, 3, 4}),
            STRINGS,
            "en",
        )
    assert raised.value.key == "digest-error-weekly-days"
    assert raised.value.params == {"days": "weekdays (Mon–Fri)"}


def test_years_out_of_order_are_a_mistake() -> None:
    with pytest.raises(UserError) as raised:
        digest_filter("icml", None, 2020, 2015)
    assert raised.value.params == {"start": 2020, "end": 2015}
    kept = digest_filter("icml", AwardKind.BEST, 2015, 2015)
    assert (kept.venue, kept.kind, kept.year_from, kept.year_to) == (
        "icml",
        AwardKind.BEST,
        2015,
        2015,
    )
