"""The buttons under /paper answers. Each carries its state in its custom_id (a LaurelButton,
so errors reach the central handler and presses the metrics), so a button on a message posted
before a restart still works after it.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, field, replace
from re import Match
from typing import Any, ClassVar, Self

import discord

from bot.commands.buttons import LaurelButton, Press
from bot.commands.custom_ids import ID, parse_id
from bot.commands.paginator import PageButton as PaginatorButton
from bot.commands.paginator import Shown, Step, page_view
from bot.commands.parts import Parts, parts_of
from bot.domain.areas import ResearchArea
from bot.domain.models import AwardKind, Language, StoredPaper
from bot.errors import UserError
from bot.render.i18n import Strings
from bot.render.markdown import esc
from bot.render.paper import abstract_embed, list_embed, paper_embed, sources_embed
from bot.store.catalog.papers import PaperRepository

PAGE_SIZE = 5
CUSTOM_ID_LIMIT = 100  # Discord's limit
MAX_PAGE = 99_999  # five digits: every page of 100,000 papers (ids of four still parse)


def _laurel(interaction: discord.Interaction) -> Parts:
    return parts_of(interaction.client)


async def existing(papers: PaperRepository, paper_id: int) -> StoredPaper:
    stored = await papers.get(paper_id)
    if stored is None:
        raise UserError("paper-not-found", id=paper_id)
    return stored


@dataclass(frozen=True, slots=True)
class Filters:
    """The venue, year, kind and area a member asked for: they ride in the custom_id of the
    buttons under the answer (Another paper, Similar, Open), so the next answer keeps them."""

    venue: str | None = None
    year: int | None = None
    kind: AwardKind | None = None
    area: ResearchArea | None = None

    def suffix(self) -> str:
        """What follows the paper id in a custom_id: nothing without filters (as before)."""
        if self == Filters():
            return ""
        kind = self.kind.value if self.kind else ""
        if self.area is not None:
            kind += f"+{_AREAS.index(self.area)}"
        return f":{self.venue or ''}:{self.year or ''}:{kind}"

    @classmethod
    def parse(cls, match: Match[str]) -> Filters:
        """The filters a custom_id carries (`FILTERS`' groups); none in an id made before."""
        found = match.groupdict()
        kind, area = found.get("kind") or "", found.get("area")
        return cls(
            venue=found.get("venue") or None,
            year=int(found["year"]) if found.get("year") else None,
            kind=AwardKind(kind) if kind in AwardKind._value2member_map_ else None,
            area=_AREAS[int(area)] if area else None,
        )


# The filters' part of a custom_id, after the paper id; absent from ids sent before it was.
FILTERS = (
    r"(?::(?P<venue>[a-z0-9-]{0,32}):(?P<year>\d{0,4}):(?P<kind>[a-z-]{0,32})"
    r"(?:\+(?P<area>\d))?)?"
)


def detail_view(
    paper_id: int, strings: Strings, language: Language, filters: Filters | None = None
) -> discord.ui.View:
    filters = filters or Filters()
    view = discord.ui.View(timeout=None)
    view.add_item(AbstractButton(paper_id, strings.text("paper-button-abstract", language)))
    view.add_item(SourcesButton(paper_id, strings.text("paper-button-sources", language)))
    another = AnotherButton(paper_id, strings.text("paper-button-another", language), filters)
    view.add_item(another)
    similar = SimilarButton(paper_id, strings.text("paper-button-similar", language), filters)
    view.add_item(similar)
    return view


def open_buttons(
    papers: Sequence[StoredPaper], *, first_number: int = 1, filters: Filters | None = None
) -> list[OpenButton]:
    """A numbered Open button for each paper of a list, numbered as the list is."""
    return [OpenButton(stored.id, str(n), filters) for n, stored in enumerate(papers, first_number)]


async def send_paper(
    interaction: discord.Interaction,
    stored: StoredPaper,
    strings: Strings,
    language: Language,
    *,
    ephemeral: bool = False,
    heading: str | None = None,
    filters: Filters | None = None,
) -> None:
    await interaction.response.send_message(
        embed=paper_embed(stored, strings, language, heading=heading),
        view=detail_view(stored.id, strings, language, filters),
        ephemeral=ephemeral,
    )


def send_privately(
    press: Press, stored: StoredPaper, filters: Filters | None = None
) -> Awaitable[None]:
    return send_paper(
        press.interaction, stored, press.strings, press.language, ephemeral=True, filters=filters
    )


class PaperButton(LaurelButton):
    """A button about one paper, `paper:<action>:<id>`, then the filters it keeps
    (`:<venue>:<year>:<kind>[+<area>]`, only when there are any); a subclass names its action
    and says what a press does (`answer`)."""

    action: ClassVar[str]
    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init_subclass__(cls, *, action: str | None = None) -> None:
        if action is None:  # an abstract base
            super().__init_subclass__()
        else:
            cls.action = action
            super().__init_subclass__(template=rf"paper:{action}:(?P<id>{ID}){FILTERS}")

    def __init__(self, paper_id: int, label: str = "#", filters: Filters | None = None) -> None:
        self.filters = filters or Filters()
        custom_id = f"paper:{self.action}:{paper_id}{self.filters.suffix()}"
        super().__init__(discord.ui.Button(label=label, style=self.style, custom_id=custom_id))
        self.paper_id = paper_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> Self:
        return cls(parse_id(match["id"]), filters=Filters.parse(match))

    def papers(self, press: Press) -> PaperRepository:
        return _laurel(press.interaction).papers


class AbstractButton(PaperButton, action="abstract"):
    """The paper's abstract, privately."""

    async def run(self, press: Press) -> None:
        stored = await existing(self.papers(press), self.paper_id)
        embed = abstract_embed(stored, press.strings, press.language)
        await press.interaction.response.send_message(embed=embed, ephemeral=True)


class SourcesButton(PaperButton, action="sources"):
    """Where the paper's facts come from, and what other sources give, privately (issue 24)."""

    async def run(self, press: Press) -> None:
        stored = await existing(self.papers(press), self.paper_id)
        embed = sources_embed(stored, press.strings, press.language)
        await press.interaction.response.send_message(embed=embed, ephemeral=True)


class AnotherButton(PaperButton, action="another"):
    """A random awarded paper other than the one shown, within the same filters, privately to
    whoever asked."""

    style = discord.ButtonStyle.primary

    async def run(self, press: Press) -> None:
        papers = self.papers(press)
        f = self.filters
        found = await papers.ids(venue=f.venue, year=f.year, kind=f.kind, area=f.area)
        ids = [i for i in found if i != self.paper_id]
        if not ids:
            raise UserError("paper-random-empty")
        await send_privately(press, await existing(papers, secrets.choice(ids)), f)


class SimilarButton(PaperButton, action="similar"):
    """Papers about what this one is about, within the same filters, numbered, each with its
    Open button, privately; fewer than five rather than unrelated ones."""

    async def run(self, press: Press) -> None:
        papers = self.papers(press)
        stored = await existing(papers, self.paper_id)
        f = self.filters
        similar = await papers.similar(
            self.paper_id, limit=PAGE_SIZE, venue=f.venue, year=f.year, kind=f.kind, area=f.area
        )
        if not similar:
            raise UserError("paper-no-similar")
        title = press.text("paper-similar-title", title=esc(stored.paper.title))
        view = discord.ui.View(timeout=None)
        for item in open_buttons(similar, filters=f):
            view.add_item(item)
        embed = list_embed(title, similar, press.strings, press.language)
        await press.interaction.response.send_message(embed=embed, view=view, ephemeral=True)


class OpenButton(PaperButton, action="open"):
    """A numbered button under a list: that paper in detail, privately."""

    async def run(self, press: Press) -> None:
        stored = await existing(self.papers(press), self.paper_id)
        await send_privately(press, stored, self.filters)


@dataclass(frozen=True, slots=True)
class SearchState:
    """Everything a results page needs, small enough to ride in a custom_id."""

    query: str
    venue: str | None = None
    year: int | None = None
    kind: AwardKind | None = None
    page: int = 0
    area: ResearchArea | None = None

    def at(self, page: int) -> SearchState:
        return replace(self, page=max(0, min(page, MAX_PAGE)))

    def custom_id(self, step: Step = "n") -> str:
        """Previous and Next never lead to the same page, so `step` needs no room here."""
        # The area rides after the kind as "+<index>", so ids sent before areas still parse.
        kind = self.kind.value if self.kind else ""
        if self.area is not None:
            kind += f"+{_AREAS.index(self.area)}"
        return (
            _PAGE_PREFIX.format(
                page=self.page, venue=self.venue or "", year=self.year or "", kind=kind
            )
            + self.query
        )

    def fitted(self) -> SearchState:
        """This state with the query cut so that the custom_id fits Discord's 100 characters.

        A query that long is cut before the first page is searched, so every page is a page of
        the same search (the answer shows the query it used).
        """
        room = CUSTOM_ID_LIMIT - len(replace(self, query="", page=MAX_PAGE).custom_id())
        return replace(self, query=self.query[:room].strip())

    async def results(self, papers: PaperRepository) -> Results:
        """This page's papers, whether another page follows, how many matched in all, and on
        a first page of fewer than PAGE_SIZE matches, papers close to the query after them."""
        found, total, close = await papers.search_page(
            self.query,
            venue=self.venue,
            year=self.year,
            kind=self.kind,
            area=self.area,
            limit=PAGE_SIZE + 1,
            offset=self.page * PAGE_SIZE,
            close=PAGE_SIZE,
        )
        # close: only after fewer matches than a page, and never past the page (readings.page)
        return Results(found[:PAGE_SIZE], len(found) > PAGE_SIZE, total, close)


@dataclass(frozen=True, slots=True)
class Results:
    """A page of search results: its papers, whether more follow, how many matched in all;
    and papers close to the query that do not match it (some of its words, or within a
    typo), shown apart after fewer matches than a page holds (issue 27)."""

    found: list[StoredPaper]
    more: bool
    total: int
    close: list[StoredPaper] = field(default_factory=list)


_PAGE_PREFIX = "paper:page:{page}:{venue}:{year}:{kind}:"
_AREAS = list(ResearchArea)


def results_page(
    state: SearchState, results: Results, strings: Strings, language: Language
) -> Shown:
    """A page of results: the papers numbered on from the pages before, each with its Open
    button, and how many matched; another page follows while there are more (up to
    MAX_PAGE)."""
    found, more, close = results.found, results.more, results.close
    first = state.page * PAGE_SIZE + 1
    total = max(results.total, first + len(found) - 1)
    footer = strings.text(
        "paper-search-footer",
        language,
        page=state.page + 1,
        pages=-(-total // PAGE_SIZE),
        first=first,
        last=first + len(found) - 1,
        total=total,
    )
    if close:
        footer += " · " + strings.text("paper-search-close-footer", language, count=len(close))
    embed = list_embed(
        strings.text("paper-search-title", language, query=esc(state.query)),
        found,
        strings,
        language,
        first_number=first,
        footer=footer,
        then=(strings.text("paper-search-close", language), close),
    )
    more = more and state.page < MAX_PAGE
    filters = Filters(state.venue, state.year, state.kind, state.area)
    shown = [*found, *close]
    return Shown(embed, state.page, more, open_buttons(shown, first_number=first, filters=filters))


def results_message(
    state: SearchState, results: Results, strings: Strings, language: Language
) -> tuple[discord.Embed, discord.ui.View | None]:
    shown = results_page(state, results, strings, language)
    return shown.embed, page_view(PageButton, state, shown, strings, language)


class PageButton(
    PaginatorButton[SearchState],
    template=r"paper:page:(?P<page>\d{1,5}):(?P<venue>[a-z0-9-]{0,32}):(?P<year>\d{0,4})"
    r":(?P<kind>[a-z-]{0,32})(?:\+(?P<area>\d))?:(?P<query>.*)",
):
    """Previous or Next under search results: the page, the query and the filters ride in
    its custom_id."""

    @classmethod
    def parse(cls, match: Match[str]) -> SearchState:
        kind = match["kind"]
        return SearchState(
            query=match["query"],
            venue=match["venue"] or None,
            year=int(match["year"]) if match["year"] else None,
            kind=AwardKind(kind) if kind in AwardKind._value2member_map_ else None,
            page=int(match["page"]),
            area=_AREAS[int(match["area"])] if match["area"] else None,
        )

    async def check(self, interaction: discord.Interaction) -> None:
        """Only the member who searched turns the pages of the answer everyone sees (the answer
        says who asked; the ids carry no owner, so buttons sent before this still work)."""
        asked = interaction.message.interaction_metadata if interaction.message else None
        if asked is not None and asked.user.id != interaction.user.id:
            raise UserError("paper-search-not-yours")

    async def show(self, press: Press) -> Shown:
        results = await self.target.results(_laurel(press.interaction).papers)
        if not results.found:
            raise UserError("paper-page-gone")
        return results_page(self.target, results, press.strings, press.language)


DYNAMIC_ITEMS = (
    AbstractButton,
    SourcesButton,
    AnotherButton,
    SimilarButton,
    OpenButton,
    PageButton,
)
