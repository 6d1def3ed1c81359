"""With shards set, Laurel is a discord.py AutoShardedBot on those shards (issue 15 item 3);
without, the plain Bot it always was. Against the stand-in: both shards identify and the bot
is ready. (Guilds dispatched per shard come with the stand-in's shard support.)"""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import pytest
from discord.ext import commands

from bot.app import LaurelBot, ShardedLaurelBot, laurel_bot_class, use_endpoints
from bot.domain.shards import Shards
from bot.settings import BackupSettings, DiscordSettings, Settings
from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.clock import ManualClock


class QuickShardedBot(ShardedLaurelBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s between IDENTIFYs: the stand-in has no identify rate limit."""


def settings_for(server: LocalDiscord, **discord: Any) -> Settings:
    endpoint = DiscordSettings(
        api_base_url=server.rest_url, gateway_url=server.gateway_url, **discord
    )
    return Settings(backups=BackupSettings(enabled=False), discord=endpoint)


async def test_a_sharded_laurel_runs_its_shards_and_schedules_their_digests(
    server: LocalDiscord, db: Database
) -> None:
    settings = settings_for(server, shard_ids="0-1", shard_count=2)
    assert laurel_bot_class(settings) is ShardedLaurelBot
    use_endpoints(server.rest_url, server.gateway_url)
    session = aiohttp.ClientSession()
    bot = QuickShardedBot(
        settings=settings,
        db=db,
        scheduler=None,
        clock=ManualClock(),
        http_session=session,
        guild_ready_timeout=0.01,
    )
    running: asyncio.Task[None] | None = None
    try:
        await bot.login(server.token)
        running = asyncio.create_task(bot.connect())
        await asyncio.wait_for(bot.wait_until_ready(), timeout=15)
        assert isinstance(bot, commands.AutoShardedBot)
        assert (bot.shard_ids, bot.shard_count) == ([0, 1], 2)
        assert sorted(bot.shards) == [0, 1]
        assert bot.digest_engine.ticker.shards == Shards((0, 1), 2)
        # Both shards of two in this one process: all of the bot's rate.
        assert bot.delivery.pacer.rate == settings.digests.requests_per_second == 50.0
    finally:
        await bot.close()
        if running is not None:
            await asyncio.gather(running, return_exceptions=True)
        await session.close()


async def test_a_shard_process_paces_only_its_shards_share_of_discords_rate(
    server: LocalDiscord, db: Database
) -> None:
    settings = settings_for(server, shard_ids="3", shard_count=4)
    async with aiohttp.ClientSession() as session:
        bot = QuickShardedBot(
            settings=settings, db=db, scheduler=None, clock=ManualClock(), http_session=session
        )
        # Never logged in (nothing to close): one shard of four paces a quarter of 50/s.
        assert bot.delivery.pacer.rate == 12.5


def test_without_shards_laurel_is_the_plain_bot(
    server: LocalDiscord,
) -> None:
    assert laurel_bot_class(settings_for(server)) is LaurelBot
    assert not issubclass(LaurelBot, commands.AutoShardedBot)


async def test_the_plain_bot_is_not_built_with_shards(server: LocalDiscord, db: Database) -> None:
    async with aiohttp.ClientSession() as session:
        with pytest.raises(TypeError, match="laurel_bot_class"):
            LaurelBot(
                settings=settings_for(server, shard_count=2),
                db=db,
                scheduler=None,
                clock=ManualClock(),
                http_session=session,
            )
