"""/awards edition lists papers each with a way to open it (issue 25, item 14): the numbered
buttons /paper search has, numbered through the edition across pages."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.app import LaurelBot
from laurel_console.localdiscord.server import LocalDiscord

EPHEMERAL = 64
NUMBERED = re.compile(r"^\*\*(\d+)\.\*\* \[?(.+?)(?:\]\(|$)", re.M)


def _buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message.get("components", []) for c in row["components"]]


def _listed(message: dict[str, Any]) -> dict[str, str]:
    text = message["embeds"][0]["description"].replace("\\", "")
    return dict(NUMBERED.findall(text))


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_each_listed_paper_opens_by_its_number(
    laurel: LaurelBot, server: LocalDiscord, locale: str
) -> None:
    interaction = await server.slash(
        "awards", {"venue": "icml", "year": 2025}, subcommand="edition", locale=locale
    )
    first = await interaction.message()
    listed = _listed(first)
    numbers = [b["label"] for b in _buttons(first) if b["custom_id"].startswith("paper:open:")]
    assert numbers == sorted(listed, key=int)
    assert numbers[0] == "1"
    pressed = await server.press(
        first, next(b["custom_id"] for b in _buttons(first) if b["label"] == "2"), locale=locale
    )
    opened = await pressed.message()
    assert opened["flags"] & EPHEMERAL
    assert opened["embeds"][0]["title"].startswith(listed["2"][:30])

    following = next(
        b
        for b in _buttons(first)
        if b["custom_id"].startswith("awards:") and b["custom_id"].split(":")[4] == "n"
    )
    second = await (await server.press(first, following["custom_id"], locale=locale)).message()
    more = [b["label"] for b in _buttons(second) if b["custom_id"].startswith("paper:open:")]
    assert more
    assert int(more[0]) == len(numbers) + 1  # numbered on through the edition
    rows = [
        [c["custom_id"].split(":")[0] for c in row["components"]] for row in second["components"]
    ]
    assert rows[-1] == ["awards", "awards"]  # Previous and Next on a row of their own
