"""Every command group the bot loads, built from what the composition root holds.

A new group is one module under bot/commands/ plus one line here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from bot.commands.about import About
from bot.commands.awards import Awards
from bot.commands.curate import Curate
from bot.commands.curate_access import Curation
from bot.commands.digest import Digest
from bot.commands.paper import PaperCommands
from bot.commands.stats import Stats

if TYPE_CHECKING:
    from bot.app import LaurelBot


def command_groups(bot: LaurelBot) -> list[commands.Cog]:
    curate = Curate(_curation(bot))
    return [
        About(bot.editions, bot.papers, bot.strings, bot.tree, {"curate": curate.shown_to}),
        Awards(bot),
        Stats(
            bot.editions,
            bot.papers,
            bot.strings,
            bot.chart_fonts,
            bot.institutions,
            defer_after=bot.settings.discord.defer_after_seconds,
        ),
        PaperCommands(
            bot,
            bot.papers,
            bot.strings,
            bot.clock,
            defer_after=bot.settings.discord.defer_after_seconds,
        ),
        curate,
        Digest(bot),
    ]


def _curation(bot: LaurelBot) -> Curation:
    return Curation(
        bot=bot,
        settings=bot.settings.curation,
        strings=bot.strings,
        catalog=bot.catalog,
        papers=bot.papers,
        editions=bot.editions,
        audit=bot.audit,
        arxiv=bot.arxiv,
    )
