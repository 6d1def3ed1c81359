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
    assert coverage.startswith("5 venues with statistics for 59 editions (2013–2025)")
    assert coverage.endswith("33 awards to 33 papers (2025)")
    assert "ICML" in embed["fields"][1]["value"]
    assert message["flags"] & 64 == 0  # public


async def test_about_in_traditional_chinese(laurel: LaurelBot, server: LocalDiscord) -> None:
    interaction = await server.slash("about", locale="zh-TW")
    (embed,) = (await interaction.message())["embeds"]
    assert embed["fields"][0]["name"] == "收錄範圍"


async def test_help_lists_commands_as_the_readers_client_names_them(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    english = (await (await server.slash("help")).message())["embeds"][0]["description"]
    assert "/about — What Laurel is" in english
    chinese = (await (await server.slash("help", locale="zh-TW")).message())["embeds"][0]
    assert "/關於 — Laurel 是什麼" in chinese["description"]


async def test_help_translates_each_word_of_a_subcommand(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    chinese = (await (await server.slash("help", locale="zh-TW")).message())["embeds"][0]
    assert "/獎項 屆次 — " in chinese["description"]
    assert "/awards" not in chinese["description"]
