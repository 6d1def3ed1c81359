"""/awards: every award of an edition, a venue's awards per year, and test-of-time awards.

Long answers are paged with the one paginator's Previous/Next buttons (bot.commands.paginator),
which carry everything they need in their custom_id (which list, whose, which page): they keep
working after the bot restarts, with nothing kept in memory.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal, cast

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.commands.buttons import Press
from bot.commands.custom_ids import ID, parse_id
from bot.commands.options import KIND_CHOICES, VenueOption, Year, kind_of
from bot.commands.paginator import PageButton as PaginatorButton
from bot.commands.paginator import Shown, Step, page_view
from bot.commands.paper_buttons import OpenButton
from bot.commands.parts import Parts, parts_of
from bot.domain.awards import standing_in_test_of_time
from bot.domain.models import AwardKind, Language, Venue
from bot.errors import UserError
from bot.render.awards import (
    AwardEntry,
    EditionPage,
    edition_page,
    escape,
    history_embed,
    kind_label,
    kind_rank,
    test_of_time_embed,
)
from bot.render.i18n import language_of
from bot.render.stats import covered_years
from bot.render.years import year_spans

Shows = Literal["ed", "hi", "tt"]  # an edition's awards, a venue's history, test of time
MAX_PAGE = 9999  # the largest page number PAGE_ID reads
_KINDS = "|".join(kind.value for kind in AwardKind)
# Only ids this module makes match, so a page button never fails to parse its own id; an
# edition or a history always names its venue (only test of time may name none), so an old or
# forged id without one is an unknown component, not an assertion failing in `render`.
PAGE_ID = re.compile(
    r"awards:(?!(?:ed|hi):[^:]*:[^:]*:[^:]*::)"
    rf"(?P<shows>ed|hi|tt):(?P<owner>{ID}):(?P<page>[0-9]{{1,4}}):(?P<step>[pn]):"
    rf"(?P<venue>[a-z0-9-]{{0,32}}):(?P<year>[0-9]{{1,4}}):(?P<kind>{_KINDS}|)"
)


@dataclass(frozen=True, slots=True)
class Listing:
    """What a paged answer lists and for whom; all of it fits in a custom_id."""

    shows: Shows
    owner: int
    venue: str = ""  # a venue key, or "" for every venue
    year: int = 0
    kind: AwardKind | None = None
    page: int = 0

    def at(self, page: int) -> Listing:
        return replace(self, page=max(0, min(page, MAX_PAGE)))

    def custom_id(self, step: Step) -> str:
        kind = self.kind.value if self.kind else ""
        return (
            f"awards:{self.shows}:{self.owner}:{self.page}:{step}:{self.venue}:{self.year}:{kind}"
        )

    @classmethod
    def parse(cls, match: re.Match[str]) -> Listing:
        kind = AwardKind(match["kind"]) if match["kind"] else None
        owner, page = parse_id(match["owner"]), int(match["page"])
        shows = cast(Shows, match["shows"])
        return cls(shows, owner, match["venue"], int(match["year"]), kind, page)


async def render(
    services: Parts, listing: Listing, language: Language, venue: Venue | None = None
) -> Shown:
    """The page `listing` names (moved inside the pages there are), and whether one follows.

    `venue`, when the command's option has just resolved it, spares looking it up again."""
    if venue is None or venue.key != listing.venue:
        venue = await _venue(services, listing.venue) if listing.venue else None
    page = listing.page
    if listing.shows == "ed":
        assert venue is not None
        shown = await _edition(services, venue, listing, page, language)
        page = max(0, min(page, shown.pages - 1))
        # The numbered buttons /paper search has: each opens that paper, privately.
        opens = [OpenButton(paper_id, str(n)) for n, paper_id in shown.numbered]
        return Shown(shown.embed, page, page < shown.pages - 1, opens)
    if listing.shows == "hi":
        assert venue is not None
        embed, pages = await _history(services, venue, page, language)
    else:
        embed, pages = await _test_of_time(services, venue, page, language)
    page = max(0, min(page, pages - 1))
    return Shown(embed, page, page < pages - 1)


async def _venue(services: Parts, key: str) -> Venue:
    venues = await services.editions.venues()
    found = next((v for v in venues if v.key == key), None)
    if found is None:  # removed from the catalogue since the buttons were made
        raise UserError("error-unknown-venue", venue=key, known=", ".join(v.name for v in venues))
    return found


async def _edition(
    services: Parts, venue: Venue, listing: Listing, page: int, language: Language
) -> EditionPage:
    papers = await services.papers.awarded_at(venue.key, listing.year, listing.kind)
    entries = [
        AwardEntry(award, stored.paper, stored.id)
        for stored in papers
        for award in stored.awards
        if award.venue == venue.key
        and award.year == listing.year
        and (listing.kind is None or award.kind == listing.kind)
    ]
    if not entries:
        await _explain_empty_edition(services, venue, listing, language)
    return edition_page(
        venue, listing.year, entries, page, services.strings, language, kind=listing.kind
    )


