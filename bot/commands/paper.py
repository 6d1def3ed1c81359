"""/paper show, search, random and today: the awarded papers themselves."""

from __future__ import annotations

import datetime as dt
import secrets

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.commands.options import (
    AUTOCOMPLETE_LIMIT,
    KIND_CHOICES,
    AreaOption,
    VenueOption,
    Year,
    kind_of,
)
from bot.commands.paper_buttons import (
    DYNAMIC_ITEMS,
    Filters,
    SearchState,
    existing,
    results_message,
    send_paper,
)
from bot.commands.parts import Parts
from bot.commands.resolve import resolve_paper
from bot.commands.timing import in_time, reply
from bot.digests.service import DigestService
from bot.domain.daily import paper_of_the_day
from bot.domain.models import PaperChoice, StoredPaper
from bot.domain.text import visible
from bot.errors import UserError
from bot.render.i18n import language_of
from bot.render.markdown import esc

CHOICE_NAME = 100  # Discord's limit for an autocomplete choice's name


class PaperCommands(
    commands.GroupCog,
    group_name=_("paper"),
    group_description=_("Award-winning papers: show one, search, pick at random, today's"),
):
    def __init__(self, bot: commands.Bot, parts: Parts) -> None:
        """The clock says what day it is for /paper today (UTC); `defer_after`: seconds a
        search may take before its answer is deferred ([discord] defer_after_seconds); the
        digests say what a server's paper-of-the-day digest posts today."""
        self._bot = bot
        self._papers = parts.papers
        self._strings = parts.strings
        self._clock = parts.clock
        self._defer_after = parts.settings.discord.defer_after_seconds
        self._digests: DigestService | None = parts.digests
        super().__init__()

    async def cog_load(self) -> None:
        # Buttons on messages sent before this start find their handlers by custom_id.
        self._bot.add_dynamic_items(*DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        self._bot.remove_dynamic_items(*DYNAMIC_ITEMS)

    @app_commands.command(name=_("show"), description=_("Show a paper in detail"))
    @app_commands.describe(paper=_("Start typing a title and pick the paper"))
    @app_commands.rename(paper=_("paper"))
    async def show(self, interaction: discord.Interaction, paper: str) -> None:
        stored = await self._resolve(paper)
        await send_paper(interaction, stored, self._strings, language_of(interaction.locale))

    @show.autocomplete("paper")
    async def _paper_titles(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self._papers.titles(current, limit=AUTOCOMPLETE_LIMIT)
        return [app_commands.Choice(name=_choice_name(p), value=str(p.id)) for p in found]

    @app_commands.command(name=_("search"), description=_("Search the awarded papers"))
    @app_commands.describe(
        query=_("Words from the title, authors, affiliations or summary"),
        venue=_("Only papers awarded at this venue"),
        year=_("Only papers awarded in this year"),
        kind=_("Only this kind of award"),
        area=_("Only papers in this research area"),
    )
    @app_commands.rename(
        query=_("query"), venue=_("venue"), year=_("year"), kind=_("kind"), area=_("area")
    )
    @app_commands.choices(kind=KIND_CHOICES)
    async def search(
        self,
        interaction: discord.Interaction,
        query: app_commands.Range[str, 1, 200],
        venue: VenueOption | None = None,
        year: Year | None = None,
        kind: app_commands.Choice[str] | None = None,
        area: AreaOption | None = None,
    ) -> None:
        state = SearchState(
            query=visible(query),  # echoed in a public title: no bidi override, no zero-width
            venue=venue.key if venue else None,
            year=year,
            kind=kind_of(kind),
            area=area,
        ).fitted()
        results = await in_time(interaction, state.results(self._papers), self._defer_after)
        if not results.found:
            raise UserError("paper-search-empty", query=esc(state.query)[:100])
        language = language_of(interaction.locale)
        embed, view = results_message(state, results, self._strings, language)
        await reply(interaction, embed=embed, view=view)

    @search.autocomplete("query")
    async def _query_titles(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Titles as one types; picking one searches for that title."""
        found = await self._papers.titles(current, limit=AUTOCOMPLETE_LIMIT)
        return [
            app_commands.Choice(name=_choice_name(p), value=p.title[:CHOICE_NAME]) for p in found
        ]

    @app_commands.command(name=_("random"), description=_("A random awarded paper"))
    @app_commands.describe(
        venue=_("Only papers awarded at this venue"),
        year=_("Only papers awarded in this year"),
        kind=_("Only this kind of award"),
        area=_("Only papers in this research area"),
    )
    @app_commands.rename(venue=_("venue"), year=_("year"), kind=_("kind"), area=_("area"))
    @app_commands.choices(kind=KIND_CHOICES)
    async def random(
        self,
        interaction: discord.Interaction,
        venue: VenueOption | None = None,
        year: Year | None = None,
        kind: app_commands.Choice[str] | None = None,
        area: AreaOption | None = None,
    ) -> None:
        filters = Filters(venue.key if venue else None, year, kind_of(kind), area)
        ids = await self._papers.ids(venue=filters.venue, year=year, kind=filters.kind, area=area)
        if not ids:
            raise UserError("paper-random-empty")
        stored = await existing(self._papers, secrets.choice(ids))
        language = language_of(interaction.locale)
        await send_paper(interaction, stored, self._strings, language, filters=filters)

    @app_commands.command(
        name=_("today"), description=_("Today's paper, the same for the whole server")
    )
    async def today(self, interaction: discord.Interaction) -> None:
        """This server's paper-of-the-day digest's paper today, where it has one (the same
        paper as the post), else the pick for everyone that day (UTC), from the main paper
        awards; the heading says which."""
        # The day is read once, when the command comes in: an answer begun at 23:59:59.9 UTC
        # is that day's paper under that day's heading, however long the store takes.
        day = self._clock.now().astimezone(dt.UTC).date()
        language = language_of(interaction.locale)
        server = None
        if self._digests is not None and interaction.guild_id is not None:
            server = await self._digests.paper_for_today(interaction.guild_id)
        stored = None if server is None else await self._papers.get(server.paper_id)
        if server is not None and stored is not None:
            heading = self._strings.text("paper-today-heading-server", language, date=server.day)
        else:
            ids = await self._papers.main_award_ids() or await self._papers.ids()
            if not ids:
                raise UserError("paper-random-empty")
            stored = await existing(self._papers, paper_of_the_day(ids, 0, day))
            heading = self._strings.text("paper-today-heading", language, date=day.isoformat())
        await send_paper(interaction, stored, self._strings, language, heading=heading)

    async def _resolve(self, given: str) -> StoredPaper:
        """The one resolver of every paper option (bot/commands/resolve.py)."""
        return await resolve_paper(self._papers, given, missing="paper-no-match")


def _choice_name(choice: PaperChoice) -> str:
    """The title (cut to fit), then where it was last awarded; choice names are plain text."""
    suffix = f" ({choice.venue_name} {choice.year})" if choice.venue_name else ""
    title = choice.title
    room = CHOICE_NAME - len(suffix)
    if len(title) > room:
        title = title[: room - 1].rstrip() + "…"
    return title + suffix
