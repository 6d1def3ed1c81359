"""Filters that stick (issue 27): Another paper, Similar and Open keep venue, year, kind and
area in their custom_id; ids sent before still parse; `area:` takes any name of an area."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.commands.paper_buttons import (
    CUSTOM_ID_LIMIT,
    AnotherButton,
    Filters,
    OpenButton,
    PageButton,
    PaperButton,
    SearchState,
    SimilarButton,
)
from bot.domain.areas import ResearchArea
from bot.domain.models import AwardKind
from bot.render.areas import find_area
from bot.render.i18n import Strings


async def _parsed(button: type[PaperButton], custom_id: str) -> PaperButton:
    pattern = re.compile(button.__discord_ui_compiled_template__.pattern)
    match = pattern.fullmatch(custom_id)
    assert match is not None, custom_id
    none: Any = None
    return await button.from_custom_id(none, none, match)


@pytest.mark.parametrize("button", [AnotherButton, SimilarButton, OpenButton])
@pytest.mark.parametrize(
    "filters",
    [
        Filters(),
        Filters(area=ResearchArea.REINFORCEMENT_LEARNING),
        Filters(venue="neurips", year=2024),
        Filters("neurips", 2024, AwardKind.TEST_OF_TIME, ResearchArea.GENERAL_ML),
    ],
)
async def test_the_filters_ride_in_the_custom_id(
    button: type[PaperButton], filters: Filters
) -> None:
    made = button(2**63 - 1, "x", filters)
    assert made.custom_id is not None
    assert len(made.custom_id) <= CUSTOM_ID_LIMIT
    again = await _parsed(button, made.custom_id)
    assert again.paper_id == 2**63 - 1
    assert again.filters == filters


@pytest.mark.parametrize("button", [AnotherButton, SimilarButton, OpenButton])
async def test_buttons_sent_before_filters_still_parse(button: type[PaperButton]) -> None:
    old = await _parsed(button, f"paper:{button.action}:42")
    assert old.paper_id == 42
    assert old.filters == Filters()


async def test_a_search_page_opens_papers_with_its_filters() -> None:
    from bot.commands.paper_buttons import Results, results_page
    from bot.domain.models import Paper, StoredPaper

    state = SearchState("rl", venue="icml", area=ResearchArea.REINFORCEMENT_LEARNING)
    paper = StoredPaper(id=7, paper=Paper(title="A paper"), awards=())
    shown = results_page(state, Results([paper], False, 1), Strings.load(), "en")
    (opened,) = shown.items
    assert isinstance(opened, OpenButton)
    assert opened.filters == Filters("icml", None, None, ResearchArea.REINFORCEMENT_LEARNING)


async def test_search_pages_past_ten_thousand_and_old_four_digit_pages_parse() -> None:
    pattern = re.compile(PageButton.__discord_ui_compiled_template__.pattern)
    assert pattern.fullmatch(SearchState("graph", page=19_999).custom_id())
    assert pattern.fullmatch("paper:page:9999:::best:graph")


@pytest.mark.parametrize(
    ("typed", "area"),
    [
        ("reinforcement learning", ResearchArea.REINFORCEMENT_LEARNING),
        ("RL", ResearchArea.REINFORCEMENT_LEARNING),
        ("rl", ResearchArea.REINFORCEMENT_LEARNING),
        ("Reinforcement Learning and Decision Making", ResearchArea.REINFORCEMENT_LEARNING),
        ("強化學習與決策", ResearchArea.REINFORCEMENT_LEARNING),
        ("强化学习", ResearchArea.REINFORCEMENT_LEARNING),
        ("NLP", ResearchArea.NLP_LANGUAGE),
        ("自然語言處理", ResearchArea.NLP_LANGUAGE),
        ("cv", ResearchArea.COMPUTER_VISION),
        ("计算机视觉", ResearchArea.COMPUTER_VISION),
        ("ML THÉORY & optimization", ResearchArea.THEORY_OPTIMIZATION),
        ("  Computer   Vision ", ResearchArea.COMPUTER_VISION),
        ("volleyball", None),
        ("", None),
    ],
)
def test_an_area_by_any_of_its_names(typed: str, area: ResearchArea | None) -> None:
    assert find_area(Strings.load(), typed) is area
