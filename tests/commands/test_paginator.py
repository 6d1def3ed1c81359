"""The one paginator's buttons: where Previous and Next lead, when they are off, and when an
answer has no page buttons at all."""

from __future__ import annotations

import discord
import pytest

from bot.commands.awards import Listing, PageButton
from bot.commands.paginator import Shown, page_view
from bot.render.i18n import Strings

LISTING = Listing("hi", 42, "icml")


@pytest.fixture(scope="module")
def strings() -> Strings:
    return Strings.load()


def _pages(view: discord.ui.View | None) -> list[tuple[str | None, str | None, bool]]:
    assert view is not None
    return [
        (item.item.label, item.item.custom_id, item.item.disabled)
        for item in view.children
        if isinstance(item, PageButton)
    ]


def test_one_page_alone_has_no_buttons(strings: Strings) -> None:
    assert page_view(PageButton, LISTING, Shown(discord.Embed(), 0, False), strings, "en") is None


def test_the_first_page_leads_on_and_not_back(strings: Strings) -> None:
    view = page_view(PageButton, LISTING, Shown(discord.Embed(), 0, True), strings, "en")
    assert _pages(view) == [
        ("Previous", "awards:hi:42:0:p:icml:0:", True),
        ("Next", "awards:hi:42:1:n:icml:0:", False),
    ]


def test_the_last_page_leads_back_and_not_on(strings: Strings) -> None:
    view = page_view(PageButton, LISTING.at(3), Shown(discord.Embed(), 3, False), strings, "zh-TW")
    assert _pages(view) == [
        ("上一頁", "awards:hi:42:2:p:icml:0:", False),
        ("下一頁", "awards:hi:42:3:n:icml:0:", True),
    ]


def test_a_page_asked_past_the_end_is_drawn_as_the_last_and_leads_from_there(
    strings: Strings,
) -> None:
    # The state asked for page 7; the answer had 3 pages and showed the last (2).
    view = page_view(PageButton, LISTING.at(7), Shown(discord.Embed(), 2, False), strings, "en")
    assert [custom_id for _, custom_id, _ in _pages(view)] == [
        "awards:hi:42:1:p:icml:0:",
        "awards:hi:42:2:n:icml:0:",
    ]
