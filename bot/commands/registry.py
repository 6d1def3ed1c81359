"""Every command group the bot loads, built from what the composition root holds.

A new group is one module under bot/commands/ plus one line here.
"""

from __future__ import annotations

from discord.ext import commands

from bot.commands.about import About
from bot.commands.awards import Awards
from bot.commands.curate.cog import Curate
from bot.commands.digest.cog import Digest
from bot.commands.paper import PaperCommands
from bot.commands.parts import Parts
from bot.commands.stats import Stats


def command_groups(bot: commands.Bot, parts: Parts) -> list[commands.Cog]:
    """Each cog is built from `parts`, and takes `bot` too when it registers persistent buttons
    or reads the command tree (`parts` and `bot` are the same `LaurelBot` in the running bot)."""
    curate = Curate(bot, parts)
    return [
        About(bot, parts, {"curate": curate.shown_to}),
        Awards(bot, parts),
        Stats(parts),
        PaperCommands(bot, parts),
        curate,
        Digest(parts),
    ]
