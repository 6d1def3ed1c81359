"""Every command group the bot loads, built from what the composition root holds.

A new group is one module under bot/commands/ plus one line here.
"""

from __future__ import annotations

from discord.ext import commands

from bot.commands.about import About
from bot.commands.awards import Awards
from bot.commands.curate.access import Curation
from bot.commands.curate.cog import Curate
from bot.commands.digest.cog import Digest
from bot.commands.paper import PaperCommands
from bot.commands.parts import Parts
from bot.commands.stats import Stats


def command_groups(bot: commands.Bot, parts: Parts) -> list[commands.Cog]:
    """`bot` registers the groups' persistent buttons and knows its owner; `parts` is the rest
    (the same object, a `LaurelBot`, in the running bot)."""
    curate = Curate(_curation(bot, parts))
    strings, papers, editions = parts.strings, parts.papers, parts.editions
    return [
        About(editions, papers, strings, bot.tree, {"curate": curate.shown_to}),
        Awards(bot, parts),
        Stats(
            editions,
            parts.leaderboards,
            strings,
            parts.chart_fonts,
            parts.institutions,
            defer_after=parts.settings.discord.defer_after_seconds,
        ),
        PaperCommands(
            bot,
            papers,
            strings,
            parts.clock,
            defer_after=parts.settings.discord.defer_after_seconds,
            digests=parts.digests,
        ),
        curate,
        Digest(parts),
    ]


def _curation(bot: commands.Bot, parts: Parts) -> Curation:
    return Curation(
        bot=bot,
        settings=parts.settings.curation,
        strings=parts.strings,
        catalog=parts.catalog,
        papers=parts.papers,
        editions=parts.editions,
        audit=parts.audit,
        arxiv=parts.arxiv,
        clock=parts.clock,
        service=parts.curation_service,
    )
