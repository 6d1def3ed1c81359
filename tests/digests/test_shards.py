"""Digests partitioned by shard (issue 15 item 4): engines of several processes on one SQLite
file, each scheduling and settling only the guilds on its shards, the shared ledger keeping
every (subscription, period) to one post — across a stop mid-fan-out and a restart, and across
shards moved between processes or regrouped under another shard count.

Each engine has its own connections to the file (as a process would) and one Discord (the
recording deliverer) between them; the clock is one ManualClock.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.digests.engine import DigestEngine
from bot.domain.shards import Shards, shard_of
from bot.domain.subscriptions import Subscription, Theme
from bot.observability.metrics import Metrics
from bot.render.digest_posts import Post
from bot.settings import DigestSettings
from bot.store.database import Database
from bot.store.subscriptions import SubscriptionRepository
from tests.support.backends import open_sqlite
from tests.support.clock import ManualClock
from tests.support.digests import START, RecordingDeliverer, make_engine

SHARD_COUNT = 4
GUILDS = 40  # ten on each of the four shards
PER_GUILD = 5  # 200 subscriptions
STEP = dt.timedelta(minutes=10)


def at(day: int, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime(2026, 1, day, hour, minute, tzinfo=dt.UTC)


def days(*numbers: int) -> list[str]:
    return [f"2026-01-{n:02d}" for n in numbers]


@dataclass
class GatedDeliverer(RecordingDeliverer):
    """Discord, where the sends to `held` channels never answer (the process is stopped while
    they wait): to odd channels after Discord made the post (the answer is lost), to even
    ones before it got the request."""

    held: set[int] = field(default_factory=set)
    waiting: set[int] = field(default_factory=set)

    async def send(
        self, channel_id: int, post: Post, *, nonce: str, thread_name: str, role_id: int | None
    ) -> int:
        if channel_id not in self.held:
            return await super().send(
                channel_id, post, nonce=nonce, thread_name=thread_name, role_id=role_id
            )
        if channel_id % 2:
            await super().send(
                channel_id, post, nonce=nonce, thread_name=thread_name, role_id=role_id
            )
        self.waiting.add(channel_id)
        await asyncio.Event().wait()  # until cancelled
        raise AssertionError("unreachable")


@dataclass
class Cluster:
    """One database file, one Discord, one clock; engines ("processes") started on it."""

    path: Path
    clock: ManualClock
    deliverer: GatedDeliverer
    subs: list[Subscription]
    dbs: list[Database] = field(default_factory=list)

    async def process(
        self, ids: Iterable[int], count: int = SHARD_COUNT, **settings: float
    ) -> DigestEngine:
        db = await open_sqlite(self.path)  # its own connections, as a process has
        self.dbs.append(db)
        return make_engine(
            db,
            self.clock,
            self.deliverer,
            Metrics(),
            DigestSettings(requests_per_second=None, **settings),
            SubscriptionRepository(db),
            shards=Shards(tuple(sorted(ids)), count),
        )

    async def run(self, engines: list[DigestEngine], end: dt.datetime) -> None:
        """Tick every engine side by side every STEP of fake time until `end`."""
        while self.clock.now() < end:
            self.clock.set(min(end, self.clock.now() + STEP))
            await asyncio.gather(*(engine.run_due() for engine in engines))

    def channel(self, sub_id: int) -> int:
        return next(s.channel_id for s in self.subs if s.id == sub_id)

    def with_posts(self) -> set[int]:
        """The subscriptions with at least one post."""
        return {
            s.id for s in self.subs if s.id is not None and self.deliverer.periods(s.channel_id)
        }

    def posted(self) -> dict[int, list[str]]:
        """Each subscription's posts, by period, in the order Discord got them."""
        return {s.channel_id: self.deliverer.periods(s.channel_id) for s in self.subs}

    def assert_each_posted_once(self, periods: list[str]) -> None:
        twice = [
            k
            for k, n in Counter((s.channel_id, s.thread_name) for s in self.deliverer.sent).items()
            if n > 1
        ]
        assert twice == []
        wrong = {c: p for c, p in self.posted().items() if sorted(p) != periods}
        assert wrong == {}, (
            f"{len(wrong)} of {len(self.subs)} not posted once for each of {periods}"
        )


