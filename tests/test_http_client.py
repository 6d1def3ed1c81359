"""The amortised rate-limit bucket sweep (bot/http_client.py): the work it does per new bucket
stays flat as the number of channels grows, it still drops what discord.py drops, and LaurelBot
uses it for its own client only.

Counted, not timed: the CPU figures are in benchmarks/digests.py (`--sweep-scaling`)."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest
from discord.http import HTTPClient

from bot.app import LaurelBot
from bot.http_client import SWEEP_FLOOR, SweepingHTTPClient
from bot.settings import Settings
from bot.store.database import Database
from tests.support.clock import ManualClock


class UpstreamCounting(HTTPClient):
    """discord.py's own sweep, counting the buckets it scans."""

    buckets_scanned = 0

    def _try_clear_expired_ratelimits(self) -> None:
        if len(self._buckets) >= SWEEP_FLOOR:
            self.buckets_scanned += len(self._buckets)
        super()._try_clear_expired_ratelimits()


def make_buckets(http: HTTPClient, channels: int) -> None:
    # What a fan-out does: one new bucket per channel, keyed as discord.py keys them.
    for channel in range(channels):
        http.get_ratelimit(f"POST /channels/{{channel_id}}/messages:{channel}")


@pytest.mark.parametrize("channels", [200, 1_000, 10_000])
async def test_buckets_scanned_per_new_bucket_stay_flat(channels: int) -> None:
    http = SweepingHTTPClient(asyncio.get_running_loop())
    make_buckets(http, channels)
    assert http.buckets_created == channels
    assert len(http._buckets) == channels  # none inactive yet: none dropped
    # Each sweep of S buckets follows at least S/2 creations: at most 2 scans a new bucket.
    assert http.buckets_scanned <= 2 * channels
    if channels < SWEEP_FLOOR:
        assert http.sweeps == 0
    else:
        assert http.sweeps >= 1


async def test_upstream_scans_grow_with_the_channels() -> None:
    # The same 2,000 channels, discord.py's own sweep: about a thousand scans a new bucket.
    upstream = UpstreamCounting(asyncio.get_running_loop())
    ours = SweepingHTTPClient(asyncio.get_running_loop())
    make_buckets(upstream, 2_000)
    make_buckets(ours, 2_000)
    assert upstream.buckets_scanned > 500 * 2_000
    assert ours.buckets_scanned <= 2 * 2_000


async def test_inactive_buckets_are_still_dropped() -> None:
    loop = asyncio.get_running_loop()
    http = SweepingHTTPClient(loop)
    make_buckets(http, 600)
    idle = [key for n, key in enumerate(http._buckets) if n < 500]
    for key in idle:
        http._buckets[key]._last_request = loop.time() - 301  # idle past discord.py's 300 s
    sweeps = http.sweeps
    created = 0
    while http.sweeps == sweeps:
        http.get_ratelimit(f"new:{created}")
        created += 1
        assert created <= 600, "no sweep within max(256, survivors) new buckets"
    assert not any(key in http._buckets for key in idle)
    assert len(http._buckets) == 600 - 500 + created
    assert http._survivors == len(http._buckets)


async def test_a_busy_bucket_is_kept() -> None:
    loop = asyncio.get_running_loop()
    http = SweepingHTTPClient(loop)
    make_buckets(http, SWEEP_FLOOR - 1)
    first = next(iter(http._buckets))
    http._buckets[first]._last_request = loop.time() - 301
    http._buckets[first].outgoing = 1  # a request in flight: not inactive, whatever its age
    http.get_ratelimit("one more")  # the 256th: the first sweep
    assert http.sweeps == 1
    assert first in http._buckets


async def test_replacing_keeps_the_settings() -> None:
    loop = asyncio.get_running_loop()
    plain = HTTPClient(
        loop, proxy="http://127.0.0.1:9", unsync_clock=False, max_ratelimit_timeout=40
    )
    made = SweepingHTTPClient.replacing(plain)
    assert made.loop is loop
    assert made.proxy == "http://127.0.0.1:9"
    assert made.use_clock is True
    assert made.max_ratelimit_timeout == 40


async def test_laurel_bot_posts_through_it(db: Database) -> None:
    session = aiohttp.ClientSession()
    bot = LaurelBot(
        settings=Settings(), db=db, scheduler=None, clock=ManualClock(), http_session=session
    )
    try:
        assert isinstance(bot.http, SweepingHTTPClient)
        assert bot._connection.http is bot.http  # messages, channels: every model's requests
        assert bot.tree._http is bot.http  # command sync and interaction answers
        # Installed for this client only: discord.py's own class is untouched.
        other = discord.Client(intents=discord.Intents.none())
        assert type(other.http) is HTTPClient
        await other.close()
    finally:
        await bot.close()
        await session.close()


async def test_laurel_bot_asks_for_no_message_events(db: Database) -> None:
    session = aiohttp.ClientSession()
    bot = LaurelBot(
        settings=Settings(), db=db, scheduler=None, clock=ManualClock(), http_session=session
    )
    try:
        # Its own posts would come back as MESSAGE_CREATE: a digest fan-out's worth of them.
        assert not bot.intents.guild_messages
        assert not bot.intents.dm_messages
        assert bot.intents.guilds  # channels, threads and forums are still cached
        assert bot._connection.max_messages is None
        assert not bot.intents.members  # none privileged
        assert not bot.intents.message_content
    finally:
        await bot.close()
        await session.close()


async def test_the_bot_works_with_the_session_it_is_handed_and_leaves_it_to_its_owner(
    db: Database,
) -> None:
    """Outgoing HTTP goes through a session made outside the bot and handed in (issue 26, as
    discord.py's advanced_startup example does): whoever made it closes it, not the bot."""
    async with aiohttp.ClientSession() as session:
        bot = LaurelBot(
            settings=Settings(), db=db, scheduler=None, clock=ManualClock(), http_session=session
        )
        await bot.close()
        assert not session.closed
