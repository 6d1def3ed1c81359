"""`laurel sync [--force]`: push the slash-command tree to Discord now.

Without --force it pushes only when Discord holds other commands than the bot's tree (it asks
with one GET), as every start does; with --force it pushes whatever Discord holds. The bot
logs in to learn its application, and connects to nothing else.
"""

from __future__ import annotations

import argparse
from typing import Any

import aiohttp
import discord
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.app import LaurelBot, use_endpoints
from bot.cli.common import clock_of, open_database
from bot.errors import LaurelError
from bot.settings import Settings


async def _pushed(bot: LaurelBot, settings: Settings, *, force: bool) -> bool:
    """Log in and sync; what goes wrong outside the program, said in one line."""
    assert settings.token is not None
    where = settings.discord.api_base_url
    try:
        await bot.login(settings.token.get_secret_value())
        return await bot.sync_commands(force=force)
    except discord.LoginFailure:
        raise LaurelError(
            "Discord refused the token in DISCORD_TOKEN: copy it again from the Developer "
            "Portal (your application → Bot → Reset Token)"
        ) from None
    except (aiohttp.ClientError, OSError) as exc:
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise LaurelError(f"could not reach Discord at {where}: {reason}") from None
    except discord.HTTPException as exc:
        raise LaurelError(f"Discord refused the push ({exc.status}): {exc.text[:200]}") from None


def register(commands: Any) -> None:
    sync_parser = commands.add_parser(
        "sync", help="push the slash commands to Discord if it holds others (needs DISCORD_TOKEN)"
    )
    sync_parser.add_argument(
        "--force", action="store_true", help="push even if Discord holds these commands already"
    )
    sync_parser.set_defaults(handler=sync)


async def sync(settings: Settings, args: argparse.Namespace) -> int:
    if settings.token is None:
        raise LaurelError("DISCORD_TOKEN is not set: `laurel sync` pushes as your bot")
    async with await open_database(settings, args) as db:
        use_endpoints(settings.discord.api_base_url, settings.discord.gateway_url)
        async with (
            aiohttp.ClientSession() as session,
            LaurelBot(
                settings=settings,
                db=db,
                scheduler=AsyncIOScheduler(timezone="UTC"),
                clock=clock_of(args),
                http_session=session,
                commands_only=True,
            ) as bot,
        ):
            pushed = await _pushed(bot, settings, force=args.force)
            count = len(bot.tree.get_commands())
    if pushed:
        print(f"pushed {count} commands to Discord")
    else:
        print(f"Discord holds these commands already ({count}); nothing pushed (--force pushes)")
    return 0
