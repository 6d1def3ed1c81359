"""A fake clock for the arXiv client and the stand-in, so waits are counted, not slept."""

from __future__ import annotations

import asyncio


class FakeClock:
    def __init__(self) -> None:
        self.time = 1_000.0
        self.sleeps: list[float] = []

    def now(self) -> float:
        return self.time

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.time += seconds
        await asyncio.sleep(0)  # still let others run, as a real sleep would
