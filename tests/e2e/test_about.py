from __future__ import annotations

from bot.app import LaurelBot
from bot.localdiscord.server import LocalDiscord


async def test_about_answers_with_the_catalogue_coverage(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    interaction = await server.slash("about")
    message = await interaction.message()
    (embed,) = message["embeds"]
    assert embed["title"] == "Laurel"
    coverage = embed["fields"][0]["value"]
    assert "5 venues" in coverage
    assert "ICML" in embed["fields"][1]["value"]
    assert message["flags"] & 64 == 0  # public


async def test_about_in_traditional_chinese(laurel: LaurelBot, server: LocalDiscord) -> None:
    interaction = await server.slash("about", locale="zh-TW")
    (embed,) = (await interaction.message())["embeds"]
    assert embed["fields"][0]["name"] == "收錄範圍"