@pytest.fixture
async def cluster(template_db: Path, tmp_path: Path) -> AsyncIterator[Cluster]:
    path = tmp_path / "laurel.db"
    path.write_bytes(template_db.read_bytes())
    clock = ManualClock(START)
    subs: list[Subscription] = []
    async with await open_sqlite(path) as db:
        repository = SubscriptionRepository(db)
        for n in range(GUILDS * PER_GUILD):
            guild = (n // PER_GUILD + 1) << 22  # on shard (n // PER_GUILD + 1) % 4
            made = Subscription.model_validate(
                {
                    "guild_id": guild,
                    "channel_id": 10_000 + n,
                    "theme": Theme.PAPER_OF_THE_DAY,
                    "time": dt.time(9, 0),
                    "timezone": "UTC",
                    "created_by": 7,
                    "created_at": START,
                }
            )
            subs.append(await repository.add(made))
    found = Cluster(path, clock, GatedDeliverer(clock), subs)
    try:
        yield found
    finally:
        for opened in found.dbs:
            await opened.close()


def on(shards: Iterable[int], subs: list[Subscription], count: int = SHARD_COUNT) -> set[int]:
    wanted = set(shards)
    return {s.id for s in subs if s.id is not None and shard_of(s.guild_id, count) in wanted}


async def test_two_processes_post_every_subscription_once_each_day(cluster: Cluster) -> None:
    low, high = await cluster.process({0, 1}), await cluster.process({2, 3})

    await cluster.run([low, high], at(7, 12))

    cluster.assert_each_posted_once(days(5, 6, 7))
    # Each schedules its own shards' guilds, and only those.
    assert set(low.due.slots()) == on({0, 1}, cluster.subs)
    assert set(high.due.slots()) == on({2, 3}, cluster.subs)
    assert len(low.due.slots()) == len(high.due.slots()) == 100


async def test_overlapping_shards_while_a_process_hands_over_still_post_once(
    cluster: Cluster,
) -> None:
    # A move in progress: the old process still runs shards 1 and 2, the new one has them too.
    old, new = await cluster.process({0, 1, 2}), await cluster.process({1, 2, 3})

    await cluster.run([old, new], at(6, 12))

    cluster.assert_each_posted_once(days(5, 6))


async def test_a_process_stopped_mid_fan_out_settles_its_own_rows_when_it_restarts(
    cluster: Cluster,
) -> None:
    low = await cluster.process({0, 1}, fan_out_concurrency=10)
    high = await cluster.process({2, 3}, fan_out_concurrency=10)
    ours = on({0, 1}, cluster.subs)
    # Every third of low's channels never answers: ten posts hang, holding the fan-out.
    cluster.deliverer.held = {cluster.channel(i) for i in sorted(ours)[::3]}
    await cluster.run([high], at(5, 8, 50))  # nothing due yet
    await cluster.run([low], at(5, 8, 50))
    cluster.clock.set(at(5, 9))
    assert await low.ticker.tick() == 100
    await high.run_due()
    for _ in range(500):
        if len(cluster.deliverer.waiting) == 10:
            break
        await asyncio.sleep(0.01)
    assert len(cluster.deliverer.waiting) == 10

    await low.supervisor.close()  # the process is killed mid-fan-out

    cluster.deliverer.held = set()
    pending = {e.subscription_id for e in await low.ledger.pending()}
    assert len(pending) == 10
    assert pending <= ours
    # Some went, some were left pending, some never reserved (still waiting for the fan-out).
    went = cluster.with_posts() & ours
    assert 0 < len(went) < 100
    # The other process, restarted now, leaves low's pending rows alone: they are low's.
    cluster.clock.set(at(5, 9, 20))
    high = await cluster.process({2, 3})
    await high.run_due()
    assert {e.subscription_id for e in await high.ledger.pending()} == pending
    assert {e.subscription_id for e in await high.ledger.pending(Shards((2, 3), 4))} == set()

    low = await cluster.process({0, 1})  # restarted: settles its rows, catches up the rest
    await cluster.run([low, high], at(6, 12))

    cluster.assert_each_posted_once(days(5, 6))
    assert await low.ledger.pending() == []


async def test_shards_moved_or_regrouped_between_runs_never_post_twice_nor_skip(
    cluster: Cluster,
) -> None:
    # Day 5 until 09:30: one process runs shards 0 and 1 only (2 and 3 are down).
    first = await cluster.process({0, 1})
    await cluster.run([first], at(5, 9, 30))
    assert cluster.with_posts() == on({0, 1}, cluster.subs)
    await first.supervisor.close()

    # Then one process takes all four: 0 and 1 are not posted again, 2 and 3 are caught up.
    every = await cluster.process({0, 1, 2, 3})
    await cluster.run([every], at(6, 12))
    cluster.assert_each_posted_once(days(5, 6))
    await every.supervisor.close()

    # Then the shards are regrouped under another count, across two other processes.
    even, odd = await cluster.process({0}, count=2), await cluster.process({1}, count=2)
    await cluster.run([even, odd], at(7, 12))
    cluster.assert_each_posted_once(days(5, 6, 7))
    assert len(even.due.slots()) + len(odd.due.slots()) == 200
