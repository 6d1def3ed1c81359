"""Group commit: writes that arrive while one transaction is being committed go together in
the next one.

A digest fan-out reserves and marks thousands of ledger rows with 50 posts in flight: one
`BEGIN IMMEDIATE ... COMMIT` and one hop to the writer thread each cost more than the row. Here
the first write starts a transaction at once (a lone write waits for nothing); those that come
while it runs are queued and committed together, each in its own savepoint
(`Database.write_each`). Every caller still gets its own answer only once its transaction is
committed, so "written" means durable, exactly as with `Database.write`: a caller that sends a
post after its reservation returned has a committed row behind it, and one whose write failed
wrote nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar, cast

from bot.store.database import Database
from bot.store.sql import Connection

T = TypeVar("T")
Write = Callable[[Connection], Any]


class GroupCommit:
    def __init__(self, db: Database) -> None:
        self._db = db
        self._queued: list[tuple[Write, asyncio.Future[Any]]] = []
        self._flusher: asyncio.Task[None] | None = None
        # How the writes went: transactions committed and writes in them (tests, benchmarks).
        self.transactions = 0
        self.writes = 0

    async def write(self, fn: Callable[[Connection], T]) -> T:
        """Run `fn` in a transaction, with whatever other writes are queued by then; returns
        (or raises) once that transaction is over."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queued.append((fn, future))
        if self._flusher is None:
            # Its own task: a caller cancelled while waiting strands nobody else's write.
            self._flusher = asyncio.create_task(self._flush(), name="laurel-group-commit")
        return cast(T, await future)

    async def drain(self) -> None:
        """Wait until every write queued so far is committed (or has failed): a stopping
        process's marks reach the database before it closes (issue 22, item 12)."""
        while self._flusher is not None:
            # Waited for, not awaited: a failed transaction was told to its writers already.
            await asyncio.wait([self._flusher])

    async def _flush(self) -> None:
        try:
            while self._queued:
                batch, self._queued = self._queued, []
                await self._commit(batch)
        except BaseException as exc:  # cancelled with the loop: nothing queued is written
            for _, future in self._queued:
                if not future.done():
                    future.set_exception(exc)
            self._queued = []
            raise
        finally:
            self._flusher = None

    async def _commit(self, batch: list[tuple[Write, asyncio.Future[Any]]]) -> None:
        try:
            outcomes = await self._db.write_each([fn for fn, _ in batch])
        except BaseException as exc:  # the transaction as a whole: none of it was written
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        self.transactions += 1
        self.writes += len(batch)
        for (_, future), (value, error) in zip(batch, outcomes, strict=True):
            if future.done():  # its caller was cancelled; the write stands, as with write()
                continue
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(value)
