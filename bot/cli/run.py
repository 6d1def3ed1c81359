"""`laurel run`: the bot itself, on Discord or on any Discord-compatible endpoint."""

from __future__ import annotations

import argparse
import asyncio
import signal
from typing import Any

import aiohttp
import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.app import LaurelBot, use_endpoints
from bot.catalog.bundled import load_bundled_into
from bot.cli.common import clock_of, open_database
from bot.cli.reach import wait_for_discord
from bot.errors import LaurelError
from bot.logs import configure_logging
from bot.observability.health import check_health
from bot.observability.server import OpsServer
from bot.settings import Settings
from bot.store.lock import InstanceLock


def register(commands: Any) -> None:
    run = commands.add_parser("run", help="run the bot (needs DISCORD_TOKEN)")
    run.set_defaults(handler=run_bot)


async def run_bot(settings: Settings, args: argparse.Namespace) -> int:
    if settings.token is None:
        raise LaurelError(
            "DISCORD_TOKEN is not set: export your bot's token (Discord Developer Portal → "
            "your application → Bot → Reset Token) as DISCORD_TOKEN, "
            "or try Laurel without Discord with `laurel console`"
        )
    token = settings.token.get_secret_value()
    configure_logging(settings.logging, secrets=[token])
    with InstanceLock(settings.database.path):
        async with await open_database(settings, args) as db:
            await load_bundled_into(db, only_if_empty=True)
            use_endpoints(settings.discord.api_base_url, settings.discord.gateway_url)
            clock = clock_of(args)  # the one clock of this process, handed to all that reads time
            await wait_for_discord(settings.discord, clock)
            scheduler = AsyncIOScheduler(timezone="UTC")
            async with (
                LaurelBot(settings=settings, db=db, scheduler=scheduler, clock=clock) as bot,
                OpsServer(settings, health=lambda: check_health(bot, db), metrics=bot.metrics),
            ):
                # `docker stop` sends SIGTERM: close the gateway, scheduler and store cleanly.
                loop = asyncio.get_running_loop()
                loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))
                await start(bot, token)
    return 0


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
