"""Digest subscriptions: which themed post goes to which channel, when, and in which time zone.

A subscription's schedule is local: a time of day in an IANA zone, on some weekdays (DAILY) or
on one weekday (WEEKLY). Its period (the local date, or the ISO week) names one post; the
delivery ledger is keyed on it, so a daylight-saving change never makes a second post.
"""

from __future__ import annotations

import datetime as dt
import functools
import zoneinfo
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, Literal, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)

from bot.domain.areas import ResearchArea
from bot.domain.models import AwardKind, Language, VenueKey, Year

MAX_SUBSCRIPTIONS_PER_GUILD = 25
ALL_DAYS: frozenset[int] = frozenset(range(7))
MONDAY = 0


class Theme(StrEnum):
    """The names of the themes Laurel ships, for code and tests that name one. A theme is its
    module in `bot.digests.themes`; a new one needs no member here (`ThemeName` is any name)."""

    PAPER_OF_THE_DAY = "paper-of-the-day"
    VENUE_SPOTLIGHT = "venue-spotlight"
    TEST_OF_TIME = "test-of-time"
    BY_THE_NUMBERS = "by-the-numbers"
    NEW_AWARDS = "new-awards"


class Cadence(StrEnum):
    DAILY = "daily"  # period: the local date, "YYYY-MM-DD"
    WEEKLY = "weekly"  # period: the ISO week, "YYYY-Www"


# A theme's name: lowercase words joined by "-" (what `bot.digests.themes` registers).
ThemeName = Annotated[str, StringConstraints(pattern=r"^[a-z0-9]+(?:-[a-z0-9]+)*$", max_length=40)]

# The shipped themes' usual cadences, for a Subscription built without one (tests, scripts);
# the /digest commands take the theme module's own (`ThemeSpec.cadence`), which a test holds
# equal to this.
DEFAULT_CADENCE: dict[str, Cadence] = {
    Theme.PAPER_OF_THE_DAY: Cadence.DAILY,
    Theme.TEST_OF_TIME: Cadence.DAILY,
    Theme.VENUE_SPOTLIGHT: Cadence.WEEKLY,
    Theme.BY_THE_NUMBERS: Cadence.WEEKLY,
    Theme.NEW_AWARDS: Cadence.WEEKLY,
}

Status = Literal["active", "paused"]
PausedReason = Literal["manual", "forbidden", "not-found"]


@functools.cache
def _known_zones() -> frozenset[str]:
    # The list of names is read from disk once; it only changes with a tzdata upgrade.
    return frozenset(zoneinfo.available_timezones())


def check_timezone(value: str) -> str:
    """`value` if it is an IANA zone name; "localtime", paths and unknown names are refused."""
    name = value.strip()
    if not name or name.casefold() in {"localtime", "posixrules"}:
        raise ValueError("a time zone is an IANA name such as Europe/Berlin")
    if name.startswith(("/", ".")) or ".." in name or "\\" in name or "\0" in name:
        raise ValueError(f"{name[:64]!r} is not a time-zone name")
    if name not in _known_zones():
        raise ValueError(f"unknown time zone {name[:64]!r} (expected e.g. America/New_York)")
    return name


TimeZoneName = Annotated[str, AfterValidator(check_timezone)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # as domain.models


class DigestFilter(_Model):
    """Which awards a digest draws from; every field left empty means "any"."""

    venue: VenueKey | None = None
    kind: AwardKind | None = None
    year_from: Year | None = None
    year_to: Year | None = None
    area: ResearchArea | None = None

    @model_validator(mode="after")
    def _years_in_order(self) -> Self:
        low, high = self.year_from, self.year_to
        if low is not None and high is not None and low > high:
            raise ValueError("year_from must not be after year_to")
        return self


class Subscription(_Model):
    id: int | None = None
    guild_id: int = Field(gt=0)
    channel_id: int = Field(gt=0)
    theme: ThemeName
    cadence: Cadence
    days: frozenset[int]
    time: dt.time
    timezone: TimeZoneName
    language: Language = "en"
    role_id: int | None = Field(None, gt=0)
    filters: DigestFilter = DigestFilter()
    status: Status = "active"
    paused_reason: PausedReason | None = None
    created_by: int = Field(gt=0)
    created_at: dt.datetime

    @model_validator(mode="before")
    @classmethod
    def _defaults_from_theme(cls, data: Any) -> Any:
        # The cadence defaults by theme, the days by cadence: fill them before validation.
        if not isinstance(data, dict):
            return data
        data = dict(data)
        if data.get("cadence") is None and str(data.get("theme")) in DEFAULT_CADENCE:
            data["cadence"] = DEFAULT_CADENCE[str(data["theme"])]
        if data.get("days") is None and data.get("cadence") is not None:
            daily = str(data["cadence"]) == Cadence.DAILY
            data["days"] = ALL_DAYS if daily else frozenset({MONDAY})
        return data

    @field_validator("days")
    @classmethod
    def _weekdays(cls, value: frozenset[int]) -> frozenset[int]:
        if not value:
            raise ValueError("pick at least one day")
        if not value <= ALL_DAYS:
            raise ValueError("days are weekdays 0 (Monday) to 6 (Sunday)")
        return value

    @field_validator("time")
    @classmethod
    def _minute_precision(cls, value: dt.time) -> dt.time:
        if value.tzinfo is not None:
            raise ValueError("the time is local to the subscription's zone; give it without one")
        if value.second or value.microsecond:
            raise ValueError("the time is given to the minute (HH:MM)")
        return value

    @field_validator("created_at")
    @classmethod
    def _utc(cls, value: dt.datetime) -> dt.datetime:
        if value.tzinfo is None:
            raise ValueError("created_at must carry a time zone")
        return value.astimezone(dt.UTC)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.cadence == Cadence.WEEKLY and len(self.days) != 1:
            raise ValueError("a weekly digest posts on exactly one day")
        if self.status == "active" and self.paused_reason is not None:
            raise ValueError("an active subscription has no pause reason")
        if self.status == "paused" and self.paused_reason is None:
            raise ValueError("a paused subscription needs a reason")
        return self

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.timezone)

    @property
    def timing(self) -> Timing:
        return Timing(self.cadence, self.days, self.time, self.timezone)


@dataclass(frozen=True, slots=True)
class Timing:
    """When a subscription posts: all the digest schedule keeps of it between posts (the
    subscription itself is read when it is due). Equal timings are shared."""

    cadence: Cadence
    days: frozenset[int]
    time: dt.time
    timezone: str

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.timezone)  # ZoneInfo caches its instances by name


@dataclass(frozen=True, slots=True)
class ScheduledRow:
    """What the digest schedule reads of an active subscription."""

    id: int
    fingerprint: int
    timing: Timing
    created_at: dt.datetime


@dataclass(frozen=True, slots=True)
class CycleState:
    """Where a subscription is in its shuffled cycle: the cycle, and the ids shown in it."""

    cycle: int = 0
    shown: tuple[int, ...] = ()
