"""One clock for everything in Laurel that reads time.

The composition root (`LaurelBot`, the CLI) makes one `SystemClock` and hands it to whatever
reads the wall clock (digest periods, audit stamps, `/paper today`), measures intervals (the
digest pacer, arXiv politeness, caches) or waits (back-off, retries). Tests hand in a
`tests.support.clock.ManualClock` instead and move time by hand, so no test sleeps for real,
brackets `datetime.now`, or depends on the wall clock crossing midnight.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from typing import Protocol

__all__ = ["Clock", "SystemClock"]


class Clock(Protocol):
    def now(self) -> dt.datetime:
        """The wall-clock time, timezone-aware, in UTC."""
        ...

    def monotonic(self) -> float:
        """Seconds on a clock that never goes back, for intervals and deadlines."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait this long (a fake clock advances itself instead)."""
        ...


class SystemClock:
    """The real clock: `datetime.now(UTC)`, `time.monotonic()` and `asyncio.sleep`."""

    __slots__ = ()

    def now(self) -> dt.datetime:
        return dt.datetime.now(dt.UTC)

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
