"""A search's state rides in its page buttons' custom_id, the research area included."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.commands.paper_buttons import CUSTOM_ID_LIMIT, PageButton, SearchState
from bot.domain.areas import ResearchArea
from bot.domain.models import AwardKind

TEMPLATE = re.compile(PageButton.__discord_ui_compiled_template__.pattern)


async def _parsed(custom_id: str) -> SearchState:
    match = TEMPLATE.fullmatch(custom_id)
    assert match is not None, custom_id
    none: Any = None
    return (await PageButton.from_custom_id(none, none, match)).target


@pytest.mark.parametrize("area", [None, *ResearchArea])
@pytest.mark.parametrize("kind", [None, AwardKind.TEST_OF_TIME])
async def test_every_area_survives_the_round_trip(
    area: ResearchArea | None, kind: AwardKind | None
) -> None:
    state = SearchState(
        "gated attention: 注意力", venue="icml", year=2025, kind=kind, page=3, area=area
    ).fitted()
    assert len(state.custom_id()) <= CUSTOM_ID_LIMIT
    assert await _parsed(state.custom_id()) == state


async def test_buttons_sent_before_areas_still_parse() -> None:
    old = "paper:page:2:neurips:2024:best:diffusion"
    assert await _parsed(old) == SearchState("diffusion", "neurips", 2024, AwardKind.BEST, 2)
