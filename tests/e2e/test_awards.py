"""/awards on the loopback Discord: an edition's awards, a venue's history, test-of-time awards."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord

EPHEMERAL = 64
ICML_2025 = {  # by heading, in the order shown
    "Outstanding paper": [
        "Train for the Worst, Plan for the Best",
        "The Value of Prediction in Identifying the Worst-Off",
        "CollabLLM: From Passive Responders to Active Collaborators",
        "Roll the dice & look before you leap",
        "Conformal Prediction as Bayesian Quadrature",
        "Score Matching with Missing Data",
    ],
    "Position paper": [
        "Position: The AI Conference Peer Review Crisis Demands Author Feedback",
        "Position: AI Safety Should Prioritize the Future of Work",
    ],
    "Honorable mention": [
        "Trust Region Policy Optimization",
        "Variational Inference with Normalizing Flows",
    ],
    "Test of time": ["Batch Normalization: Accelerating Deep Network Training"],
}


def _buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components", []) for c in row["components"]]


def _pages(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [b for b in _buttons(message) if b["custom_id"].startswith("awards:")]


def _button(message: dict[str, Any], step: str) -> dict[str, Any]:
    """The Previous ("p") or Next ("n") button of a paged answer."""
    pages = [b for b in _buttons(message) if b["custom_id"].startswith("awards:")]
    (found,) = [b for b in pages if b["custom_id"].split(":")[4] == step]
    return found


async def _awards(
    server: LocalDiscord, subcommand: str, locale: str = "en-US", **options: Any
) -> dict[str, Any]:
    interaction = await server.slash("awards", options, subcommand=subcommand, locale=locale)
    return await interaction.message()


async def _all_pages(server: LocalDiscord, first: dict[str, Any]) -> list[dict[str, Any]]:
    pages = [first]
    while _pages(pages[-1]) and not _button(pages[-1], "n").get("disabled"):
        pressed = await server.press(pages[-1], _button(pages[-1], "n")["custom_id"])
        pages.append(await pressed.message())
    return pages


def _text(message: dict[str, Any]) -> str:
    (embed,) = message["embeds"]
    return str(embed["description"])


def _unescaped(text: str) -> str:
    return text.replace("\\", "")


async def test_icml_2025_lists_every_award_grouped_by_kind(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    first = await _awards(server, "edition", venue="icml", year=2025)
    assert first["flags"] & EPHEMERAL == 0
    assert first["embeds"][0]["title"] == "ICML 2025 awards"
    assert first["embeds"][0]["footer"]["text"] == "Page 1/2 · 11 awards"
    pages = await _all_pages(server, first)
    assert len(pages) == 2
    text = _unescaped("\n".join(_text(p) for p in pages))
    for heading, titles in ICML_2025.items():
        assert f"__**{heading}**__ ({len(titles)})" in text
        for title in titles:
            assert title in text, title
    order = [text.index(f"__**{heading}**__") for heading in ICML_2025]
    assert order == sorted(order)  # in this order
    assert "[Train for the Worst, Plan for the Best" in text
    assert "(https://arxiv.org/abs/2502.06768)" in text  # linked to arXiv
    assert "Shirley Wu, Michel Galley, Baolin Peng and 7 more" in text
    assert "Track: Position Paper Track" in text


async def test_icml_2025_in_traditional_chinese(laurel: LaurelBot, server: LocalDiscord) -> None:
    message = await _awards(server, "edition", "zh-TW", venue="icml", year=2025)
    (embed,) = message["embeds"]
    assert embed["title"] == "ICML 2025 獲獎論文"
    assert embed["footer"]["text"] == "第 1/2 頁 · 11 個獎項"
    assert "__**傑出論文**__ (6)" in embed["description"]
    assert "Shirley Wu、Michel Galley、Baolin Peng 及另外 7 位作者" in _unescaped(
        embed["description"]
    )
    assert _button(message, "n")["label"] == "下一頁"


async def test_neurips_2025_datasets_and_benchmarks_award_is_a_kind_of_its_own(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    # The Datasets & Benchmarks track's best paper is not among the best papers (issue 24).
    message = await _awards(server, "edition", venue="neurips", year=2025, kind="best")
    (embed,) = message["embeds"]
    assert embed["title"] == "NeurIPS 2025 — Best paper"
    assert embed["footer"]["text"] == "Page 1/1 · 3 awards"
    # one page: no page buttons, but each paper opens by its number (issue 25, item 14)
    assert [b["label"] for b in _buttons(message)] == ["1", "2", "3"]
    text = _unescaped(embed["description"])
    assert "__**Best paper**__ (3)" in text
    assert "Gated Attention for Large Language Models" in text
    assert "Artificial Hivemind" not in text
    assert text.count("Track: Main Track") == 3
    message = await _awards(
        server, "edition", venue="neurips", year=2025, kind="datasets-benchmarks"
    )
    text = _unescaped(message["embeds"][0]["description"])
    assert "Artificial Hivemind: The Open-Ended Homogeneity" in text
    hivemind = text[text.index("Artificial Hivemind") :].split("\n")[1]
    assert "Track: Datasets & Benchmarks" in hivemind


async def test_next_and_previous_turn_the_pages_in_place(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    first = await _awards(server, "edition", venue="icml", year=2025)
    assert _button(first, "p")["disabled"] is True
    assert all(len(b["custom_id"]) <= 100 for b in _buttons(first))
    second = await (await server.press(first, _button(first, "n")["custom_id"])).message()
    assert second["id"] == first["id"]  # edited, not a new message
    assert second["embeds"][0]["footer"]["text"] == "Page 2/2 · 11 awards"
    assert "Trust Region Policy Optimization" in _unescaped(_text(second))
    assert _button(second, "n")["disabled"] is True
    back = await (await server.press(second, _button(second, "p")["custom_id"])).message()
    assert back["embeds"] == first["embeds"]


async def test_only_the_asker_turns_the_pages(laurel: LaurelBot, server: LocalDiscord) -> None:
    first = await _awards(server, "edition", venue="icml", year=2025)
    (guild,) = server.world.guilds.values()
    other = await server.press(first, _button(first, "n")["custom_id"], user_id=guild.owner_id)
    answer = await other.message()
    assert answer["flags"] & EPHEMERAL
    assert answer["content"].startswith("Only the person who asked")
    stored = server.messages(first["channel_id"], ephemeral=False)
    assert [m["embeds"] for m in stored if m["id"] == first["id"]] == [first["embeds"]]


async def test_the_buttons_work_after_a_restart(
    server: LocalDiscord, db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    async with laurel_on(server, db, clock=SystemClock()):
        first = await _awards(server, "edition", "zh-TW", venue="icml", year=2025)
    async with laurel_on(server, db, clock=SystemClock()):
        pressed = await server.press(first, _button(first, "n")["custom_id"], locale="zh-TW")
        second = await pressed.message()
        assert second["embeds"][0]["footer"]["text"] == "第 2/2 頁 · 11 個獎項"
        back = await (await server.press(second, _button(second, "p")["custom_id"])).message()
        assert back["embeds"][0]["footer"]["text"] == "Page 1/2 · 11 awards"
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def test_history_counts_awards_per_year_by_kind(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    (embed,) = (await _awards(server, "history", venue="icml"))["embeds"]
    assert embed["title"] == "ICML awards by year"
    lines = embed["description"].split("\n")
    assert lines[0].startswith("**2026** — ")  # newest first
    year = lines.index("**2025** — 11 awards")
    assert (
        lines[year + 1]
        == "Outstanding paper 6 · Position paper 2 · Honorable mention 2 · Test of time 1"
    )
    assert "The catalogue covers ICML 2014–2026." in embed["description"]
    (chinese,) = (await _awards(server, "history", "zh-TW", venue="ICML"))["embeds"]
    assert chinese["title"] == "ICML 歷年獎項"
    assert "傑出論文 6 · 立場論文 2 · 榮譽提名 2 · 時間檢驗獎 1" in chinese["description"]


async def test_test_of_time_awards_across_venues_with_the_papers_year(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    (embed,) = (await _awards(server, "test-of-time"))["embeds"]
    assert embed["title"] == "Test-of-time awards"
    text = _unescaped(embed["description"])
    assert "**ICML 2025** · [Batch Normalization: Accelerating Deep Network Training" in text
    assert "**NeurIPS 2025** · [Faster R-CNN" in text
    assert text.count("paper from 2015") >= 4
    # Its honorable mentions follow the award, labelled (their "Test of Time" track is not
    # repeated).
    icml = text[text.index("**ICML 2025**") :]
    assert icml.index("Batch Normalization") < icml.index("Trust Region Policy Optimization")
    assert (
        "**ICML 2025** · [Trust Region Policy Optimization](https://proceedings.mlr.press/v37/schulman15.html)"
        " · *Test-of-time honorable mention*" in text
    )
    assert text.count("*Test-of-time honorable mention*") == 2
    assert "Track: Test of Time" not in text
    (only,) = (await _awards(server, "test-of-time", "zh-TW", venue="neurips"))["embeds"]
    assert only["title"] == "NeurIPS 時間檢驗獎"
    assert "Faster R-CNN" in only["description"]
    assert "Batch" not in only["description"]
    assert "2015 年的論文" in only["description"]
    (icml,) = (await _awards(server, "test-of-time", "zh-CN", venue="icml"))["embeds"]
    assert icml["description"].count("*时间检验奖荣誉提名*") == 2


@pytest.mark.parametrize(
    ("subcommand", "options", "locale", "expected"),
    [
        ("edition", {"venue": "nosuchconf", "year": 2025}, "en-US",
         "I don't know the venue **nosuchconf**. Try one of: 3DV, AAAI, ACL, CASE, CoRL, CVPR, "
         "ECCV, EMNLP, Humanoids, ICCV, ICLR, ICML, ICRA, IJCAI, IROS, NAACL, NeurIPS, RSS, "
         "SIGGRAPH, WAFR."),
        ("edition", {"venue": "icml", "year": 1999}, "en-US",
         "The catalogue has nothing for ICML 1999; it covers ICML 2014–2026."),
        ("edition", {"venue": "icml", "year": 1999}, "zh-TW",
         "目錄裡沒有 ICML 1999 的資料；ICML 收錄的年份是 2014–2026。"),
        ("edition", {"venue": "ijcai", "year": 2014}, "en-US",
         "The catalogue has nothing for IJCAI 2014; it covers IJCAI 2013, 2015–2025."),
        ("edition", {"venue": "icml", "year": 2025, "kind": "best"}, "en-US",
         "ICML 2025 has no **Best paper** awards in the catalogue. It has: Outstanding paper (6), "
         "Position paper (2), Honorable mention (2), Test of time (1)."),
        ("edition", {"venue": "icml", "year": 2025, "kind": "best"}, "zh-TW",
         "目錄裡 ICML 2025 沒有「最佳論文」獎項。已收錄的有：傑出論文 (6)、立場論文 (2)、"
         "榮譽提名 (2)、時間檢驗獎 (1)。"),
        ("edition", {"venue": "icml", "year": 2014}, "en-US",
         "The catalogue has no awards for ICML 2014 yet."),
        ("history", {"venue": "nosuchconf"}, "en-US",
         "I don't know the venue **nosuchconf**. Try one of: 3DV, AAAI, ACL, CASE, CoRL, CVPR, "
         "ECCV, EMNLP, Humanoids, ICCV, ICLR, ICML, ICRA, IJCAI, IROS, NAACL, NeurIPS, RSS, "
         "SIGGRAPH, WAFR."),
        ("test-of-time", {"venue": "ijcai"}, "en-US",
         "The catalogue has no test-of-time awards for IJCAI."),
    ],
)  # fmt: skip
async def test_mistakes_get_a_clear_private_answer(
    laurel: LaurelBot,
    server: LocalDiscord,
    subcommand: str,
    options: dict[str, Any],
    locale: str,
    expected: str,
) -> None:
    message = await _awards(server, subcommand, locale, **options)
    assert message["flags"] & EPHEMERAL
    assert message["content"] == expected


async def test_the_venue_is_autocompleted_from_the_catalogue(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    choices = await server.autocomplete("awards", {"venue": "neur"}, "venue", subcommand="edition")
    assert [c["value"] for c in choices] == ["neurips"]
    everything = await server.autocomplete("awards", {"venue": ""}, "venue", subcommand="history")
    assert len(everything) == 20


async def test_commands_are_named_in_the_readers_language(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    (synced,) = server.requests_to("PUT /applications/{application_id}/commands")
    (awards,) = [c for c in synced.body if c["name"] == "awards"]
    assert awards["name_localizations"]["zh-TW"] == "獎項"
    names = {o["name"]: o["name_localizations"]["zh-CN"] for o in awards["options"]}
    assert names == {"edition": "届次", "history": "历年", "test-of-time": "时间检验奖"}
