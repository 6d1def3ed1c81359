"""A shard process's part in the shard layout (issue 22): it claims its shards at start (refused
in one line if live processes run another count, or these shards), renews the claim while it
runs, gives it up when it stops, and watches for shards of the layout no live process runs:
reported in the log when that changes, and in `/health` while it lasts."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import os
import socket
from types import TracebackType
from typing import Self

from bot.domain.clock import Clock
from bot.domain.shards import Shards
from bot.errors import StoreError
from bot.store.database import Database
from bot.store.shard_layout import ShardLayout, Unowned

log = logging.getLogger(__name__)
# A claim not renewed for this long is a process gone (killed outright, its host lost).
TTL = dt.timedelta(seconds=60)


def holder_name() -> str:
    """This process, as its claims name it: its host and pid (in a container restarted by
    compose, the same name again, so its own earlier claims are simply taken over)."""
    return f"{socket.gethostname()} pid {os.getpid()}"


def ended(holder: str) -> bool:
    """Whether `holder` is a process of this host that no longer runs: its claims need not
    wait to expire (a `laurel run` killed outright and started again at once)."""
    host, _, pid = holder.rpartition(" pid ")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # running, as another user
        return False
    return False


class ShardWatch:
    def __init__(
        self, db: Database, shards: Shards, holder: str, clock: Clock, *, ttl: dt.timedelta = TTL
    ) -> None:
        self._layout = ShardLayout(db)
        self._shards = shards
        self._holder = holder
        self._clock = clock
        self._ttl = ttl
        self._task: asyncio.Task[None] | None = None
        self.unowned: Unowned | None = None

    async def __aenter__(self) -> Self:
        await self._claim()
        await self.look()
        self._task = asyncio.create_task(self._renewing(), name="laurel-shard-claims")
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        with contextlib.suppress(StoreError):  # a database gone: the claim expires by itself
            await self._layout.release(self._holder)

    async def report(self) -> str | None:
        """For /health, read afresh: the shards no live process runs, or None when every one
        is run (what was last read, while the database does not answer)."""
        with contextlib.suppress(StoreError):
            await self.look()
        return str(self.unowned) if self.unowned is not None and self.unowned.shards else None

    async def look(self) -> None:
        """Read which shards nobody runs; log it when that changes."""
        found = await self._layout.unowned(now=self._clock.now())
        before = self.unowned
        self.unowned = found
        if found is None or (before is not None and before.shards == found.shards):
            return
        if found.shards:
            log.warning("%s", found)
        elif before is not None:
            log.info("%s again", found)

    async def _claim(self) -> None:
        await self._layout.claim(
            self._shards, self._holder, now=self._clock.now(), ttl=self._ttl, gone=ended
        )

    async def _renewing(self) -> None:
        while True:
            await self._clock.sleep(self._ttl.total_seconds() / 3)
            try:
                await self._claim()
                await self.look()
            except StoreError as exc:  # a database down a while: say so, try again
                log.error("could not renew this process's shard claim: %s", exc)
