"""/stats on the stand-in: an edition's numbers with its trend chart, and venues side by side."""

from __future__ import annotations

from typing import Any

from bot.app import LaurelBot
from laurel_console.localdiscord.server import LocalDiscord

EPHEMERAL = 64


async def stats(server: LocalDiscord, subcommand: str, locale: str = "en-US", **options: Any):
    interaction = await server.slash("stats", options, subcommand=subcommand, locale=locale)
    return await interaction.message()


def field(embed: dict[str, Any], name: str) -> str:
    (value,) = [f["value"] for f in embed["fields"] if f["name"] == name]
    return str(value)


def chart(server: LocalDiscord, message: dict[str, Any], filename: str) -> bytes:
    (embed,) = message["embeds"]
    (attachment,) = message["attachments"]
    assert attachment["filename"] == filename
    assert embed["image"]["url"] == f"attachment://{filename}"
    return server.attachment_bytes(attachment)


async def test_neurips_2025_in_numbers_with_its_trend_chart(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    message = await stats(server, "edition", venue="neurips", year=2025)

    (embed,) = message["embeds"]
    assert embed["title"] == "NeurIPS 2025 in numbers"
    assert field(embed, "Submissions") == "**21,575**\n+37.7% vs 2024"
    assert field(embed, "Accepted") == "**5,290**\n+31.0% vs 2024"
    assert field(embed, "Acceptance rate") == "**24.5%**\n−1.2 pts vs 2024"
    reviewing = field(embed, "Reviewing")
    assert "Reviewers 20,518" in reviewing
    assert "Area chairs 1,663" in reviewing
    assert "San Diego, United States · December 2025" in embed["description"]
    # A member sees no document names or other sources' figures: those are curators' (issue 24).
    names = [f["name"] for f in embed["fields"]]
    assert "Sources" not in names
    assert "Also reported" not in names
    assert chart(server, message, "trend.png").startswith(b"\x89PNG\r\n\x1a\n")
    assert message["flags"] & EPHEMERAL == 0


async def test_icml_editions_show_their_numbers_and_not_other_sources_figures(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    (icml_2025,) = (await stats(server, "edition", venue="ICML", year=2025))["embeds"]
    assert field(icml_2025, "Submissions").startswith("**12,107**")
    assert field(icml_2025, "Accepted").startswith("**3,260**")
    assert field(icml_2025, "Acceptance rate").startswith("**26.9%**")
    assert field(icml_2025, "Presentations") == "Orals 120 · Spotlights 313"
    assert "<t:" in icml_2025["description"]  # dates as Discord timestamps

    (icml_2024,) = (await stats(server, "edition", venue="icml", year=2024))["embeds"]
    assert field(icml_2024, "Submissions").startswith("**9,473**")
    assert "Also reported" not in [f["name"] for f in icml_2024["fields"]]


async def test_without_a_year_the_latest_edition_with_statistics(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    (embed,) = (await stats(server, "edition", venue="neurips"))["embeds"]
    assert embed["title"] == "NeurIPS 2025 in numbers"


async def test_edition_in_traditional_chinese(laurel: LaurelBot, server: LocalDiscord) -> None:
    message = await stats(server, "edition", locale="zh-TW", venue="neurips", year=2025)

    (embed,) = message["embeds"]
    assert embed["title"] == "NeurIPS 2025 數據"
    assert field(embed, "投稿數") == "**21,575**\n較 2024 年 +37.7%"
    assert field(embed, "錄取數").startswith("**5,290**")
    assert field(embed, "錄取率") == "**24.5%**\n較 2024 年 −1.2 個百分點"
    assert "審稿人 20,518" in field(embed, "審稿")
    assert "2025 年 12 月" in embed["description"]
    assert chart(server, message, "trend.png").startswith(b"\x89PNG")


async def test_unknown_venue_is_a_private_clear_answer(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    message = await stats(server, "edition", venue="nowhere", year=2025)
    assert message["flags"] & EPHEMERAL
    assert message["content"].startswith("I don't know the venue **nowhere**.")
    assert "NeurIPS" in message["content"]


async def test_a_year_not_covered_says_which_years_are(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    message = await stats(server, "edition", venue="ijcai", year=2014)
    assert message["flags"] & EPHEMERAL
    assert message["content"] == (
        "The catalogue has nothing for IJCAI 2014; it covers IJCAI 2013, 2015–2025."
    )
    chinese = await stats(server, "edition", locale="zh-TW", venue="ijcai", year=2014)
    assert chinese["content"].startswith("目錄裡沒有 IJCAI 2014 的資料")


async def test_an_edition_without_statistics_says_which_years_have_them(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    message = await stats(server, "edition", venue="iclr", year=2014)
    assert message["flags"] & EPHEMERAL
    assert message["content"] == (
        "The catalogue has ICLR 2014 but no statistics for it; "
        "it has ICLR's statistics for 2017–2026."
    )


async def test_compare_puts_every_venue_with_data_side_by_side(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    message = await stats(server, "compare", year=2025)

    (embed,) = message["embeds"]
    assert embed["title"] == "2025: venues side by side"
    names = [f["name"] for f in embed["fields"]]
    # Most submissions first; CVPR's figures are in the catalogue since issue 24.
    assert names == ["NeurIPS", "CVPR", "AAAI", "ICML", "ICLR", "IJCAI"]
    assert field(embed, "NeurIPS") == (
        "Submissions: **21,575**\nAccepted: **5,290**\nAcceptance rate: **24.5%**"
    )
    assert "**26.9%**" in field(embed, "ICML")
    assert chart(server, message, "compare.png").startswith(b"\x89PNG")


async def test_compare_named_venues_in_traditional_chinese(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    message = await stats(server, "compare", locale="zh-TW", year=2014, venues="icml，NIPS, IJCAI")

    (embed,) = message["embeds"]
    assert embed["title"] == "2014 年各會議對照"
    assert [f["name"] for f in embed["fields"]] == ["NeurIPS"]
    assert field(embed, "NeurIPS").startswith("投稿數：**1,678**\n錄取數：**414**")
    assert embed["footer"]["text"] == "2014 年沒有統計：ICML, IJCAI"  # ICML 2014: rates only
    assert chart(server, message, "compare.png").startswith(b"\x89PNG")


async def test_compare_refuses_unknown_venues_and_empty_years(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    unknown = await stats(server, "compare", year=2025, venues="ICML, Foo")
    assert unknown["flags"] & EPHEMERAL
    assert unknown["content"].startswith("I don't know the venue **Foo**.")

    empty = await stats(server, "compare", year=1990)
    assert empty["flags"] & EPHEMERAL
    assert empty["content"] == (
        "No venue in the catalogue has statistics for 1990; the statistics cover "
        "1994, 1996, 2000–2001, 2004, 2010–2011, 2013–2026."
    )

    none_of = await stats(server, "compare", year=2014, venues="ijcai")
    assert none_of["content"] == "None of IJCAI has statistics for 2014 in the catalogue."


async def test_stats_commands_and_options_are_registered_in_chinese(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    (command,) = [c for c in server.commands.list_for(None) if c["name"] == "stats"]
    assert command["name_localizations"]["zh-TW"] == "統計"
    assert command["name_localizations"]["zh-CN"] == "统计"
    subcommands = {o["name"]: o for o in command["options"]}
    assert set(subcommands) == {"edition", "compare", "institutions", "authors"}
    compare = subcommands["compare"]
    assert compare["name_localizations"]["zh-TW"] == "對照"
    assert compare["description_localizations"]["zh-TW"] == "同一年各會議並列對照，附圖表"
    for subcommand in subcommands.values():
        for option in subcommand["options"]:
            assert option["name_localizations"]["zh-TW"], option["name"]
            assert option["description_localizations"]["zh-CN"], option["name"]


async def test_compare_completes_the_last_venue_in_the_list(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    choices = await server.autocomplete(
        "stats", {"year": 2025, "venues": "ICML, i"}, "venues", subcommand="compare"
    )
    assert [c["value"] for c in choices] == [
        "ICML, ICCV", "ICML, ICLR", "ICML, ICRA", "ICML, IJCAI", "ICML, IROS",
    ]  # fmt: skip
    everything = await server.autocomplete(
        "stats", {"year": 2025, "venues": ""}, "venues", subcommand="compare"
    )
    names = [c["name"] for c in everything]
    assert names[:5] == ["3DV", "AAAI", "ACL", "CASE", "CoRL"]
    assert len(names) == 20


async def test_a_repeated_question_gets_the_same_chart(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    first = await stats(server, "edition", venue="neurips", year=2025)
    again = await stats(server, "edition", venue="neurips", year=2025)
    other_year = await stats(server, "edition", venue="neurips", year=2024)
    charts = [chart(server, m, "trend.png") for m in (first, again, other_year)]
    assert charts[0] == charts[1]
    assert charts[0] != charts[2]  # the year shown is shaded
