"""The one paginator: Previous/Next buttons for every paged answer (/paper search, /awards,
/curate history).

Each button is persistent (a LaurelButton): the page it leads to and everything needed to
draw that page ride in its custom_id, so it works after a restart with nothing in memory. The
answer decides its pages from its data alone (the same data gives the same pages), moves a
page number that no longer exists inside the pages that do, and refuses, briefly and
privately, a page that has nothing left to show.

A paged answer is a state (`Paged`: what it lists, which page, its custom_id) and a subclass
of `PageButton` that reads the state back from a custom_id (`parse`) and draws its page
(`show`). Pages are numbered from 0 in the state; what the member reads is the answer's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, Literal, Protocol, Self, TypeVar

import discord

from bot.commands.buttons import LaurelButton, Press
from bot.domain.models import Language
from bot.render.i18n import Strings

Step = Literal["p", "n"]  # which of the two buttons: Previous or Next
Item = discord.ui.Item[Any]


class Paged(Protocol):
    """What a paged answer shows and which page of it, all of which fits in a custom_id."""

    @property
    def page(self) -> int: ...

    def at(self, page: int) -> Self:
        """The same answer at `page` (kept within the pages a custom_id can name)."""
        ...

    def custom_id(self, step: Step) -> str: ...


S = TypeVar("S", bound=Paged)


@dataclass(frozen=True, slots=True)
class Shown:
    """One page, drawn: its embed, the page it is (after bounds), whether another follows,
    and the items shown above the page buttons (a search's numbered Open buttons)."""

    embed: discord.Embed
    page: int
    more: bool
    items: Sequence[Item] = ()


class PageButton(LaurelButton, Generic[S]):
    """Previous or Next: draws the page `target` names in place of the one pressed under."""

    labels: ClassVar[tuple[str, str]] = ("paper-previous", "paper-next")  # locale keys

    def __init__(
        self, target: S, step: Step = "n", label: str = "›", *, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                style=discord.ButtonStyle.secondary,
                label=label,
                disabled=disabled,
                custom_id=target.custom_id(step),
            )
        )
        self.target = target
        self.step = step

    @classmethod
    def parse(cls, match: re.Match[str]) -> S:
        """The state a custom_id this class made carries (its template matched already)."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        step: Step = "p" if match.groupdict().get("step") == "p" else "n"
        return cls(cls.parse(match), step)

    async def show(self, press: Press) -> Shown:
        """Draw the page `self.target` names (raise a UserError if there is nothing to show)."""
        raise NotImplementedError

    async def run(self, press: Press) -> None:
        shown = await self.show(press)
        view = page_view(type(self), self.target, shown, press.strings, press.language)
        await press.interaction.response.edit_message(embed=shown.embed, view=view)


def page_view(
    button: type[PageButton[S]], state: S, shown: Shown, strings: Strings, language: Language
) -> discord.ui.View | None:
    """The view under `shown`: its items, then Previous and Next if there is another page.

    timeout=None: a view that times out takes its dynamic items' registration with it.
    """
    paged = shown.page > 0 or shown.more
    if not paged and not shown.items:
        return None
    view = discord.ui.View(timeout=None)
    for item in shown.items:
        view.add_item(item)
    if paged:
        back, forward = (strings.text(key, language) for key in button.labels)
        previous = button(state.at(max(shown.page - 1, 0)), "p", back, disabled=shown.page == 0)
        following = button(
            state.at(shown.page + 1 if shown.more else shown.page),
            "n",
            forward,
            disabled=not shown.more,
        )
        if shown.items:  # below the items (five to a row), on a row of their own
            previous.row = following.row = (len(shown.items) + 4) // 5
        view.add_item(previous)
        view.add_item(following)
    return view
