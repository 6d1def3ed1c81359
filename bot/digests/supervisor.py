"""The posts in flight: each started as a task, one at a time per subscription, every one
tracked (so a drain waits for them and a close stops them), and what the store refused kept
to be tried again.

The store may refuse a write (busy, read-only, full) after the tick moved a subscription on
to its next firing: the firing is put back in the due set, so the period is never silently
skipped, and its next try resumes the row reserved before the refusal rather than sending
anew. A pending row whose settling the store refused is settled again at the next tick.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Coroutine
from typing import Any

from bot.digests.reconciler import Reconciler
from bot.digests.schedule import Due, DueSet
from bot.domain.ledger import LedgerEntry
from bot.domain.subscriptions import Subscription
from bot.errors import StoreError

log = logging.getLogger(__name__)
# How long a graceful stop waits for the posts already reserved: under compose's
# stop_grace_period (30 s), after which SIGKILL follows.
STOP_GRACE = 20.0


class PostSupervisor:
    def __init__(self, reconciler: Reconciler, due: DueSet) -> None:
        self._reconciler = reconciler
        self._due = due
        self._inflight: dict[int, asyncio.Task[None]] = {}  # by subscription
        self._tasks: set[asyncio.Task[None]] = set()  # every post in flight, settling too
        # (subscription, period key) whose delivery the store refused: due again, resumed.
        self._refused: set[tuple[int, str]] = set()
        self._unsettled: list[LedgerEntry] = []  # pending rows whose settling was refused

    def running(self) -> Collection[int]:
        """The subscriptions whose post is in flight (a live view)."""
        return self._inflight.keys()

    def waiting(self) -> frozenset[int]:
        """Ledger rows in hand: being sent or settled, or to be settled again at the next tick."""
        return self._reconciler.in_hand() | {entry.id for entry in self._unsettled}

    def start(self, sub: Subscription, due: Due) -> None:
        """Deliver `sub`'s post for `due` in the background."""
        assert sub.id is not None
        sub_id = sub.id
        task = self._track(self._delivering(sub, due))
        self._inflight[sub_id] = task
        task.add_done_callback(lambda _: self._inflight.pop(sub_id, None))

    def settle(self, entry: LedgerEntry) -> None:
        """Settle a pending row in the background."""
        self._track(self._settling(entry))

    def settle_refused(self) -> None:
        """Settle again the rows whose settling the store refused last time."""
        refused, self._unsettled = self._unsettled, []
        for entry in refused:
            self.settle(entry)

    async def drain(self) -> None:
        """Wait for every post in flight."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self, grace: float = STOP_GRACE) -> None:
        """A graceful stop (SIGTERM, `docker stop`; issue 22, item 12): nothing new is
        reserved, the posts already reserved are sent and marked for up to `grace` seconds, and
        the group-committed marks are committed before the database closes. Posts still in
        flight after that are stopped; their pending rows are settled at the next start."""
        self._reconciler.stop_reserving()
        tasks = list(self._tasks)
        if tasks:
            _, late = await asyncio.wait(tasks, timeout=grace)
            for task in late:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            if late:
                log.warning("%d digest post(s) still in flight at the stop: settled at the next "
                            "start", len(late))  # fmt: skip
        await self._reconciler.drain_marks()

    async def _delivering(self, sub: Subscription, due: Due) -> None:
        assert sub.id is not None
        period = due.firing.period
        key = (sub.id, period.key)
        try:
            await self._reconciler.deliver(sub, period, late=due.late, resume=key in self._refused)
        except StoreError as exc:
            log.warning("digest %s (%s): %s; tried again at the next tick", sub.id, period, exc)
            self._refused.add(key)
            self._due.put_back(due)
            return
        except Exception:
            log.exception("a digest post (%s) could not be delivered", period)
        self._refused.discard(key)

    async def _settling(self, entry: LedgerEntry) -> None:
        try:
            await self._reconciler.settle(entry)
        except StoreError as exc:
            log.warning("digest row %s: %s; settled again at the next tick", entry.id, exc)
            self._unsettled.append(entry)
        except Exception:
            log.exception("a digest post (%s) could not be settled", entry.period)

    def _track(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task
