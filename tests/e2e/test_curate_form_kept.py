"""A refused value in the add form keeps everything typed (issue 25, item 10): "這些欄位無效：
doi" used to throw the form away. The answer names the field and offers the form again, every
value kept and the bad field marked; fixed, it goes through."""

from __future__ import annotations

import pytest

from bot.app import LaurelBot
from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import FORM, ada, button, curate, curator_bot
from tests.support.interactions import EPHEMERAL

__all__ = ["curator_bot"]
SAID = {"en-US": "These fields are not valid: **doi**", "zh-TW": "這些欄位無效：**doi**",
        "zh-CN": "这些字段无效：**doi**"}  # fmt: skip


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_a_refused_field_reopens_the_form_with_every_value_kept(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database, locale: str
) -> None:
    options = {"venue": "ICML", "year": 2025, "award": "best"}
    opened = await curate(server, "paper add", options, locale=locale)
    await opened.response()
    typed = {**FORM, "doi": "not a doi"}
    refused = await (await server.submit(opened, typed, locale=locale)).message()
    assert refused["flags"] & EPHEMERAL
    assert SAID[locale] in refused["content"]
    again = await server.press(
        refused, button(refused, "curate:again"), user_id=ada(server), locale=locale
    )
    await again.response()
    assert again.modal is not None
    inputs = {
        c["components"][0]["custom_id"]: c["components"][0] for c in again.modal["components"]
    }
    assert {k: inputs[k].get("value") for k in typed} == typed  # nothing typed was lost
    assert inputs["doi"]["label"].startswith("⚠ ")
    assert not inputs["title"]["label"].startswith("⚠")

    fixed = await (await server.submit(again, {**typed, "doi": "10.5555/kept.2025"})).message()
    assert fixed["embeds"][0]["title"] == FORM["title"]  # the preview, ready to confirm
    assert await db.fetchone("SELECT 1 FROM papers WHERE title = ?", (FORM["title"],)) is None
