"""The due set: each active subscription's next firing, kept in memory, and which are due.

Pure bookkeeping over what the store said (no I/O, no clock of its own: every call is given
its instant). A slot is a subscription's fingerprint (which changes when the stored
subscription does), when it posts, and its next firing; the subscription itself is read when
it is due. Thousands of subscriptions share a handful of timings, so each distinct timing is
one shared object and each firing is worked out once per (timing, instant) within a tick.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Container, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bot.digests.periods import Firing, last_firing, next_firing
from bot.domain.subscriptions import ScheduledRow, Subscription, Timing
from bot.settings import DigestSettings
from bot.store.subscriptions import fingerprint

log = logging.getLogger(__name__)
# One subscription in the schedule: its fingerprint, when it posts, its next firing.
Slot = tuple[int, Timing, Firing]


@dataclass(frozen=True, slots=True)
class Due:
    """A post to start now: whose, which firing, and whether it is late."""

    sub_id: int
    mark: int  # the subscription's fingerprint when it was scheduled
    firing: Firing
    late: bool


class DueSet:
    def __init__(self, settings: DigestSettings) -> None:
        self._catch_up = dt.timedelta(hours=settings.catch_up_hours)
        self._late_after = dt.timedelta(minutes=settings.late_after_minutes)
        self._slots: dict[int, Slot] = {}
        self._timings: dict[Timing, Timing] = {}  # one object for each distinct timing
        self._firings: dict[tuple[Timing, dt.datetime, bool], Firing | None] = {}

    def __len__(self) -> int:
        return len(self._slots)

    def slots(self) -> Mapping[int, Slot]:
        """What is scheduled, by subscription id (read-only)."""
        return MappingProxyType(self._slots)

    def new_tick(self) -> None:
        """Forget the firings worked out for the last tick: a handful of entries, never a
        map that grows."""
        self._firings = {}

    def build(
        self, rows: Iterable[ScheduledRow], recent: Container[tuple[int, str]], now: dt.datetime
    ) -> None:
        """The schedule at a start. A period missed while the bot was down is due now (only
        the latest one), unless already in the ledger (`recent`: (subscription, period key)
        pairs), too old, or from before the subscription existed (subscribing never floods).
        """
        built: dict[int, Slot] = {}
        for row in rows:
            timing = self._shared(row.timing)
            firing = self._next(timing, now)
            last = self._last(timing, now)
            if (
                last is not None
                and last.at > row.created_at
                and (row.id, last.period.key) not in recent
                and now - last.at <= self._catch_up
            ):
                firing = last
            built[row.id] = (row.fingerprint, timing, firing)
        # A subscription the commands scheduled while the rows were being read (a /digest
        # subscribe as the bot starts) is kept, and wins: replacing the dict whole lost it.
        self._slots = {**built, **self._slots}

    def resync(self, rows: Iterable[ScheduledRow], now: dt.datetime) -> None:
        """Follow the store: subscriptions changed by any other way than the commands."""
        active = {row.id: row for row in rows}
        for sub_id in list(self._slots):
            if sub_id not in active:
                del self._slots[sub_id]
        self._timings = {}  # forget timings no subscription has any more
        for sub_id, row in active.items():
            known = self._slots.get(sub_id)
            if known is None or known[0] != row.fingerprint:
                timing = self._shared(row.timing)
                self._slots[sub_id] = (row.fingerprint, timing, self._next(timing, now))
            else:
                self._slots[sub_id] = (known[0], self._shared(known[1]), known[2])

    def add(self, sub: Subscription, now: dt.datetime) -> None:
        """(Re)schedule an active stored subscription: its first post is its next firing."""
        assert sub.id is not None
        timing = self._shared(sub.timing)
        self._slots[sub.id] = (fingerprint(sub), timing, next_firing(timing, now))

    def remove(self, sub_id: int) -> None:
        self._slots.pop(sub_id, None)

    def take_due(self, now: dt.datetime, running: Container[int]) -> list[Due]:
        """Every post due at `now`, except those whose last post is still `running`; each
        taken slot moves on to its next firing. A firing older than the catch-up window is
        skipped (logged), never posted."""
        due: list[Due] = []
        for sub_id, (mark, timing, firing) in list(self._slots.items()):
            if firing.at > now or sub_id in running:
                continue
            self._slots[sub_id] = (mark, timing, self._next(timing, max(now, firing.at)))
            age = now - firing.at
            if age > self._catch_up:
                log.warning("digest %s: %s missed by %s; skipped", sub_id, firing.period, age)
                continue
            due.append(Due(sub_id, mark, firing, age > self._late_after))
        return due

    def put_back(self, due: Due) -> None:
        """Due again at the next tick (the store refused its delivery), unless the
        subscription was edited, paused or removed meanwhile."""
        known = self._slots.get(due.sub_id)
        if known is not None and known[0] == due.mark:
            self._slots[due.sub_id] = (due.mark, known[1], due.firing)

    def _shared(self, timing: Timing) -> Timing:
        return self._timings.setdefault(timing, timing)

    def _next(self, timing: Timing, after: dt.datetime) -> Firing:
        key = (timing, after, True)
        found = self._firings.get(key)
        if found is None:
            found = self._firings[key] = next_firing(timing, after)
        return found

    def _last(self, timing: Timing, at: dt.datetime) -> Firing | None:
        key = (timing, at, False)
        if key not in self._firings:
            self._firings[key] = last_firing(timing, at)
        return self._firings[key]
