"""The buttons under /paper answers. Each carries its state in its custom_id (a DynamicItem),
so a button on a message posted before a restart still works after it.

discord.py logs and swallows an exception raised in a dynamic item's callback; `_guarded` sends
it through the central error handler instead, as every command's errors are.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from re import Match
from typing import Any, Protocol, cast

import discord

from bot.commands.custom_ids import ID, parse_id
from bot.commands.errors import report
from bot.domain.areas import ResearchArea
from bot.domain.models import AwardKind, Language, StoredPaper
from bot.errors import UserError
from bot.render.i18n import Strings, language_of
from bot.render.markdown import esc
from bot.render.paper import abstract_embed, list_embed, paper_embed
from bot.store.papers import PaperRepository

PAGE_SIZE = 5
CUSTOM_ID_LIMIT = 100  # Discord's limit
MAX_PAGE = 9999
Button = discord.ui.Button[discord.ui.View]


class _Laurel(Protocol):
    papers: PaperRepository
    strings: Strings


def _laurel(interaction: discord.Interaction) -> _Laurel:
    return cast(_Laurel, interaction.client)


async def _guarded(
    interaction: discord.Interaction, run: Callable[[_Laurel, Language], Awaitable[None]]
) -> None:
    laurel = _laurel(interaction)
    try:
        await run(laurel, language_of(interaction.locale))
    except Exception as error:  # the central handler tells the user, and logs bugs
        await report(interaction, error, laurel.strings)


async def existing(papers: PaperRepository, paper_id: int) -> StoredPaper:
    stored = await papers.get(paper_id)
    if stored is None:
        raise UserError("paper-not-found", id=paper_id)
    return stored


def detail_view(paper_id: int, strings: Strings, language: Language) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AbstractButton(paper_id, strings.text("paper-button-abstract", language)))
    view.add_item(AnotherButton(paper_id, strings.text("paper-button-another", language)))
    view.add_item(SimilarButton(paper_id, strings.text("paper-button-similar", language)))
    return view


def open_buttons(
    papers: Sequence[StoredPaper], view: discord.ui.View, *, first_number: int = 1
) -> None:
    for number, stored in enumerate(papers, first_number):
        view.add_item(OpenButton(stored.id, str(number)))


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


class AbstractButton(discord.ui.DynamicItem[Button], template=rf"paper:abstract:(?P<id>{ID})"):
    def __init__(self, paper_id: int, label: str = "Abstract") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"paper:abstract:{paper_id}",
            )
        )
        self.paper_id = paper_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> AbstractButton:
        return cls(parse_id(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run(laurel: _Laurel, language: Language) -> None:
            stored = await existing(laurel.papers, self.paper_id)
            embed = abstract_embed(stored, laurel.strings, language)
            await interaction.response.send_message(embed=embed, ephemeral=True)

        await _guarded(interaction, run)


class AnotherButton(discord.ui.DynamicItem[Button], template=rf"paper:another:(?P<id>{ID})"):
    """A random awarded paper other than the one shown, privately to whoever asked."""

    def __init__(self, paper_id: int, label: str = "Another paper") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary,
                custom_id=f"paper:another:{paper_id}",
            )
        )
        self.paper_id = paper_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> AnotherButton:
        return cls(parse_id(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run(laurel: _Laurel, language: Language) -> None:
            ids = [i for i in await laurel.papers.ids() if i != self.paper_id]
            if not ids:
                raise UserError("paper-random-empty")
            stored = await existing(laurel.papers, secrets.choice(ids))
            await send_paper(interaction, stored, laurel.strings, language, ephemeral=True)

        await _guarded(interaction, run)


class SimilarButton(discord.ui.DynamicItem[Button], template=rf"paper:similar:(?P<id>{ID})"):
    def __init__(self, paper_id: int, label: str = "Similar") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"paper:similar:{paper_id}",
            )
        )
        self.paper_id = paper_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> SimilarButton:
        return cls(parse_id(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run(laurel: _Laurel, language: Language) -> None:
            stored = await existing(laurel.papers, self.paper_id)
            similar = await laurel.papers.similar(self.paper_id, limit=PAGE_SIZE)
            if not similar:
                raise UserError("paper-no-similar")
            title = laurel.strings.text(
                "paper-similar-title", language, title=esc(stored.paper.title)
            )
            view = discord.ui.View(timeout=None)
            open_buttons(similar, view)
            await interaction.response.send_message(
                embed=list_embed(title, similar, laurel.strings, language),
                view=view,
                ephemeral=True,
            )

        await _guarded(interaction, run)


class OpenButton(discord.ui.DynamicItem[Button], template=rf"paper:open:(?P<id>{ID})"):
    """A numbered button under a list: that paper in detail, privately."""

    def __init__(self, paper_id: int, label: str = "#") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, custom_id=f"paper:open:{paper_id}"
            )
        )
        self.paper_id = paper_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> OpenButton:
        return cls(parse_id(match["id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run(laurel: _Laurel, language: Language) -> None:
            stored = await existing(laurel.papers, self.paper_id)
            await send_paper(interaction, stored, laurel.strings, language, ephemeral=True)

        await _guarded(interaction, run)


@dataclass(frozen=True, slots=True)
class SearchState:
    """Everything a results page needs, small enough to ride in a custom_id."""

    query: str
    venue: str | None = None
    year: int | None = None
    kind: AwardKind | None = None
    page: int = 0
    area: ResearchArea | None = None

    def custom_id(self) -> str:
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


def results_message(
    state: SearchState,
    found: Sequence[StoredPaper],
    more: bool,
    strings: Strings,
    language: Language,
) -> tuple[discord.Embed, discord.ui.View]:
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
    view = discord.ui.View(timeout=None)
    open_buttons(found, view, first_number=first)
    if state.page > 0 or more:
        previous = PageButton(
            replace(state, page=max(state.page - 1, 0)), strings.text("paper-previous", language)
        )
        previous.item.disabled = state.page == 0
        following = PageButton(
            replace(state, page=min(state.page + 1, MAX_PAGE)), strings.text("paper-next", language)
        )
        following.item.disabled = not more or state.page >= MAX_PAGE
        previous.row = following.row = 1
        view.add_item(previous)
        view.add_item(following)
    return embed, view


class PageButton(
    discord.ui.DynamicItem[Button],
    template=r"paper:page:(?P<page>\d{1,4}):(?P<venue>[a-z0-9-]{0,32}):(?P<year>\d{0,4})"
    r":(?P<kind>[a-z-]{0,32})(?:\+(?P<area>\d))?:(?P<query>.*)",
):
    """Previous or Next: the page it leads to, the query and the filters, all in its custom_id."""

    def __init__(self, target: SearchState, label: str = "›") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.secondary, custom_id=target.custom_id()
            )
        )
        self.target = target

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Match[str], /
    ) -> PageButton:
        kind = match["kind"]
        target = SearchState(
            query=match["query"],
            venue=match["venue"] or None,
            year=int(match["year"]) if match["year"] else None,
            kind=AwardKind(kind) if kind in AwardKind._value2member_map_ else None,
            page=int(match["page"]),
            area=_AREAS[int(match["area"])] if match["area"] else None,
        )
        return cls(target)

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run(laurel: _Laurel, language: Language) -> None:
            found, more = await self.target.results(laurel.papers)
            if not found:
                raise UserError("paper-page-gone")
            embed, view = results_message(self.target, found, more, laurel.strings, language)
            await interaction.response.edit_message(embed=embed, view=view)

        await _guarded(interaction, run)


DYNAMIC_ITEMS = (AbstractButton, AnotherButton, SimilarButton, OpenButton, PageButton)
