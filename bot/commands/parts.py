"""The parts every cog, persistent button and transformer is built from: one Protocol.

The composition root (`LaurelBot`) holds them. A cog is handed the parts it uses when
`command_groups` builds it; what discord.py builds with only an interaction (a persistent
button after a restart, a transformer) reaches the same parts through `parts_of`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    import discord

    from bot.catalog.arxiv.client import ArxivClient
    from bot.catalog.curation import CurationService
    from bot.digests.service import DigestService
    from bot.digests.subscriptions import SubscriptionService
    from bot.domain.clock import Clock
    from bot.domain.institutions import InstitutionAliases
    from bot.observability.metrics import Metrics
    from bot.render.chart_fonts import ChartFonts
    from bot.render.i18n import Strings
    from bot.settings import Settings
    from bot.store.catalog.audit import AuditRepository
    from bot.store.catalog.editions import EditionRepository
    from bot.store.catalog.leaderboards import LeaderboardRepository
    from bot.store.catalog.papers import PaperRepository
    from bot.store.catalog.repository import CatalogRepository
    from bot.store.subscriptions import SubscriptionRepository


class Parts(Protocol):
    """What the composition root holds that commands, buttons and transformers use."""

    @property
    def settings(self) -> Settings: ...
    @property
    def strings(self) -> Strings: ...
    @property
    def metrics(self) -> Metrics: ...
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
    def subscriptions(self) -> SubscriptionRepository: ...
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


def parts_of(client: discord.Client) -> Parts:
    """The parts of the bot `client` is (an interaction's `client`): the running bot is a
    `LaurelBot`, which holds every one of them."""
    return cast(Parts, client)
