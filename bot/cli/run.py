"""`laurel run`: the bot itself, on Discord or on any Discord-compatible endpoint."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
from contextlib import AbstractAsyncContextManager
from typing import Any

import aiohttp
import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.app import LaurelBot, laurel_bot_class, use_endpoints
from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.cli.common import clock_of, open_database
from bot.cli.lock_watch import keep_lock
from bot.cli.reach import wait_for_discord
from bot.cli.shard_watch import ShardWatch, holder_name
from bot.domain.clock import Clock
from bot.domain.shards import ShardError, Shards
from bot.errors import LaurelError
from bot.logs import configure_logging
from bot.observability.health import HealthReport, check_health
from bot.observability.server import OpsServer
from bot.settings import Settings
from bot.store.backends import instance_lock
from bot.store.database import Database


def register(commands: Any) -> None:
    run = commands.add_parser("run", help="run the bot (needs DISCORD_TOKEN)")
    run.add_argument(
        "--shards",
        metavar="IDS",
        help='the gateway shards this process runs, e.g. "0-3" or "0,2" ([discord] shard_ids)',
    )
    run.add_argument(
        "--shard-count",
        metavar="N",
        type=int,
        help="how many shards the bot has in all ([discord] shard_count)",
    )
    run.set_defaults(handler=run_bot)


def with_shards(settings: Settings, args: argparse.Namespace) -> Settings:
    """`settings` with `--shards` / `--shard-count` over `[discord] shard_ids / shard_count`;
    shards that cannot be run stop here, said in one line."""
    ids = getattr(args, "shards", None)
    count = getattr(args, "shard_count", None)
    if ids is None and count is None:
        return settings
    discord_settings = settings.discord
    merged_ids = discord_settings.shard_ids if ids is None else ids
    merged_count = discord_settings.shard_count if count is None else count
    try:
        Shards.of(merged_ids, merged_count)
    except ShardError as exc:
        raise LaurelError(f"laurel run --shards/--shard-count: {exc}") from None
    update = {"shard_ids": merged_ids, "shard_count": merged_count}
    return settings.model_copy(update={"discord": discord_settings.model_copy(update=update)})


async def run_bot(settings: Settings, args: argparse.Namespace) -> int:
    settings = with_shards(settings, args)
    if settings.token is None:
        raise LaurelError(
            "DISCORD_TOKEN is not set: export your bot's token (Discord Developer Portal → "
            "your application → Bot → Reset Token) as DISCORD_TOKEN, "
            "or try Laurel without Discord with `laurel console`"
        )
    token = settings.token.get_secret_value()
    configure_logging(settings.logging, secrets=[token, *settings.database.secrets()])
    # Shard processes share the database (the ledger keeps each post to one), never with an
    # unsharded bot.
    stopped: list[str] = []  # why the lock watch stopped the bot, if it did
    with instance_lock(
        settings.database.target, shared=settings.discord.shards is not None
    ) as lock:
        async with await open_database(settings, args) as db:
            await load_bundled_into(CatalogParts.over(db, clock_of(args)), only_if_empty=True)
            use_endpoints(settings.discord.api_base_url, settings.discord.gateway_url)
            clock = clock_of(args)  # the one clock of this process, handed to all that reads time
            await wait_for_discord(settings.discord, clock)
            scheduler = AsyncIOScheduler(timezone="UTC")
            async with (
                shard_watch(db, settings, clock) as watch,
                aiohttp.ClientSession() as session,  # the bot's outgoing HTTP (arXiv)
                laurel_bot_class(settings)(
                    settings=settings, db=db, scheduler=scheduler, clock=clock, http_session=session
                ) as bot,
                OpsServer(
                    settings,
                    health=lambda: health(bot, db, watch),
                    metrics=bot.metrics,
                ),
            ):
                # `docker stop` sends SIGTERM: close the gateway, scheduler and store cleanly.
                loop = asyncio.get_running_loop()
                loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))

                async def stop(why: str) -> None:
                    stopped.append(why)
                    # Its own task, as SIGTERM's: the watch ends now, the close goes on.
                    closing.append(loop.create_task(bot.close()))

                closing: list[asyncio.Task[None]] = []

                watch_lock = asyncio.create_task(keep_lock(lock, stop, clock), name="laurel-lock")
                try:
                    await start(bot, token)
                finally:
                    watch_lock.cancel()
    if stopped:  # no work taken since; exit 1, saying why
        raise LaurelError(f"stopped: {stopped[0]}")
    return 0


async def health(bot: LaurelBot, db: Database, watch: ShardWatch | None) -> HealthReport:
    """What /health answers: this process, and the shards of the layout nobody runs."""
    layout = await watch.report() if watch else None
    return await check_health(bot, db, search=bot.search_index, layout=layout)


def shard_watch(
    db: Database, settings: Settings, clock: Clock
) -> AbstractAsyncContextManager[ShardWatch | None]:
    """A shard process's claim on its shards in the database's layout; nothing unsharded."""
    shards = settings.discord.shards
    if shards is None:
        return contextlib.nullcontext(None)
    return ShardWatch(db, shards, holder_name(), clock)


async def start(bot: LaurelBot, token: str) -> None:
    """`bot.start(token)`, with what can go wrong outside the program said in one line."""
    try:
        await bot.start(token)
    except discord.LoginFailure:
        raise LaurelError(
            "Discord refused the token in DISCORD_TOKEN (401 Unauthorized): it is not a current "
            "token of any bot. Copy it again (Discord Developer Portal → your application → "
            "Bot → Reset Token)"
        ) from None
    except discord.PrivilegedIntentsRequired:
        raise LaurelError(
            "Discord refused an intent Laurel asked for; Laurel needs no privileged intent, "
            "so this is worth reporting"
        ) from None
    except discord.ConnectionClosed as exc:
        raise LaurelError(
            f"Discord closed the gateway connection ({exc.code}: {exc.reason or 'no reason'})"
        ) from None
    except (discord.GatewayNotFound, discord.DiscordServerError) as exc:
        raise LaurelError(f"Discord is not answering properly: {exc}; try again later") from None
    except (aiohttp.ClientError, OSError, TimeoutError) as exc:
        raise LaurelError(
            f"lost the connection to Discord while starting ({exc.__class__.__name__}: {exc})"
        ) from None
