"""A clock the test moves by hand: `now` and `monotonic` advance together, and `sleep`
advances both instead of waiting (it still yields once, as a real sleep would)."""

from __future__ import annotations

import asyncio
import datetime as dt


class ManualClock:
    def __init__(self, start: dt.datetime | None = None) -> None:
        self.start = start or dt.datetime(2026, 3, 2, 9, 0, tzinfo=dt.UTC)
        if self.start.tzinfo is None:
            raise ValueError("ManualClock needs an aware start time")
        self.elapsed = 0.0
        self.sleeps: list[float] = []

    def now(self) -> dt.datetime:
        return (self.start + dt.timedelta(seconds=self.elapsed)).astimezone(dt.UTC)

    def monotonic(self) -> float:
        return 1_000.0 + self.elapsed

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError("time does not go back")
        self.elapsed += seconds

    def set(self, when: dt.datetime) -> None:
        """Jump the wall clock to `when` (forward only, as a monotonic clock must)."""
        self.advance((when - self.now()).total_seconds())

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.advance(max(0.0, seconds))
        await asyncio.sleep(0)
