"""When a subscription fires, and which period a post belongs to — in the subscription's zone.

Pure functions of (subscription schedule, instant). Every instant is UTC-aware; local wall
times are resolved here once:

* a local time that does not exist (the hour skipped when clocks spring forward) fires at the
  first valid instant after it, the moment of the change;
* a local time that happens twice (clocks fall back) fires at its first occurrence only.

A post's period is the local date ("2026-03-08") or ISO week ("2026-W10") of its scheduled
day, so whatever a daylight-saving change does to the clock, one period gets one post. Every
post shows one label: the local date of its day (a week's post too), so the preview, post-now
and the post itself agree: `/digest post-now` posts the next scheduled post early, under its
firing's period (`DigestService.upcoming`). Before issue 25 a post made by hand had a period of
its own minute ("now-…"), shown as its date in the subscription's zone; such stored rows still
read back. `Period` holds both the ledger's key and what the post shows, so neither is ever
parsed out of the other except where a stored row is read back (`Period.from_key`).
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from bot.domain.subscriptions import Cadence, Subscription, Timing

# A whole subscription, or just when it posts: the functions read only the schedule.
Schedule = Subscription | Timing
_MINUTE = dt.timedelta(minutes=1)
# Far enough to pass any weekday set, and both sides of a week for the weekly cadence.
_SEARCH_DAYS = 9


_MANUAL = "now-"
_WEEK = re.compile(r"(\d{4})-W(\d{2})")
_MANUAL_STAMP = "%Y%m%dT%H%M"


@dataclass(frozen=True, slots=True)
class Period:
    """Which post of a subscription a ledger row is: `key` is what the ledger stores (one row
    per subscription and key), `shown` what the post and its thread name say."""

    key: str
    shown: str

    @classmethod
    def scheduled(cls, cadence: Cadence, day: dt.date) -> Period:
        """The local date (daily) or ISO week (weekly) of a scheduled post's day, as the key;
        the post shows its day's date whatever the cadence (one label rule, issue 25)."""
        return cls(period_key(cadence, day), day.isoformat())

    @classmethod
    def manual(cls, at: dt.datetime, zone: ZoneInfo | None = None) -> Period:
        """A post made by hand before issue 25 (post-now now takes the next firing's period):
        one per minute, keyed in UTC, shown as its date where the subscription lives (`zone`).
        Kept to read such stored rows back (`from_key`)."""
        at = _utc(at)
        shown = at.astimezone(zone).date() if zone is not None else at.date()
        return cls(f"{_MANUAL}{at:{_MANUAL_STAMP}}", shown.isoformat())

    @classmethod
    def from_key(cls, key: str, sub: Schedule | None = None) -> Period:
        """The period of a stored ledger row (of `sub`, whose schedule gives a week's day and
        a manual post's zone: without it, a week shows its key and a manual post UTC's date)."""
        if key.startswith(_MANUAL):
            stamp = dt.datetime.strptime(key.removeprefix(_MANUAL), _MANUAL_STAMP)
            return cls.manual(stamp.replace(tzinfo=dt.UTC), sub.zone if sub else None)
        week = _WEEK.fullmatch(key)
        if week is None or sub is None or not sub.days:
            return cls(key, key)
        day = dt.date.fromisocalendar(int(week[1]), int(week[2]), min(sub.days) + 1)
        return cls(key, day.isoformat())

    @property
    def is_manual(self) -> bool:
        return self.key.startswith(_MANUAL)

    def __str__(self) -> str:
        return self.key


@dataclass(frozen=True, slots=True)
class Firing:
    """One scheduled post: when (UTC) and which period it covers."""

    at: dt.datetime
    period: Period


def period_key(cadence: Cadence, day: dt.date) -> str:
    if cadence == Cadence.DAILY:
        return day.isoformat()
    year, week, _ = day.isocalendar()
    return f"{year}-W{week:02d}"


def period_of(sub: Schedule, moment: dt.datetime) -> str:
    """The period containing `moment`, counted in the subscription's zone."""
    return period_key(sub.cadence, _utc(moment).astimezone(sub.zone).date())


def local_instant(day: dt.date, time: dt.time, zone: ZoneInfo) -> dt.datetime:
    """The UTC instant the wall clock in `zone` shows `time` on `day` (first, if twice; the
    moment of the change, if never)."""
    wall = dt.datetime.combine(day, time)
    first = wall.replace(tzinfo=zone, fold=0).astimezone(dt.UTC)
    if first.astimezone(zone).replace(tzinfo=None) == wall:
        return first
    # In a gap: fold=1 reads the wall time with the offset after the change, fold=0 with the
    # one before; the change lies between them, at a whole minute in every zone.
    low, high = sorted((wall.replace(tzinfo=zone, fold=1).astimezone(dt.UTC), first))
    moment = low
    while moment < high and moment.astimezone(zone).replace(tzinfo=None) < wall:
        moment += _MINUTE
    return moment


def _posting_days(sub: Schedule, around: dt.date) -> list[dt.date]:
    days = [around + dt.timedelta(days=n) for n in range(-_SEARCH_DAYS, _SEARCH_DAYS + 1)]
    return [day for day in days if day.weekday() in sub.days]


def firings(sub: Schedule, start: dt.datetime, end: dt.datetime) -> list[Firing]:
    """Every scheduled post with `start` < at <= `end` (a window of at most a week)."""
    start, end = _utc(start), _utc(end)
    zone = sub.zone
    found = []
    for day in _posting_days(sub, end.astimezone(zone).date()):
        at = local_instant(day, sub.time, zone)
        if start < at <= end:
            found.append(Firing(at, Period.scheduled(sub.cadence, day)))
    return sorted(found, key=lambda f: f.at)


def next_firing(sub: Schedule, after: dt.datetime) -> Firing:
    """The first scheduled post strictly after `after`."""
    after = _utc(after)
    zone = sub.zone
    for day in _posting_days(sub, after.astimezone(zone).date()):
        at = local_instant(day, sub.time, zone)
        if at > after:
            return Firing(at, Period.scheduled(sub.cadence, day))
    raise AssertionError("every subscription posts at least once a week")  # pragma: no cover


def last_firing(sub: Schedule, at_or_before: dt.datetime) -> Firing | None:
    """The latest scheduled post at or before `at_or_before` (within the past week)."""
    moment = _utc(at_or_before)
    zone = sub.zone
    for day in reversed(_posting_days(sub, moment.astimezone(zone).date())):
        at = local_instant(day, sub.time, zone)
        if at <= moment:
            return Firing(at, Period.scheduled(sub.cadence, day))
    return None


def _utc(moment: dt.datetime) -> dt.datetime:
    if moment.tzinfo is None:
        raise ValueError("instants must carry a time zone")
    return moment.astimezone(dt.UTC)
