"""The stand-in for benchmarks: lean (no spec validation, no recording), on an event loop of its
own in a thread of its own, so that its CPU is counted apart from the bot's.

The bot keeps the main thread's loop (and its SQLite threads); the stand-in runs in one more
thread of the same process, so the two still share the interpreter (one GIL, as one loop
would), but `cpu()` reads the stand-in thread's own CPU clock (`pthread_getcpuclockid`):
a benchmark reports the bot's CPU as the process's minus that, and the stand-in's beside it.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

from laurel_console.localdiscord.config import Config
from laurel_console.localdiscord.server import LocalDiscord
from laurel_console.localdiscord.state import World

T = TypeVar("T")
HOUR_MS = 3_600_000  # a heartbeat interval that never comes round during a run


def lean_config(**changes: Any) -> Config:
    return Config(heartbeat_interval_ms=HOUR_MS, lean=True, **changes)


class ThreadedStandIn:
    """`LocalDiscord` served from its own thread. Build the world before `start`; drive the
    stand-in (slash commands, limits) through `call`, which runs a coroutine on its loop."""

    def __init__(self, world: World | None = None, config: Config | None = None) -> None:
        self.server = LocalDiscord(world, config=config or lean_config())
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name="stand-in", daemon=True)
        self._clock: int | None = None

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def submit(self, work: Coroutine[Any, Any, T]) -> Future[T]:
        return asyncio.run_coroutine_threadsafe(work, self.loop)

    async def call(self, work: Coroutine[Any, Any, T]) -> T:
        """Run `work` on the stand-in's loop and wait for it from the caller's loop."""
        return await asyncio.wrap_future(self.submit(work))

    async def start(self) -> ThreadedStandIn:
        self._thread.start()
        assert self._thread.ident is not None
        self._clock = time.pthread_getcpuclockid(self._thread.ident)
        await self.call(self.server.start())
        return self

    async def stop(self) -> None:
        await self.call(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        await asyncio.to_thread(self._thread.join, 5)
        self.loop.close()

    def cpu(self) -> float:
        """CPU seconds the stand-in's thread has used so far."""
        return 0.0 if self._clock is None else time.clock_gettime(self._clock)

    async def __aenter__(self) -> ThreadedStandIn:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


class CpuSplit:
    """CPU of the process between two points, split into the stand-in's thread and the rest
    (the bot: its loop, discord.py, SQLite's threads)."""

    def __init__(self, stand_in: ThreadedStandIn) -> None:
        self._stand_in = stand_in
        self._start = (time.process_time(), stand_in.cpu())
        self.total = self.stand_in = 0.0

    def stop(self) -> CpuSplit:
        self.total = time.process_time() - self._start[0]
        self.stand_in = self._stand_in.cpu() - self._start[1]
        return self

    @property
    def bot(self) -> float:
        return self.total - self.stand_in