async def _explain_empty_edition(
    services: Parts, venue: Venue, listing: Listing, language: Language
) -> None:
    """Raise the mistake behind an edition without awards: its year, its kind, or neither."""
    name, year, strings = escape(venue.name), listing.year, services.strings
    years = covered_years(await services.editions.coverage(), venue.key)
    if year not in years:
        if not years:
            raise UserError("awards-none-venue", venue=name)
        raise UserError("error-year-not-covered", venue=name, year=year, years=year_spans(years))
    tallies = [t for t in await services.editions.award_tallies(venue.key) if t.year == year]
    if listing.kind is None or not tallies:
        raise UserError("awards-none-edition", venue=name, year=year)
    separator = strings.text("awards-list-separator", language)
    available = separator.join(
        f"{kind_label(t.kind, strings, language)} ({t.count:,})"
        for t in sorted(tallies, key=lambda t: kind_rank(t.kind))
    )
    kind = kind_label(listing.kind, strings, language)
    raise UserError("awards-none-kind", venue=name, year=year, kind=kind, available=available)


async def _history(
    services: Parts, venue: Venue, page: int, language: Language
) -> tuple[discord.Embed, int]:
    tallies = await services.editions.award_tallies(venue.key)
    covered = [e.year for e in await services.editions.editions(venue.key)]
    if not tallies:
        raise UserError("awards-none-venue", venue=escape(venue.name))
    return history_embed(venue, tallies, covered, page, services.strings, language)


async def _test_of_time(
    services: Parts, venue: Venue | None, page: int, language: Language
) -> tuple[discord.Embed, int]:
    key = venue.key if venue else None
    # The award itself, and the runners-up and honorable mentions named beside it.
    papers = await services.papers.test_of_time(venue=key)
    entries = [
        AwardEntry(award, stored.paper, stored.id)
        for stored in papers
        for award in stored.awards
        if standing_in_test_of_time(award.kind, award.name, award.track) is not None
        and (key is None or award.venue == key)
    ]
    if not entries:
        if venue is None:
            raise UserError("awards-none-tot")
        raise UserError("awards-none-tot-venue", venue=escape(venue.name))
    return test_of_time_embed(venue, entries, page, services.strings, language)


class PageButton(PaginatorButton[Listing], template=PAGE_ID):
    """Previous or Next: shows a page of the listing in place, for the one who asked."""

    labels = ("awards-previous", "awards-next")

    @classmethod
    def parse(cls, match: re.Match[str]) -> Listing:
        return Listing.parse(match)

    async def check(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.target.owner:
            raise UserError("awards-not-yours")

    async def show(self, press: Press) -> Shown:
        return await render(parts_of(press.interaction.client), self.target, press.language)


class Awards(
    commands.GroupCog,
    group_name=_("awards"),
    group_description=_("Award-winning papers by conference and year"),
):
    def __init__(self, bot: commands.Bot, parts: Parts) -> None:
        self._bot = bot  # for the page buttons' registration
        self._parts = parts
        super().__init__()

    async def cog_load(self) -> None:
        self._bot.add_dynamic_items(PageButton)

    async def cog_unload(self) -> None:
        self._bot.remove_dynamic_items(PageButton)

    @app_commands.command(
        name=_("edition"), description=_("Every award given at one edition of a conference")
    )
    @app_commands.describe(
        venue=_("The conference, e.g. ICML or NeurIPS"),
        year=_("The year of the conference"),
        kind=_("Only this kind of award"),
    )
    @app_commands.choices(kind=KIND_CHOICES)
    async def edition(
        self,
        interaction: discord.Interaction,
        venue: VenueOption,
        year: Year,
        kind: app_commands.Choice[str] | None = None,
    ) -> None:
        listing = Listing("ed", interaction.user.id, venue.key, year, kind_of(kind))
        await self._answer(interaction, listing, venue)

    @app_commands.command(
        name=_("history"), description=_("How many awards a conference gave, year by year")
    )
    @app_commands.describe(venue=_("The conference, e.g. ICML or NeurIPS"))
    async def history(self, interaction: discord.Interaction, venue: VenueOption) -> None:
        await self._answer(interaction, Listing("hi", interaction.user.id, venue.key), venue)

    @app_commands.command(
        name=_("test-of-time"), description=_("Test-of-time awards, newest first")
    )
    @app_commands.describe(venue=_("Only this conference"))
    async def test_of_time(
        self, interaction: discord.Interaction, venue: VenueOption | None = None
    ) -> None:
        key = venue.key if venue else ""
        await self._answer(interaction, Listing("tt", interaction.user.id, key), venue)

    async def _answer(
        self, interaction: discord.Interaction, listing: Listing, venue: Venue | None = None
    ) -> None:
        language = language_of(interaction.locale)
        shown = await render(self._parts, listing, language, venue)
        view = page_view(PageButton, listing, shown, self._parts.strings, language)
        if view is None:
            await interaction.response.send_message(embed=shown.embed)
        else:
            await interaction.response.send_message(embed=shown.embed, view=view)
