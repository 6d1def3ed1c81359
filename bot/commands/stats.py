"""/stats: conference statistics — one edition with its trend, or venues side by side."""

from __future__ import annotations

import asyncio
import io
import re
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from typing import Any, Generic, Literal, NoReturn, Protocol, TypeVar

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.commands.options import AUTOCOMPLETE_LIMIT, VenueOption, Year, find_venue
from bot.commands.parts import Parts
from bot.commands.timing import in_time, reply
from bot.domain.leaderboards import AuthorAwards, InstitutionCredit, Leaderboard
from bot.domain.models import Edition, Language, Venue
from bot.errors import UserError
from bot.render.chart_labels import ChartLabels, chart_labels
from bot.render.charts import compare_chart, trend_chart
from bot.render.i18n import language_of
from bot.render.leaderboards import Scope, authors_embed, institutions_embed, scope_text
from bot.render.markdown import esc
from bot.render.stats import (
    compare_embed,
    covered_years,
    edition_embed,
    has_statistics,
    previous_with_statistics,
    trend_points,
    venue_bars,
)
from bot.render.years import year_spans

TREND_PNG = "trend.png"
COMPARE_PNG = "compare.png"
VENUE_SEPARATORS = re.compile(r"[,，、;；]")  # Chinese keyboards type their own commas
VenueList = app_commands.Range[str, 1, 200]
LEADERBOARD_SIZE = 15
E = TypeVar("E")
C = TypeVar("C")


class Query(Protocol[E]):
    def __call__(
        self, *, venue: str | None, first: int | None, last: int | None, limit: int
    ) -> Awaitable[Leaderboard[E]]: ...


@dataclass(frozen=True, slots=True)
class Board(Generic[E]):
    """What sets one leaderboard apart from the other: its query, its embed, and the message
    key for a scope with awards but nobody to rank."""

    query: Query[E]
    embed: Callable[[Leaderboard[E], Scope, Language], discord.Embed]
    empty: str
    names: Literal["authors", "affiliations"]  # what it ranks by: where its years come from


def _leaderboard_options(command: C) -> C:
    """The options both leaderboards take: one venue, or every venue, and a span of years."""
    described = app_commands.describe(
        venue=_("Only this conference"),
        from_year=_("The first year counted (the earliest if left out)"),
        to_year=_("The last year counted (the latest if left out)"),
    )(command)
    return app_commands.rename(from_year=_("from"), to_year=_("to"))(described)


