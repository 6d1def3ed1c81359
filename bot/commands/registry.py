"""Every command group the bot loads, built from what the composition root holds.

A new group is one module under bot/commands/ plus one line here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from discord.ext import commands

from bot.catalog.curation import CurationService
from bot.commands.about import About
from bot.commands.awards import Awards
from bot.commands.curate.access import Curation
from bot.commands.curate.cog import Curate
from bot.commands.digest import cog as digest
from bot.commands.digest.cog import Digest
from bot.commands.paper import PaperCommands
from bot.commands.stats import Stats
from bot.digests.service import DigestService
from bot.digests.subscriptions import SubscriptionService
from bot.domain.clock import Clock
from bot.domain.institutions import InstitutionAliases
from bot.render.chart_fonts import ChartFonts
from bot.render.i18n import Strings
from bot.settings import Settings
from bot.store.catalog.audit import AuditRepository
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.leaderboards import LeaderboardRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository

if TYPE_CHECKING:
    from bot.catalog.arxiv.client import ArxivClient


class Parts(Protocol):
    """What the composition root (`LaurelBot`) holds that the command groups are built from;
    each group is handed only the parts it uses."""

    @property
    def settings(self) -> Settings: ...
    @property
    def strings(self) -> Strings: ...
    @property
    def papers(self) -> PaperRepository: ...
    @property
    def editions(self) -> EditionRepository: ...
    @property
    def leaderboards(self) -> LeaderboardRepository: ...
    @property
    def catalog(self) -> CatalogRepository: ...
    @property
    def audit(self) -> AuditRepository: ...
    @property
    def digests(self) -> DigestService: ...
    @property
    def subscription_service(self) -> SubscriptionService: ...
    @property
    def curation_service(self) -> CurationService: ...
    @property
    def chart_fonts(self) -> ChartFonts: ...
    @property
    def institutions(self) -> InstitutionAliases: ...
    @property
    def arxiv(self) -> ArxivClient | None: ...
    @property
    def clock(self) -> Clock: ...


def command_groups(bot: commands.Bot, parts: Parts) -> list[commands.Cog]:
    """`bot` registers the groups' persistent buttons and knows its owner; `parts` is the rest
    (the same object, a `LaurelBot`, in the running bot)."""
    curate = Curate(_curation(bot, parts))
    strings, papers, editions = parts.strings, parts.papers, parts.editions
    return [
        About(editions, papers, strings, bot.tree, {"curate": curate.shown_to}),
        Awards(bot, papers, editions, strings),
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
        Digest(
            digest.Services(parts.subscription_service, parts.digests, editions, papers, strings)
        ),
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
