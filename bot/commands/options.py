"""Typed command options shared by the command groups: venues, award kinds, areas, years.

Options are validated before a command runs: a venue is looked up (by key, name or alias, any
case) and autocompleted from the store; an award kind is one of fixed, translated choices; a
research area is autocompleted in the reader's language and accepted in any of the three.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.commands.parts import parts_of
from bot.domain.areas import ResearchArea, area_key_of
from bot.domain.models import AwardKind, Venue
from bot.errors import UserError
from bot.render.areas import area_name, area_names, find_area
from bot.render.i18n import Strings, language_of
from bot.store.catalog.editions import EditionRepository

AUTOCOMPLETE_LIMIT = 25  # Discord shows at most 25 choices
Year = app_commands.Range[int, 1950, 2100]
F = TypeVar("F", bound=Callable[..., Any])


def _editions(interaction: discord.Interaction) -> EditionRepository:
    return parts_of(interaction.client).editions


def _strings(interaction: discord.Interaction) -> Strings:
    return parts_of(interaction.client).strings


def find_venue(venues: list[Venue], text: str) -> Venue | None:
    wanted = text.strip().casefold()
    for venue in venues:
        names = {venue.key, venue.name.casefold(), *(a.casefold() for a in venue.aliases)}
        if wanted in names:
            return venue
    return None


class VenueTransformer(app_commands.Transformer):
    """A venue typed or picked by name; unknown names are a clear mistake, not an error."""

    async def transform(self, interaction: discord.Interaction, value: str) -> Venue:
        venues = await _editions(interaction).venues()
        venue = find_venue(venues, value)
        if venue is None:
            known = ", ".join(v.name for v in venues[:20])
            raise UserError("error-unknown-venue", venue=value[:50], known=known)
        return venue

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        typed = value.strip().casefold()
        venues = await _editions(interaction).venues()
        starts = [
            v for v in venues if v.name.casefold().startswith(typed) or v.key.startswith(typed)
        ]
        contains = [
            v
            for v in venues
            if v not in starts
            and (typed in v.name.casefold() or typed in (v.full_name or "").casefold())
        ]
        return [
            app_commands.Choice(name=_choice_label(v), value=v.key)
            for v in (starts + contains)[:AUTOCOMPLETE_LIMIT]
        ]


def _choice_label(venue: Venue) -> str:
    label = f"{venue.name} — {venue.full_name}" if venue.full_name else venue.name
    return label[:100]  # Discord's limit for a choice name


VenueOption = app_commands.Transform[Venue, VenueTransformer]


class AreaTransformer(app_commands.Transformer):
    """A research area, offered in the reader's language; any language's name is accepted."""

    async def transform(self, interaction: discord.Interaction, value: str) -> ResearchArea:
        strings = _strings(interaction)
        area = find_area(strings, value)
        if area is None:
            language = language_of(interaction.locale)
            known = ", ".join(area_name(strings, a, language) for a in ResearchArea)
            raise UserError("error-unknown-area", area=value[:50], known=known)
        return area

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        strings, language = _strings(interaction), language_of(interaction.locale)
        typed = area_key_of(value)
        return [
            app_commands.Choice(name=area_name(strings, area, language), value=area.value)
            for area in ResearchArea
            if any(typed in area_key_of(name) for name in area_names(strings, area))
        ][:AUTOCOMPLETE_LIMIT]


AreaOption = app_commands.Transform[ResearchArea, AreaTransformer]

KIND_CHOICES = [
    app_commands.Choice(name=_(kind.value.replace("-", " ")), value=kind.value)
    for kind in AwardKind
]


def kind_of(choice: app_commands.Choice[str] | None) -> AwardKind | None:
    return None if choice is None else AwardKind(choice.value)


def award_options(command: F) -> F:
    """Describe and name `venue, year, award, track, name, source`: an award, given alike
    wherever a curator gives one (the command's signature declares them)."""
    command = app_commands.describe(
        venue=_("The conference, e.g. ICML or NeurIPS"),
        year=_("The year of the conference"),
        award=_("The kind of award"),
        track=_("The track the award was given in, if any"),
        name=_("The award's name as the venue published it"),
        source=_("Link to where the award was announced"),
    )(command)
    command = app_commands.rename(
        venue=_("venue"),
        year=_("year"),
        award=_("award"),
        track=_("track"),
        name=_("name"),
        source=_("source"),
    )(command)
    return app_commands.choices(award=KIND_CHOICES)(command)


def filter_options(command: F) -> F:
    """Describe and name `venue, kind, year_from, year_to, area`: which awards a command is
    about."""
    command = app_commands.describe(
        venue=_("Only this conference"),
        kind=_("Only this kind of award"),
        year_from=_("Only awards from this year on"),
        year_to=_("Only awards up to this year"),
        area=_("Only papers in this research area"),
    )(command)
    command = app_commands.rename(year_from=_("year-from"), year_to=_("year-to"))(command)
    return app_commands.choices(kind=KIND_CHOICES)(command)


# Each language named in itself, as language pickers do.
LANGUAGE_CHOICES = [
    app_commands.Choice(name="English", value="en"),
    app_commands.Choice(name="繁體中文", value="zh-TW"),
    app_commands.Choice(name="简体中文", value="zh-CN"),
]