class Stats(commands.Cog):
    stats = app_commands.Group(
        name=_("stats"),
        description=_("Conference statistics: submissions, acceptance rates and trends"),
    )

    def __init__(self, parts: Parts) -> None:
        leaderboards = parts.leaderboards
        self._institutions = parts.institutions
        # Seconds a chart or leaderboard may take before the answer is deferred.
        self._defer_after = parts.settings.discord.defer_after_seconds
        self._editions = parts.editions
        self._leaderboards = leaderboards
        self._strings = parts.strings
        self._fonts = parts.chart_fonts
        self._charts = ChartCache()
        self._institution_board = Board(
            leaderboards.institution_credit,
            self._institutions_embed,
            "leaders-error-no-institutions",
            "affiliations",
        )
        self._author_board = Board(
            leaderboards.author_awards, self._authors_embed, "leaders-error-no-authors", "authors"
        )

    @stats.command(
        name=_("edition"),
        description=_("One edition's numbers, the change from the year before, and a trend chart"),
    )
    @app_commands.describe(
        venue=_("The conference, e.g. NeurIPS"),
        year=_("The year (the latest with statistics if left out)"),
    )
    async def edition(
        self, interaction: discord.Interaction, venue: VenueOption, year: Year | None = None
    ) -> None:
        editions = await self._editions.editions(venue.key)
        if year is not None and all(e.year != year for e in editions):
            covered = covered_years(await self._editions.coverage(), venue.key)
            years = year_spans(covered) or "—"
            raise UserError("error-year-not-covered", venue=venue.name, year=year, years=years)
        chosen = _chosen_edition(venue, editions, year)
        previous = previous_with_statistics(editions, chosen.year)
        language = language_of(interaction.locale)

        async def draw() -> bytes:  # a first chart (fonts, matplotlib) can outlast the window
            labels = await self._labels(language, "chart-trend-title", venue=venue.name)
            points = tuple(trend_points(editions))
            return await self._charts.draw(trend_chart, labels, points, chosen.year)

        png = await in_time(interaction, draw(), self._defer_after)
        embed = edition_embed(venue, chosen, previous, self._strings, language, image=TREND_PNG)
        await reply(
            interaction, embed=embed, file=discord.File(io.BytesIO(png), filename=TREND_PNG)
        )

    @stats.command(
        name=_("compare"),
        description=_("Venues side by side in one year, with a chart"),
    )
    @app_commands.describe(
        year=_("The year to compare"),
        venues=_("Venues separated by commas, e.g. ICML, NeurIPS (all with data if left out)"),
    )
    async def compare(
        self, interaction: discord.Interaction, year: Year, venues: VenueList | None = None
    ) -> None:
        known = await self._editions.venues()
        asked = _parse_venues(venues, known) if venues else None
        found = {e.venue: e for e in await self._editions.editions_in_year(year)}
        rows: list[tuple[Venue, Edition]] = []
        missing: list[Venue] = []
        for venue in asked or known:
            edition = found.get(venue.key)
            if edition is not None and has_statistics(edition):
                rows.append((venue, edition))
            elif asked:
                missing.append(venue)
        if not rows:
            await self._raise_nothing_in(year, asked)
        rows.sort(key=lambda row: (-(row[1].submissions or 0), row[0].name.casefold()))
        language = language_of(interaction.locale)

        async def draw() -> bytes:
            labels = await self._labels(language, "chart-compare-title", year=year)
            return await self._charts.draw(compare_chart, labels, tuple(venue_bars(rows)))

        png = await in_time(interaction, draw(), self._defer_after)
        embed = compare_embed(year, rows, missing, self._strings, language, image=COMPARE_PNG)
        await reply(
            interaction, embed=embed, file=discord.File(io.BytesIO(png), filename=COMPARE_PNG)
        )

    async def _labels(self, language: Language, title_key: str, **params: object) -> ChartLabels:
        cjk = await self._fonts.cjk_family() if language != "en" else None
        return chart_labels(self._strings, language, cjk, title_key, **params)

    @compare.autocomplete("venues")
    async def _complete_venues(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """Complete the last name in the list, keeping the ones already typed."""
        *typed, last = VENUE_SEPARATORS.split(current)
        done = [name.strip() for name in typed if name.strip()]
        prefix = "".join(f"{name}, " for name in done)
        wanted = last.strip().casefold()
        chosen = {name.casefold() for name in done}
        choices = []
        for venue in await self._editions.venues():
            if venue.name.casefold() in chosen or venue.key in chosen:
                continue
            if venue.name.casefold().startswith(wanted) or venue.key.startswith(wanted):
                text = f"{prefix}{venue.name}"[:100]  # Discord's limit for a choice
                choices.append(app_commands.Choice(name=text, value=text))
        return choices[:AUTOCOMPLETE_LIMIT]

    @stats.command(
        name=_("institutions"),
        description=_("Institutions by awarded papers, each paper's credit split among them"),
    )
    @_leaderboard_options
    async def institutions(
        self,
        interaction: discord.Interaction,
        venue: VenueOption | None = None,
        from_year: Year | None = None,
        to_year: Year | None = None,
    ) -> None:
        await self._leaderboard(interaction, self._institution_board, venue, from_year, to_year)

    @stats.command(
        name=_("authors"),
        description=_("The most-awarded authors, by awarded papers"),
    )
    @_leaderboard_options
    async def authors(
        self,
        interaction: discord.Interaction,
        venue: VenueOption | None = None,
        from_year: Year | None = None,
        to_year: Year | None = None,
    ) -> None:
        await self._leaderboard(interaction, self._author_board, venue, from_year, to_year)

    def _institutions_embed(
        self,
        board: Leaderboard[InstitutionCredit],
        scope: Scope,
        language: Language,
    ) -> discord.Embed:
        return institutions_embed(board, scope, self._strings, language, self._institutions)

    def _authors_embed(
        self, board: Leaderboard[AuthorAwards], scope: Scope, language: Language
    ) -> discord.Embed:
        return authors_embed(board, scope, self._strings, language)

    async def _leaderboard(
        self,
        interaction: discord.Interaction,
        board: Board[E],
        venue: Venue | None,
        first: int | None,
        last: int | None,
    ) -> None:
        """The one path of both leaderboards: query the scope, explain an empty one, draw it."""
        scope = _scope(venue, first, last)
        query = board.query(
            venue=venue.key if venue else None, first=first, last=last, limit=LEADERBOARD_SIZE
        )
        found = await in_time(interaction, query, self._defer_after)
        if not found.entries:
            await self._raise_empty(board, venue, scope, interaction)
        embed = board.embed(found, scope, language_of(interaction.locale))
        await reply(interaction, embed=embed)

    async def _raise_empty(
        self,
        board: Board[Any],
        venue: Venue | None,
        scope: Scope,
        interaction: discord.Interaction,
    ) -> NoReturn:
        """Say why a leaderboard is empty: no awards in the years asked, or none with names;
        and where the catalogue has what it ranks, so the answer is not a dead end."""
        shown = scope_text(scope, self._strings, language_of(interaction.locale))
        covered = [
            c
            for c in await self._editions.coverage()
            if c.awards and (venue is None or c.venue == venue.key)
        ]
        years = [c.year for c in covered]
        if not any(_within(year, scope) for year in years):
            raise UserError("leaders-error-no-awards", scope=shown, years=year_spans(years) or "—")
        papers = sum(c.papers for c in covered if _within(c.year, scope))
        known = await self._leaderboards.credited_years(
            board.names, venue=venue.key if venue else None
        )
        if not known:
            raise UserError(f"{board.empty}-anywhere", scope=shown, papers=papers)
        raise UserError(board.empty, scope=shown, papers=papers, years=year_spans(known))

    async def _raise_nothing_in(self, year: int, asked: list[Venue] | None) -> NoReturn:
        if asked:
            names = ", ".join(v.name for v in asked)
            raise UserError("stats-error-none-of", venues=names, year=year)
        coverage = await self._editions.coverage()
        years = [c.year for c in coverage if c.submissions is not None or c.accepted is not None]
        raise UserError("stats-error-no-year", year=year, years=year_spans(years) or "—")


class ChartCache:
    """Charts drawn off the event loop, and kept: the same data always gives the same PNG.

    Drawing takes a few hundred milliseconds of CPU; statistics change rarely, so a repeated
    question is answered from here. The data is the key, so a change in the catalogue simply
    misses; the oldest charts are dropped beyond `size`.
    """

    def __init__(self, size: int = 64) -> None:
        self._size = size
        self._charts: OrderedDict[tuple[object, ...], bytes] = OrderedDict()

    async def draw(self, chart: Callable[..., bytes], *args: Hashable) -> bytes:
        key = (chart.__name__, *args)
        png = self._charts.get(key)
        if png is None:
            png = await asyncio.to_thread(chart, *args)
            self._charts[key] = png
            while len(self._charts) > self._size:
                self._charts.popitem(last=False)
        else:
            self._charts.move_to_end(key)
        return png


def _chosen_edition(venue: Venue, editions: list[Edition], year: int | None) -> Edition:
    """The edition asked for (the latest with numbers when no year is given), or a clear no;
    a year without an edition is answered before (it names the years covered)."""
    with_numbers = [e for e in editions if has_statistics(e)]
    if year is None:
        if not with_numbers:
            raise UserError("stats-error-venue-no-statistics", venue=venue.name)
        return with_numbers[-1]
    chosen = next((e for e in editions if e.year == year), None)
    assert chosen is not None  # a year without an edition was answered before
    if not has_statistics(chosen):
        years = year_spans([e.year for e in with_numbers]) or "—"
        raise UserError("stats-error-no-statistics", venue=venue.name, year=year, years=years)
    return chosen


def _scope(venue: Venue | None, first: int | None, last: int | None) -> Scope:
    if first is not None and last is not None and first > last:
        raise UserError("leaders-error-range", first=first, last=last)
    return Scope(venue.name if venue else None, first, last)


def _within(year: int, scope: Scope) -> bool:
    return (scope.first is None or year >= scope.first) and (
        scope.last is None or year <= scope.last
    )


def _parse_venues(text: str, known: list[Venue]) -> list[Venue]:
    """Comma-separated names, each resolved like the venue option; unknown names are refused."""
    chosen: list[Venue] = []
    for name in (n.strip() for n in VENUE_SEPARATORS.split(text)):
        if not name:
            continue
        venue = find_venue(known, name)
        if venue is None:
            listed = ", ".join(v.name for v in known[:20])
            shown = esc(name[:50])
            raise UserError("error-unknown-venue", venue=shown, known=listed)
        if venue not in chosen:
            chosen.append(venue)
    if not chosen:
        listed = ", ".join(v.name for v in known[:20])
        shown = esc(text[:50])
        raise UserError("error-unknown-venue", venue=shown, known=listed)
    return chosen
