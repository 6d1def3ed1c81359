"""LaurelBot running against a LocalDiscord in the same process: for the console, tests, benchmarks.

The bot is the real one (real discord.py, real commands, real SQLite); only Discord is local.
Time is the caller's: on the system clock the bot gets a live scheduler, as `laurel run` does;
on a clock the caller moves by hand it gets none, so no job fired by the wall clock (a digest
tick, a backup) races what the caller does.
"""

from __future__ import annotations

import asyncio
import enum
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import aiohttp
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.app import LaurelBot, ShardedLaurelBot, use_endpoints
from bot.domain.clock import Clock, SystemClock
from bot.settings import BackupSettings, Settings
from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord


class HarnessBot(LaurelBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before every IDENTIFY but the first, for Discord's identify rate
        limit; the stand-in has none, so a re-identify need not wait."""


class HarnessShardedBot(ShardedLaurelBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s between the shards' IDENTIFYs either (as HarnessBot's)."""


class _ByClock(enum.Enum):
    DEFAULT = enum.auto()


def scheduler_for(clock: Clock) -> AsyncIOScheduler | None:
    """A live scheduler on the system clock; none on any other (its jobs would fire by the
    wall clock, which a fake clock does not follow)."""
    return AsyncIOScheduler(timezone="UTC") if isinstance(clock, SystemClock) else None


@asynccontextmanager
async def laurel_on(
    server: LocalDiscord,
    db: Database,
    settings: Settings | None = None,
    *,
    clock: Clock,
    ready_timeout: float = 10,
    scheduler: AsyncIOScheduler | _ByClock | None = _ByClock.DEFAULT,
) -> AsyncIterator[LaurelBot]:
    """Start LaurelBot against `server` on `db`, wait until it is ready, and stop it after.

    `clock`: the bot's one clock, made by the caller (a root); a test moves a ManualClock to drive
    scheduled posts and `/paper today` through time. `scheduler`: by default `scheduler_for`
    the clock; a test that counts jobs hands in one it started paused.
    """
    if isinstance(scheduler, _ByClock):
        scheduler = scheduler_for(clock)
    # Without settings of its own, a harness run (a test, a benchmark) is no deployment: it
    # keeps no backups of its throwaway database.
    settings = settings or Settings(backups=BackupSettings(enabled=False))
    endpoint = settings.discord.model_copy(
        update={"api_base_url": server.rest_url, "gateway_url": server.gateway_url}
    )
    settings = settings.model_copy(update={"discord": endpoint})
    use_endpoints(endpoint.api_base_url, endpoint.gateway_url)
    # Shards in the settings: one shard process of a sharded bot, as `laurel run --shards`.
    kind = HarnessBot if settings.discord.shards is None else HarnessShardedBot
    session = aiohttp.ClientSession()  # the bot's outgoing HTTP, handed in and closed here
    bot = kind(
        settings=settings,
        db=db,
        scheduler=scheduler,
        guild_ready_timeout=0.01,
        clock=clock,
        http_session=session,
    )
    running: asyncio.Task[None] | None = None
    try:
        # Inside the try: login runs setup_hook, and a start that fails there must still
        # close the sessions discord.py and the bot have opened by then.
        await bot.login(server.token)
        running = asyncio.create_task(bot.connect(), name="laurel-gateway")
        ready = asyncio.create_task(bot.wait_until_ready())
        done, _ = await asyncio.wait(
            {ready, running}, timeout=ready_timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if running in done:
            ready.cancel()
            running.result()  # raises whatever stopped the bot
        if not done:
            ready.cancel()
            raise TimeoutError(f"LaurelBot was not ready within {ready_timeout} s")
        yield bot
    finally:
        await bot.close()
        if running is not None:
            await asyncio.gather(running, return_exceptions=True)
        await session.close()
