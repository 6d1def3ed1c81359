from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from bot.domain.clock import Clock, SystemClock
from tests.support.clock import ManualClock


def test_the_system_clock_is_aware_utc_and_monotonic() -> None:
    clock: Clock = SystemClock()
    now = clock.now()
    assert now.tzinfo is not None
    assert now.utcoffset() == dt.timedelta(0)
    first = clock.monotonic()
    assert clock.monotonic() >= first


def test_a_manual_clock_moves_only_when_told() -> None:
    manual = ManualClock(dt.datetime(2026, 3, 8, 6, 59, tzinfo=dt.UTC))
    clock: Clock = manual
    before, tick = clock.now(), clock.monotonic()
    asyncio.run(clock.sleep(90))
    assert clock.now() - before == dt.timedelta(seconds=90)
    assert clock.monotonic() - tick == 90
    assert manual.sleeps == [90]
    manual.set(dt.datetime(2026, 3, 9, tzinfo=dt.UTC))
    assert clock.now() == dt.datetime(2026, 3, 9, tzinfo=dt.UTC)
    with pytest.raises(ValueError, match="does not go back"):
        manual.set(dt.datetime(2026, 3, 1, tzinfo=dt.UTC))
