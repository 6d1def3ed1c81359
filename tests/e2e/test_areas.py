"""Research areas on the stand-in: /paper random and search by area, offered in the reader's
language; digests filtered by area."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import LaurelBot
from bot.domain.areas import ResearchArea
from bot.domain.clock import SystemClock
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.awards import award, batch

EPHEMERAL = 64
YEAR = 2031  # no bundled award: the filters below see only this test's papers


@pytest.fixture
async def with_areas(laurel: LaurelBot, db: Database) -> LaurelBot:
    await CatalogRepository(db, SystemClock()).apply(
        batch(
            award("Quokka vision transformers", year=YEAR, area="Computer Vision"),
            award("Quokka language models", year=YEAR, area="NLP & Language"),
            award("Quokka without an area", year=YEAR),
        ),
        actor="test",
        policy="update",
    )
    return laurel


def _title(message: dict[str, Any]) -> str:
    return str(message["embeds"][0]["title"])


async def test_random_by_area_in_any_language(with_areas: LaurelBot, server: LocalDiscord) -> None:
    for typed, locale in (
        ("Computer Vision", "en-US"),
        ("電腦視覺", "zh-TW"),
        ("计算机视觉", "zh-CN"),
    ):
        interaction = await server.slash(
            "paper",
            {"year": YEAR, "area": typed},
            subcommand="random",
            locale=locale,
        )
        assert _title(await interaction.message()) == "Quokka vision transformers"


async def test_areas_are_offered_in_the_readers_language(
    with_areas: LaurelBot, server: LocalDiscord
) -> None:
    chinese = await server.autocomplete(
        "paper", {"area": ""}, "area", subcommand="random", locale="zh-TW"
    )
    assert len(chinese) == len(ResearchArea)
    assert {"name": "電腦視覺", "value": "Computer Vision"} in chinese
    typed = await server.autocomplete(
        "paper", {"area": "語"}, "area", subcommand="search", locale="zh-TW"
    )
    assert [c["value"] for c in typed] == ["NLP & Language", "Speech & Audio"]


async def test_search_by_area_keeps_the_area_across_pages(
    with_areas: LaurelBot, server: LocalDiscord
) -> None:
    interaction = await server.slash(
        "paper", {"query": "quokka", "area": "NLP & Language"}, subcommand="search"
    )
    message = await interaction.message()
    assert "Quokka language models" in message["embeds"][0]["description"]
    assert "Quokka vision" not in message["embeds"][0]["description"]


async def test_an_unknown_area_is_a_clear_private_answer(
    with_areas: LaurelBot, server: LocalDiscord
) -> None:
    interaction = await server.slash(
        "paper", {"area": "Quantum Basket Weaving"}, subcommand="random", locale="zh-CN"
    )
    message = await interaction.message()
    assert message["flags"] & EPHEMERAL
    assert message["content"].startswith("没有名为“Quantum Basket Weaving”的研究领域")


async def test_a_digest_filtered_by_area_draws_only_from_that_area(
    with_areas: LaurelBot, server: LocalDiscord
) -> None:
    ada = server.world.find_user("ada").id
    answer = await server.slash(
        "digest",
        {
            "channel": "general",
            "theme": "paper-of-the-day",
            "year-from": YEAR,
            "area": "電腦視覺",
        },
        subcommand="subscribe",
        user_id=ada,
        locale="zh-TW",
    )
    text = (await answer.message())["content"]
    assert "電腦視覺" in text
    (stored,) = await with_areas.subscriptions.in_guild(server.world.default_guild().id)
    assert stored.filters.area == ResearchArea.COMPUTER_VISION
    for _ in range(3):  # the preview picks from the filter: only the one paper in its area
        preview = await server.slash(
            "digest", {"subscription": str(stored.id)}, subcommand="preview", user_id=ada
        )
        shown = await preview.message()
        assert [e.get("title") for e in shown["embeds"]] == ["Quokka vision transformers"]

    refused = await server.slash(
        "digest",
        {"channel": "general", "theme": "test-of-time", "area": "Speech & Audio"},
        subcommand="subscribe",
        user_id=ada,
    )
    message = await refused.message()
    assert message["flags"] & EPHEMERAL
    assert message["content"].startswith("No award in the catalogue matches")
    assert "Speech & Audio" in message["content"]
