"""`laurel sync [--force]`: push the slash-command tree to Discord now.

Without --force it pushes only when Discord holds other commands than the bot's tree (it asks
with one GET), as every start does; with --force it pushes whatever Discord holds. The bot
logs in to learn its application, and connects to nothing else.
"""

from __future__ import annotations

import argparse
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.app import LaurelBot, use_endpoints
from bot.errors import LaurelError
from bot.settings import Settings
from bot.store.database import Database


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
    async with await Database.open(settings.database.path) as db:
        use_endpoints(settings.discord.api_base_url, settings.discord.gateway_url)
        bot = LaurelBot(
            settings=settings,
            db=db,
            scheduler=AsyncIOScheduler(timezone="UTC"),
            commands_only=True,
        )
        async with bot:
            await bot.login(settings.token.get_secret_value())
            pushed = await bot.sync_commands(force=args.force)
            count = len(bot.tree.get_commands())
    if pushed:
        print(f"pushed {count} commands to Discord")
    else:
        print(f"Discord holds these commands already ({count}); nothing pushed (--force pushes)")
    return 0
