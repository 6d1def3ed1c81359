"""Leases in bot_state: of several processes on one database asking at once, exactly one holds
a lease; it runs out if its holder dies, and only its holder gives it up."""

from __future__ import annotations

import asyncio
import datetime as dt

from bot.store.bot_state import BotStateRepository
from bot.store.database import Database
from tests.support.backends import open_again

NOW = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC)
TTL = dt.timedelta(minutes=5)


async def test_of_many_asking_at_once_on_their_own_connections_one_gets_it(
    db: Database,
) -> None:
    others = [await open_again(db) for _ in range(5)]  # five processes
    try:
        taken = await asyncio.gather(
            *(
                BotStateRepository(other).take_lease("sync", f"p{i}", now=NOW, ttl=TTL)
                for i, other in enumerate(others)
            )
        )
    finally:
        for other in others:
            await other.close()
    assert sorted(taken) == [False] * 4 + [True]


async def test_a_lease_is_held_until_it_runs_out_or_its_holder_gives_it_up(db: Database) -> None:
    state = BotStateRepository(db)
    assert await state.take_lease("sync", "a", now=NOW, ttl=TTL)
    assert await state.take_lease("sync", "a", now=NOW, ttl=TTL)  # its holder may renew it
    assert not await state.take_lease("sync", "b", now=NOW + TTL - dt.timedelta(seconds=1), ttl=TTL)
    assert await state.take_lease("other", "b", now=NOW, ttl=TTL)  # leases are by name

    assert await state.take_lease("sync", "b", now=NOW + TTL, ttl=TTL)  # a dead holder's ran out
    await state.release_lease("sync", "a")  # no longer a's: left alone
    assert not await state.take_lease("sync", "a", now=NOW + TTL, ttl=TTL)
    await state.release_lease("sync", "b")
    assert await state.take_lease("sync", "a", now=NOW + TTL, ttl=TTL)
