"""Who may curate, checked at run time on every curation command, button and form.

Discord's default permissions only decide who *sees* /curate, and a server's admins can change
them; so every command, every button press and every submitted form asks again: the bot's
owner, a user or a role named in the settings, and (when one is set) only in the home server.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.catalog.curation import CurationService
from bot.commands.errors import LaurelView, report
from bot.commands.parts import Parts
from bot.domain.clock import Clock
from bot.errors import UserError
from bot.render.i18n import Strings
from bot.settings import CurationSettings
from bot.store.catalog.audit import AuditRepository
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository

if TYPE_CHECKING:
    from bot.catalog.arxiv.client import ArxivClient

# A preview's buttons wait this long for the curator (Discord keeps a token 15 minutes).
CONFIRM_TIMEOUT = 600.0


class NotCurator(app_commands.CheckFailure, UserError):
    """Refused: a check failure for discord.py, a user's mistake for the error handler."""

    def __init__(self, key: str) -> None:
        UserError.__init__(self, key)


@dataclass(frozen=True, slots=True)
class Curation:
    """What every curation command needs, handed in by the composition root."""

    bot: commands.Bot
    settings: CurationSettings
    strings: Strings
    catalog: CatalogRepository
    papers: PaperRepository
    editions: EditionRepository
    audit: AuditRepository
    arxiv: ArxivClient | None
    clock: Clock  # the bot's: bounds a new award's year
    service: CurationService  # checks and writes an addition (bot/catalog/curation.py)

    @classmethod
    def of(cls, bot: commands.Bot, parts: Parts) -> Curation:
        """The parts of the composition root a curation command uses."""
        return cls(
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

    async def check_year(self, venue: str, venue_name: str, year: int) -> None:
        """An award's year must lie between the venue's first edition in the catalogue and
        next year (`year:2062` was accepted); a venue with no edition yet takes any past year."""
        last = self.clock.now().year + 1
        first = min((e.year for e in await self.editions.editions(venue)), default=None)
        if first is None and year > last:
            raise UserError("curate-year-ahead", venue=venue_name, year=year, last=last)
        if first is not None and not first <= year <= last:
            raise UserError(
                "curate-year-outside", venue=venue_name, year=year, first=first, last=last
            )

    async def refusal(self, interaction: discord.Interaction) -> str | None:
        """Why the user may not curate here (a message key), or None if they may."""
        home = self.settings.home_guild_id
        if home is not None and interaction.guild_id != home:
            return "curate-not-here"
        user = interaction.user
        if await self.bot.is_owner(user) or user.id in self.settings.user_ids:
            return None
        roles = getattr(user, "roles", ())  # a Member in a server; a User has none
        if any(role.id in self.settings.role_ids for role in roles):
            return None
        return "curate-not-allowed"

    async def require_curator(self, interaction: discord.Interaction) -> None:
        if (key := await self.refusal(interaction)) is not None:
            raise NotCurator(key)


def actor(interaction: discord.Interaction) -> str:
    """Who the audit says made a change."""
    return f"discord:{interaction.user.id}"


class CuratorGroup(app_commands.Group):
    """A /curate command group whose every command is checked before it runs."""

    def __init__(self, curation: Curation, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.curation = curation

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        await self.curation.require_curator(interaction)
        return True


async def require_invoker(
    curation: Curation, invoker_id: int, interaction: discord.Interaction
) -> None:
    """Only the curator who asked, and only while still a curator."""
    if interaction.user.id != invoker_id:
        raise UserError("curate-not-yours")
    await curation.require_curator(interaction)


class CuratorView(LaurelView):
    """Buttons only the curator who asked may press, checked again on every press."""

    def __init__(self, curation: Curation, invoker_id: int, *, timeout: float | None) -> None:
        super().__init__(strings=curation.strings, timeout=timeout)
        self.curation = curation
        self.invoker_id = invoker_id

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        await require_invoker(self.curation, self.invoker_id, interaction)
        return True


class CuratorModal(discord.ui.Modal):
    """A form only its curator may submit; errors go through the central handler."""

    def __init__(self, curation: Curation, invoker_id: int, *, title: str) -> None:
        super().__init__(title=title[:45], timeout=CONFIRM_TIMEOUT)
        self.curation = curation
        self.invoker_id = invoker_id

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        await require_invoker(self.curation, self.invoker_id, interaction)
        return True

    async def on_error(  # type: ignore[override]  # Modal.on_error takes no item
        self, interaction: discord.Interaction, error: Exception, /
    ) -> None:
        await report(interaction, error, self.curation.strings)
