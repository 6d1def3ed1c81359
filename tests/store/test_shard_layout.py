"""The shard layout in the database (issue 22, item 8), on both backends: one count for every
live process, each shard in one live process, and the shards no live process runs reported
with the subscriptions waiting on them."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.domain.shards import Shards
from bot.store.database import Database
from bot.store.shard_layout import ShardLayout, ShardLayoutError
from bot.store.sql import Connection

NOW = dt.datetime(2026, 12, 1, 12, 0, tzinfo=dt.UTC)
TTL = dt.timedelta(seconds=60)


def four(ids: str) -> Shards:
    shards = Shards.of(ids, 4)
    assert shards is not None
    return shards


async def subscribe(db: Database, *shards: int) -> None:
    """One active subscription in a guild on each of `shards` (of 4)."""

    def write(conn: Connection) -> None:
        for n, shard in enumerate(shards):
            guild = ((n * 4 + shard) << 22) + 7  # (guild >> 22) % 4 == shard
            conn.execute(
                """
                INSERT INTO subscriptions (guild_id, channel_id, theme, cadence, days, time,
                    timezone, language, status, created_by, created_at)
                VALUES (?, ?, 'paper-of-the-day', 'daily', 127, '09:00', 'UTC', 'en', 'active',
                    7, 't')
                """,
                (guild, 100 + n),
            )

    await db.write(write)


async def test_a_process_with_another_count_is_refused_in_one_line(db: Database) -> None:
    layout = ShardLayout(db)
    await layout.claim(four("0-1"), "a pid 1", now=NOW, ttl=TTL)
    eight = Shards.of("4-7", 8)
    assert eight is not None
    with pytest.raises(ShardLayoutError) as refused:
        await layout.claim(eight, "b pid 2", now=NOW, ttl=TTL)
    message = str(refused.value)
    assert "\n" not in message
    assert "run 4 shards" in message
    assert "--shard-count 4" in message
    assert await layout.count() == 4


async def test_the_same_range_twice_is_refused(db: Database) -> None:
    layout = ShardLayout(db)
    await layout.claim(four("0-1"), "a pid 1", now=NOW, ttl=TTL)
    with pytest.raises(ShardLayoutError, match=r"shard\(s\) 1 of 4 already run .*a pid 1"):
        await layout.claim(four("1-2"), "b pid 2", now=NOW, ttl=TTL)
    await layout.claim(four("2-3"), "b pid 2", now=NOW, ttl=TTL)
    await layout.claim(four("0-1"), "a pid 1", now=NOW + TTL / 3, ttl=TTL)  # renewed


async def test_unowned_shards_are_named_with_the_subscriptions_waiting(db: Database) -> None:
    layout = ShardLayout(db)
    assert await layout.unowned(now=NOW) is None  # no shard process ever ran
    await subscribe(db, 0, 1, 2, 3, 3)
    await layout.claim(four("0-1"), "a pid 1", now=NOW, ttl=TTL)
    unowned = await layout.unowned(now=NOW)
    assert unowned is not None
    assert (unowned.shards, unowned.waiting) == ((2, 3), 3)
    assert str(unowned) == "shard(s) 2-3 of 4 run by no live process: 3 subscription(s) waiting"
    await layout.claim(four("2-3"), "b pid 2", now=NOW, ttl=TTL)
    assert (await layout.unowned(now=NOW)) is not None
    assert (await layout.unowned(now=NOW)).shards == ()  # type: ignore[union-attr]
    await layout.release("a pid 1")  # a clean stop
    assert (await layout.unowned(now=NOW)).shards == (0, 1)  # type: ignore[union-attr]


async def test_a_claim_not_renewed_expires_and_the_count_may_change(db: Database) -> None:
    layout = ShardLayout(db)
    await layout.claim(four("0-3"), "a pid 1", now=NOW, ttl=TTL)  # then killed outright
    later = NOW + TTL + dt.timedelta(seconds=1)
    await layout.claim(four("0-1"), "b pid 2", now=later, ttl=TTL)  # a's shards are free
    two = Shards.of("0-1", 2)
    assert two is not None
    with pytest.raises(ShardLayoutError):  # b runs 4 shards, live
        await layout.claim(two, "c pid 3", now=later, ttl=TTL)
    await layout.release("b pid 2")
    await layout.claim(two, "c pid 3", now=later, ttl=TTL)  # nobody live: the count changes
    assert await layout.count() == 2
    assert (await layout.unowned(now=later)).shards == ()  # type: ignore[union-attr]


async def test_the_claims_of_a_process_known_ended_need_not_expire(db: Database) -> None:
    """A `laurel run` killed outright and started again at once on the same host is not kept
    out for the claim's lifetime: its predecessor's pid no longer runs."""
    layout = ShardLayout(db)
    await layout.claim(four("0-1"), "here pid 1", now=NOW, ttl=TTL)
    with pytest.raises(ShardLayoutError):
        await layout.claim(four("0-1"), "here pid 2", now=NOW, ttl=TTL)
    await layout.claim(
        four("0-1"), "here pid 2", now=NOW, ttl=TTL, gone=lambda holder: holder == "here pid 1"
    )
    rows = await db.fetchall("SELECT DISTINCT holder FROM shard_claims")
    assert [r[0] for r in rows] == ["here pid 2"]


def test_a_process_of_this_host_that_no_longer_runs_has_ended() -> None:
    import socket
    import subprocess

    from bot.cli.shard_watch import ended, holder_name

    finished = subprocess.Popen(["true"])
    finished.wait()
    assert ended(f"{socket.gethostname()} pid {finished.pid}")
    assert not ended(holder_name())  # this one runs
    assert not ended(f"elsewhere pid {finished.pid}")  # another host's: only its expiry says
