"""Two shard processes of one bot on one database, against one Discord with 4 shards (issue
15, "Shows"), each test on SQLite (one file) and on PostgreSQL (one database): real discord.py
AutoShardedBots, a real database, the stand-in's own record.

Two ShardedLaurelBots (shards 0-1 and 2-3 of 4), each with its own connections to the database
as a process has: every slash command is answered once, by the bot that owns the guild's shard;
a few hundred digests due in the same minute are posted once each, none skipped, the two together
keeping the bot's one request rate; and with both stopped mid-fan-out and the shards regrouped
(0,2 and 1,3), the rest of that day and the next are posted once each, none skipped.
(tests/reliability/test_sharded_kills.py does the stop with SIGKILL, on `laurel run` processes.)

Time: a clock on the real seconds (the pacing is measured in them), set to the minute the
digests are due; nothing is scheduled, each test ticks the engines itself.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterable
from contextlib import AsyncExitStack

import discord
import pytest

from bot.app import LaurelBot
from bot.domain.shards import Shards, shard_of
from bot.domain.subscriptions import Subscription, Theme
from bot.settings import BackupSettings, DigestSettings, DiscordSettings, Settings
from bot.store.database import Database
from bot.store.ledger import LedgerRepository
from bot.store.subscriptions import SubscriptionRepository
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.config import Config
from laurel_console.localdiscord.server import LocalDiscord
from laurel_console.localdiscord.shards import add_spread_guilds
from laurel_console.localdiscord.state import Guild
from tests.support.shared_store import SharedStore, shared_store

__all__ = ["shared_store"]  # fixtures: each test on both backends

COUNT = 4
GUILDS = 160  # forty on each shard
PER_GUILD = 2  # 320 digests due at 09:00
RATE = 100.0  # the bot's one rate: 50/s for each of the two processes
POST = "POST /channels/{channel_id}/messages"
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"
DAY_ONE = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC)
DAY_TWO = DAY_ONE + dt.timedelta(days=1)


class SecondsClock:
    """The wall clock set to a chosen moment, moving with the real seconds from there: the
    digests fall due when the test says, and the pacing waits real time (as Discord counts)."""

    def __init__(self, start: dt.datetime) -> None:
        self.jump(start)

    def jump(self, to: dt.datetime) -> None:
        self._base, self._at = to, time.monotonic()

    def now(self) -> dt.datetime:
        return self._base + dt.timedelta(seconds=time.monotonic() - self._at)

    def monotonic(self) -> float:
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


@pytest.fixture
def config() -> Config:
    return Config(heartbeat_interval_ms=200, recommended_shards=COUNT, max_concurrency=COUNT)


@pytest.fixture
def guilds(server: LocalDiscord) -> list[Guild]:
    spread = add_spread_guilds(server.world, GUILDS, members=[server.world.find_user("grace")])
    for guild in spread:
        for n in range(PER_GUILD):
            server.world.add_channel(guild, f"digest-{n}")
    assert Counter(shard_of(g.id, COUNT) for g in spread) == dict.fromkeys(range(COUNT), 40)
    return spread


@pytest.fixture
async def subscriptions(db: Database, guilds: list[Guild]) -> list[Subscription]:
    """A paper of the day at 09:00 UTC in each digest channel of every guild."""
    repository = SubscriptionRepository(db)
    made = []
    for guild in guilds:
        for channel in guild.channels.values():
            if not channel.name.startswith("digest-"):
                continue
            sub = Subscription.model_validate(
                {
                    "guild_id": guild.id,
                    "channel_id": channel.id,
                    "theme": Theme.PAPER_OF_THE_DAY,
                    "time": dt.time(9, 0),
                    "timezone": "UTC",
                    "created_by": guild.owner_id,
                    "created_at": DAY_ONE - dt.timedelta(hours=1),
                }
            )
            made.append(await repository.add(sub))
    assert len(made) == GUILDS * PER_GUILD
    return made


def settings(ids: Iterable[int]) -> Settings:
    return Settings(
        backups=BackupSettings(enabled=False),
        digests=DigestSettings(requests_per_second=RATE, retry_base_seconds=0.01),
        discord=DiscordSettings(shard_ids=sorted(ids), shard_count=COUNT),
    )


class Deployment:
    """Processes of one bot on one database, each with its own connections."""

    def __init__(self, server: LocalDiscord, store: SharedStore, clock: SecondsClock) -> None:
        self.server, self.store, self.clock = server, store, clock

    async def start(self, stack: AsyncExitStack, *groups: Iterable[int]) -> list[LaurelBot]:
        async def one(ids: Iterable[int]) -> LaurelBot:
            db = await stack.enter_async_context(await self.store.open())
            return await stack.enter_async_context(
                laurel_on(self.server, db, settings(ids), clock=self.clock, scheduler=None)
            )

        return list(await asyncio.gather(*(one(ids) for ids in groups)))

    async def fan_out(self, bots: list[LaurelBot], due: dt.datetime) -> float:
        """Every process ticks in the minute `due`; the seconds until all posts are done."""
        self.clock.jump(due)
        began = time.monotonic()
        started = await asyncio.gather(*(bot.digest_engine.run_due() for bot in bots))
        assert all(n > 0 for n in started)  # each process posted its own share
        return time.monotonic() - began


@pytest.fixture
async def db(shared_store: SharedStore) -> AsyncIterator[Database]:
    """The test's own connections to the shared database (the subscriptions are made here)."""
    async with await shared_store.open() as database:
        yield database


