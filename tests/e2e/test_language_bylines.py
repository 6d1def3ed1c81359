"""What a member reads in each language (issue 25): one byline rule everywhere (item 4), and
the labels that are ours (track names, kind names) in the reader's language (item 1)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import LaurelBot
from laurel_console.localdiscord.server import LocalDiscord

DREAMFUSION_BYLINE = {  # four authors: the fourth is named, never "and 1 more"
    "en-US": "Ben Poole, Ajay Jain, Jonathan T. Barron and Ben Mildenhall",
    "zh-TW": "Ben Poole、Ajay Jain、Jonathan T. Barron 和 Ben Mildenhall",
    "zh-CN": "Ben Poole、Ajay Jain、Jonathan T. Barron 和 Ben Mildenhall",
}
MORE = {"en-US": "and 7 more", "zh-TW": "及另外 7 位作者", "zh-CN": "及另外 7 位作者"}
POSITION_TRACK = {
    "en-US": "Track: Position Paper Track",
    "zh-TW": "類別：立場論文",
    "zh-CN": "类别：立场论文",
}


def _unescaped(text: str) -> str:
    return text.replace("\\", "")


async def _text(server: LocalDiscord, command: str, sub: str, locale: str, **options: Any) -> str:
    interaction = await server.slash(command, options, subcommand=sub, locale=locale)
    message = await interaction.message()
    parts = [message.get("content") or ""]
    for embed in message.get("embeds", []):
        parts += [embed.get("description") or ""]
        parts += [f"{f['name']}\n{f['value']}" for f in embed.get("fields", [])]
    return _unescaped("\n".join(parts))


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_one_byline_rule_in_the_awards_list_and_the_paper_card(
    laurel: LaurelBot, server: LocalDiscord, locale: str
) -> None:
    listed = await _text(server, "awards", "edition", locale, venue="iclr", year=2023)
    assert DREAMFUSION_BYLINE[locale] in listed
    shown = await _text(server, "paper", "show", locale, paper="DreamFusion")
    assert DREAMFUSION_BYLINE[locale] in shown
    many = await _text(server, "awards", "edition", locale, venue="icml", year=2025)
    assert f"Shirley Wu{'、' if locale != 'en-US' else ', '}Michel Galley" in many
    assert MORE[locale] in many
    assert "等另外" not in many
    assert "等 7 人" not in many


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_track_labels_and_names_are_in_the_readers_language(
    laurel: LaurelBot, server: LocalDiscord, locale: str
) -> None:
    listed = await _text(server, "awards", "edition", locale, venue="icml", year=2025)
    assert POSITION_TRACK[locale] in listed
    if locale != "en-US":
        assert "Position Paper Track" not in listed


DREAMFUSION_AWARD = {"en-US": "ICLR 2023 · Outstanding Paper", "zh-TW": "ICLR 2023 · 傑出論文",
                     "zh-CN": "ICLR 2023 · 杰出论文"}  # fmt: skip
MARR = {"en-US": "ICCV 2023 · Marr Prize", "zh-TW": "ICCV 2023 · Marr Prize（最佳論文）",
        "zh-CN": "ICCV 2023 · Marr Prize（最佳论文）"}  # fmt: skip


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_an_award_that_only_says_its_kind_is_named_in_the_readers_language(
    laurel: LaurelBot, server: LocalDiscord, locale: str
) -> None:
    """'ICLR 2023 · Outstanding Paper' stood in a zh paper card: a name that only says what kind
    of award it is is ours to name; a venue's own name (Marr Prize) stays, its kind beside it."""
    card = await _text(server, "paper", "show", locale, paper="DreamFusion")
    assert DREAMFUSION_AWARD[locale] in card.splitlines()
    found = await _text(server, "paper", "search", locale, query="ControlNet")
    assert MARR[locale] in found
    if locale != "en-US":
        assert "Outstanding Paper" not in card
