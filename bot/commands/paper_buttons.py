"""The buttons under /paper answers. Each carries its state in its custom_id (a LaurelButton,
so errors reach the central handler and presses the metrics), so a button on a message posted
before a restart still works after it.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Sequence
from dataclasses import dataclass, replace
from re import Match
from typing import Any, ClassVar, Protocol, Self, cast

import discord

from bot.commands.buttons import LaurelButton, Press
from bot.commands.custom_ids import ID, parse_id
from bot.commands.paginator import PageButton as PaginatorButton
from bot.commands.paginator import Shown, Step, page_view
from bot.domain.areas import ResearchArea
from bot.domain.models import AwardKind, Language, StoredPaper
from bot.errors import UserError
from bot.render.i18n import Strings
from bot.render.markdown import esc
from bot.render.paper import abstract_embed, list_embed, paper_embed, sources_embed
from bot.store.papers import PaperRepository

PAGE_SIZE = 5
CUSTOM_ID_LIMIT = 100  # Discord's limit
MAX_PAGE = 9999


class _Laurel(Protocol):
    papers: PaperRepository
    strings: Strings


def _laurel(interaction: discord.Interaction) -> _Laurel:
    return cast(_Laurel, interaction.client)


async def existing(papers: PaperRepository, paper_id: int) -> StoredPaper:
    stored = await papers.get(paper_id)
    if stored is None:
        raise UserError("paper-not-found", id=paper_id)
    return stored


def detail_view(paper_id: int, strings: Strings, language: Language) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AbstractButton(paper_id, strings.text("paper-button-abstract", language)))
    view.add_item(SourcesButton(paper_id, strings.text("paper-button-sources", language)))
    view.add_item(AnotherButton(paper_id, strings.text("paper-button-another", language)))
    view.add_item(SimilarButton(paper_id, strings.text("paper-button-similar", language)))
    return view


def open_buttons(papers: Sequence[StoredPaper], *, first_number: int = 1) -> list[OpenButton]:
    """A numbered Open button for each paper of a list, numbered as the list is."""
    return [OpenButton(stored.id, str(n)) for n, stored in enumerate(papers, first_number)]


async def send_paper(
    interaction: discord.Interaction,
    stored: StoredPaper,
    strings: Strings,
    language: Language,
    *,
    ephemeral: bool = False,
    heading: str | None = None,
) -> None:
    await interaction.response.send_message(
        embed=paper_embed(stored, strings, language, heading=heading),
        view=detail_view(stored.id, strings, language),
        ephemeral=ephemeral,
    )


def send_privately(press: Press, stored: StoredPaper) -> Awaitable[None]:
    return send_paper(press.interaction, stored, press.strings, press.language, ephemeral=True)


class PaperButton(LaurelButton):
    """A button about one paper, `paper:<action>:<id>`; a subclass names its action and
    says what a press does (`answer`)."""

    action: ClassVar[str]
    style: ClassVar[discord.ButtonStyle] = discord.ButtonStyle.secondary

    def __init_subclass__(cls, *, action: str | None = None) -> None:
        if action is None:  # an abstract base
            super().__init_subclass__()
        else:
            cls.action = action
            super().__init_subclass__(template=rf"paper:{action}:(?P<id>{ID})")

    def __init__(self, paper_id: int, label: str = "#") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=self.style, custom_id=f"paper:{self.action}:{paper_id}"
            )
        )
        self.paper_id = paper_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> Self:
        return cls(parse_id(match["id"]))

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
    """A random awarded paper other than the one shown, privately to whoever asked."""

    style = discord.ButtonStyle.primary

    async def run(self, press: Press) -> None:
        papers = self.papers(press)
        ids = [i for i in await papers.ids() if i != self.paper_id]
        if not ids:
            raise UserError("paper-random-empty")
        await send_privately(press, await existing(papers, secrets.choice(ids)))


class SimilarButton(PaperButton, action="similar"):
    """Papers like this one, numbered, each with its Open button, privately."""

    async def run(self, press: Press) -> None:
        papers = self.papers(press)
        stored = await existing(papers, self.paper_id)
        similar = await papers.similar(self.paper_id, limit=PAGE_SIZE)
        if not similar:
            raise UserError("paper-no-similar")
        title = press.text("paper-similar-title", title=esc(stored.paper.title))
        view = discord.ui.View(timeout=None)
        for item in open_buttons(similar):
            view.add_item(item)
        embed = list_embed(title, similar, press.strings, press.language)
        await press.interaction.response.send_message(embed=embed, view=view, ephemeral=True)


class OpenButton(PaperButton, action="open"):
    """A numbered button under a list: that paper in detail, privately."""

    async def run(self, press: Press) -> None:
        await send_privately(press, await existing(self.papers(press), self.paper_id))


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

    async def results(self, papers: PaperRepository) -> tuple[list[StoredPaper], bool]:
        """This page's papers, and whether another page follows."""
        found = await papers.search(
            self.query,
            venue=self.venue,
            year=self.year,
            kind=self.kind,
            area=self.area,
            limit=PAGE_SIZE + 1,
            offset=self.page * PAGE_SIZE,
        )
        return found[:PAGE_SIZE], len(found) > PAGE_SIZE


_PAGE_PREFIX = "paper:page:{page}:{venue}:{year}:{kind}:"
_AREAS = list(ResearchArea)


def results_page(
    state: SearchState,
    found: Sequence[StoredPaper],
    more: bool,
    strings: Strings,
    language: Language,
) -> Shown:
    """A page of results: the papers numbered on from the pages before, each with its Open
    button; another page follows while there are more results (up to MAX_PAGE)."""
    first = state.page * PAGE_SIZE + 1
    embed = list_embed(
        strings.text("paper-search-title", language, query=esc(state.query)),
        found,
        strings,
        language,
        first_number=first,
        footer=strings.text(
            "paper-search-footer",
            language,
            page=state.page + 1,
            first=first,
            last=first + len(found) - 1,
        ),
    )
    more = more and state.page < MAX_PAGE
    return Shown(embed, state.page, more, open_buttons(found, first_number=first))


def results_message(
    state: SearchState,
    found: Sequence[StoredPaper],
    more: bool,
    strings: Strings,
    language: Language,
) -> tuple[discord.Embed, discord.ui.View | None]:
    shown = results_page(state, found, more, strings, language)
    return shown.embed, page_view(PageButton, state, shown, strings, language)


class PageButton(
    PaginatorButton[SearchState],
    template=r"paper:page:(?P<page>\d{1,4}):(?P<venue>[a-z0-9-]{0,32}):(?P<year>\d{0,4})"
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
        found, more = await self.target.results(_laurel(press.interaction).papers)
        if not found:
            raise UserError("paper-page-gone")
        return results_page(self.target, found, more, press.strings, press.language)


DYNAMIC_ITEMS = (
    AbstractButton,
    SourcesButton,
    AnotherButton,
    SimilarButton,
    OpenButton,
    PageButton,
)