@pytest.fixture
def deployment(server: LocalDiscord, shared_store: SharedStore) -> Deployment:
    return Deployment(server, shared_store, SecondsClock(DAY_ONE - dt.timedelta(minutes=1)))


@pytest.fixture(autouse=True)
def no_errors(caplog: pytest.LogCaptureFixture) -> Iterable[None]:
    caplog.set_level(logging.WARNING)
    yield
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], "a process logged errors"


def posts(server: LocalDiscord, subs: list[Subscription]) -> dict[int, list[str]]:
    """Each digest channel's messages (by nonce) as Discord stored them."""
    return {s.channel_id: [m["nonce"] for m in server.messages(s.channel_id)] for s in subs}


def busiest_second(at: list[float]) -> int:
    """The most requests in any one second (a window starting at each request)."""
    at = sorted(at)
    return max((sum(1 for t in at[i:] if t < start + 1.0) for i, start in enumerate(at)), default=0)


async def test_each_command_is_answered_once_by_the_process_owning_its_shard(
    server: LocalDiscord, deployment: Deployment, guilds: list[Guild]
) -> None:
    answered: dict[int, list[int]] = {}  # interaction id -> the shard ids of who answered
    async with AsyncExitStack() as stack:
        low, high = await deployment.start(stack, (0, 1), (2, 3))
        for bot in (low, high):
            owner = bot.settings.discord.shards
            assert owner is not None
            held = {g.id for g in bot.guilds}
            assert all(owner.owns(g) for g in held)
            assert held >= {g.id for g in guilds if owner.owns(g.id)}

            async def seen(interaction: discord.Interaction, ids: Shards = owner) -> None:
                answered.setdefault(interaction.id, []).extend(ids.ids)

            bot.add_listener(seen, "on_interaction")
        asked = guilds[:40]  # ten on each shard, in turn
        for guild in asked:
            interaction = await server.slash("about", guild_id=guild.id)
            answer = await interaction.message()
            assert answer["content"] or answer["embeds"]
            owner_ids = (0, 1) if shard_of(guild.id, COUNT) < 2 else (2, 3)
            assert answered[interaction.id] == list(owner_ids)
    callbacks = Counter(
        r.path.split("/interactions/")[1].split("/")[0] for r in server.requests_to(CALLBACK)
    )
    assert len(answered) == len(asked) == len(callbacks)
    assert set(callbacks.values()) == {1}  # one answer each, none from the other process


async def test_digests_due_together_are_posted_once_each_at_the_bots_one_rate(
    server: LocalDiscord, deployment: Deployment, subscriptions: list[Subscription]
) -> None:
    async with AsyncExitStack() as stack:
        bots = await deployment.start(stack, (0, 1), (2, 3))
        assert [bot.delivery.pacer.rate for bot in bots] == [RATE / 2, RATE / 2]
        took = await deployment.fan_out(bots, DAY_ONE)

    posted = posts(server, subscriptions)
    assert [c for c, nonces in posted.items() if len(nonces) != 1] == []  # none twice or skipped
    sent = server.requests_to(POST)
    assert len(sent) == len(subscriptions)  # no second attempt either (Discord would drop it)
    # The two processes together keep the one rate (each paces half): RATE/s and a request of
    # slack per process as sent, a little more as received (the loop delays some requests).
    # Each pacing all of RATE, they reach about twice it.
    assert busiest_second([r.at for r in sent]) <= RATE * 1.1
    assert took >= (len(subscriptions) - 2) / RATE
    print(
        f"\n{len(sent)} digests by 2 processes in {took:.2f} s, busiest second "
        f"{busiest_second([r.at for r in sent])}, duplicates 0, skipped 0"
    )


async def test_shards_regrouped_after_a_stop_mid_fan_out_post_each_day_once(
    server: LocalDiscord,
    deployment: Deployment,
    db: Database,
    subscriptions: list[Subscription],
) -> None:
    total = len(subscriptions)
    # Day one: both processes are stopped (gracefully) a quarter of the way through the fan-out.
    async with AsyncExitStack() as stack:
        bots = await deployment.start(stack, (0, 1), (2, 3))
        deployment.clock.jump(DAY_ONE)
        runs = [asyncio.create_task(bot.digest_engine.run_due()) for bot in bots]
        await server.rest.pulse.until(
            lambda: sum(1 for r in server.requests_to(POST) if r.status) >= total // 4 or None,
            30,
            "a quarter of the posts",
        )
    # Those not reserved yet were left when the processes stopped (due at the next start).
    await asyncio.gather(*runs, return_exceptions=True)
    stopped_at = sum(len(n) for n in posts(server, subscriptions).values())
    pending = await LedgerRepository(db).pending()
    assert 0 < stopped_at < total
    # A graceful stop sends and marks what it reserved (issue 22, item 12): no row in flight.
    assert pending == []

    # Then each process runs one shard the other had: it catches up the rest of day one on
    # it; the next day, posts day two.
    async with AsyncExitStack() as stack:
        bots = await deployment.start(stack, (0, 2), (1, 3))
        took = await deployment.fan_out(bots, DAY_ONE + dt.timedelta(minutes=20))
        took += await deployment.fan_out(bots, DAY_TWO)

    second = posts(server, subscriptions)
    assert [c for c, nonces in second.items() if len(set(nonces)) != 2 or len(nonces) != 2] == []
    assert await LedgerRepository(db).pending() == []
    print(
        f"\nstopped after {stopped_at} of {total} with {len(pending)} pending, shards "
        f"regrouped: day one's rest and day two's {total} in {took:.2f} s, "
        f"{len(server.requests_to(POST))} POSTs, duplicates 0, skipped 0"
    )
