"""What a curator reads about a paper's summaries and area, in their own language (issue 25,
items 1, 2 and 3): the preview of a write showed "领域 Computer Vision：分类表…所定" and
"摘要（en）：依据 … 撰写" on the same card as "（没有摘要）", so 摘要 named both the paper's
abstract and our summary; an area set by a curator said "(see /curate history)" typed out.
Now the area is named as the paper card names it, a summary is 簡介/简介 (摘要 is the abstract
only) and the history command is a mention."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import LaurelBot
from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import FORM, add_by_form, curate, curator_bot
from tests.support.walk import typed_commands

__all__ = ["curator_bot"]
PROVENANCE = {"en-US": "Where the area and summaries come from", "zh-TW": "領域與簡介的來源",
              "zh-CN": "领域与简介的来源"}  # fmt: skip
AREA = {"en-US": "Area Computer Vision:", "zh-TW": "領域 電腦視覺：", "zh-CN": "领域 计算机视觉："}
SPEECH = {"en-US": "Area Speech & Audio:", "zh-TW": "領域 語音與音訊：",
          "zh-CN": "领域 语音与音频："}  # fmt: skip
SUMMARY = {"en-US": "Summary (en):", "zh-TW": "簡介（en）：", "zh-CN": "简介（en）："}


def _field(message: dict[str, Any], name: str) -> str:
    (embed,) = message["embeds"]
    (value,) = [f["value"] for f in embed["fields"] if f["name"] == name]
    return str(value)


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_a_write_preview_names_the_area_and_summaries_in_the_curators_language(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database, locale: str
) -> None:
    options = {"paper": "DreamFusion", "venue": "ICML", "year": 2025, "award": "best"}
    preview = await (await curate(server, "award add", options, locale=locale)).message()
    lines = _field(preview, PROVENANCE[locale]).splitlines()
    assert lines[0].startswith(AREA[locale])
    assert any(line.startswith(SUMMARY[locale]) for line in lines)
    if locale != "en-US":
        assert "摘要" not in "\n".join(lines)  # the abstract's word, never a summary's


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_an_area_a_curator_set_points_to_the_history_by_mention(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database, locale: str
) -> None:
    paper_id = await add_by_form(server, db, FORM)  # no taxonomy: the area is a curator's
    options = {"paper": str(paper_id), "area": "Speech & Audio"}
    (answer,) = (await (await curate(server, "paper edit", options, locale=locale)).message())[
        "embeds"
    ]
    (area,) = [f["value"] for f in answer["fields"] if f["name"] == PROVENANCE[locale]]
    assert area.startswith(SPEECH[locale])
    assert "</curate history:" in area
    assert typed_commands([area]) == []
