"""Keeping the instance lock while the bot runs (issue 22, item 6). On PostgreSQL the lock is a
session's, lost with its connection when the server restarts; the watch takes it again, and
when another Laurel took it meanwhile, stops this one (it would post every digest a second
time beside the other) and says why."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from bot.domain.clock import Clock
from bot.errors import StoreError

log = logging.getLogger(__name__)
EVERY = 5.0  # seconds between checks: a restart is noticed within this


async def keep_lock(
    lock: Any, stop: Callable[[str], Awaitable[None]], clock: Clock, *, every: float = EVERY
) -> None:
    """Check `lock` every `every` seconds (a lock without `keep`, SQLite's file lock, needs no
    watch); `stop(why)` when it cannot be held any more."""
    keep: Callable[[], str | None] | None = getattr(lock, "keep", None)
    if keep is None:
        return
    said = None
    while True:
        await clock.sleep(every)
        try:
            news = await asyncio.to_thread(keep)
        except StoreError as exc:
            why = f"the instance lock was lost and another Laurel holds it now: {exc}"
            log.error("stopping: %s", why)
            await stop(why)
            return
        if news is not None and news != said:
            log.warning("%s", news)
        said = news
