"""The checklist of docs/architecture.md ("Add a command"), held: every cog under bot/commands is
loaded by `command_groups`, and each lives where a newcomer looks for it — a module of its own,
or `cog.py` of its group's package (bot/commands/curate/, bot/commands/digest/)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import aiohttp
from discord.ext import commands

import bot.commands
from bot.app import LaurelBot
from bot.commands.registry import command_groups
from bot.settings import Settings
from bot.store.database import Database
from tests.support.clock import ManualClock


def _cogs_defined_under_bot_commands() -> set[type[commands.Cog]]:
    found: set[type[commands.Cog]] = set()
    for info in pkgutil.walk_packages(bot.commands.__path__, "bot.commands."):
        module = importlib.import_module(info.name)
        found |= {
            value
            for value in vars(module).values()
            if inspect.isclass(value)
            and issubclass(value, commands.Cog)
            and value.__module__ == info.name
        }
    return found


async def test_every_cog_under_bot_commands_is_loaded_as_a_command_group(db: Database) -> None:
    async with aiohttp.ClientSession() as session:
        laurel = LaurelBot(
            settings=Settings(), db=db, scheduler=None, clock=ManualClock(), http_session=session
        )
        try:
            loaded = [type(group) for group in command_groups(laurel, laurel)]
        finally:
            await laurel.close()
    assert len(loaded) == len(set(loaded))  # none twice
    assert set(loaded) == _cogs_defined_under_bot_commands()


def test_each_command_group_lives_in_its_own_module_or_its_packages_cog() -> None:
    cogs = _cogs_defined_under_bot_commands()
    assert len(cogs) >= 6  # the walk finds the groups: about, awards, stats, paper, curate, digest
    misplaced = sorted(
        f"{cog.__qualname__} in {cog.__module__}"
        for cog in cogs
        if cog.__module__.count(".") != 2
        and not (cog.__module__.count(".") == 3 and cog.__module__.endswith(".cog"))
    )
    assert misplaced == []
    packages = {cog.__module__.rsplit(".", 1)[0] for cog in cogs if cog.__module__.endswith(".cog")}
    assert packages == {"bot.commands.curate", "bot.commands.digest"}
