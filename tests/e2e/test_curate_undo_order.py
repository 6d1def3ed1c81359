"""An undone change never blocks undoing what came before it (issue 25, item 9): the loop
"undo #2042 → undo #2044 first → undo #2045 first", where #2045 was the undo of #2044."""

from __future__ import annotations

import pytest

from bot.app import LaurelBot
from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import FORM, add_by_form, curate, curator_bot, paper_row

__all__ = ["curator_bot"]
EDIT = {"authors": "Grace Hopper", "affiliations": "", "links": "", "abstract": ""}
UNDONE = {"en-US": "Undone (change #", "zh-TW": "已復原（變更 #", "zh-CN": "已撤销（变更 #"}


async def _edit(server: LocalDiscord, paper_id: int, title: str) -> int:
    opened = await curate(server, "paper edit", {"paper": str(paper_id)})
    await opened.response()
    edited = await server.submit(opened, {**EDIT, "title": title})
    (diff,) = (await edited.message())["embeds"]
    return int(diff["title"].removeprefix("Saved as change #"))


async def _undo(server: LocalDiscord, change: int, locale: str = "en-US") -> dict[str, object]:
    return await (await curate(server, "undo", {"change": change}, locale=locale)).message()


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_undoing_an_earlier_change_after_undoing_a_later_one(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database, locale: str
) -> None:
    paper_id = await add_by_form(server, db, FORM)
    before_first = await paper_row(db, paper_id)
    first = await _edit(server, paper_id, "First Edit")
    second = await _edit(server, paper_id, "Second Edit")
    undo_second = await _undo(server, second, locale)
    assert str(undo_second["embeds"][0]["title"]).startswith(UNDONE[locale])  # type: ignore[index]
    assert (await paper_row(db, paper_id))["title"] == "First Edit"

    undo_first = await _undo(server, first, locale)  # was: "Undo #second first"
    assert str(undo_first["embeds"][0]["title"]).startswith(UNDONE[locale])  # type: ignore[index]
    assert (await paper_row(db, paper_id))["title"] == before_first["title"]


async def test_a_change_still_standing_later_still_blocks_and_is_the_one_named(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    paper_id = await add_by_form(server, db, FORM)
    first = await _edit(server, paper_id, "First Edit")
    second = await _edit(server, paper_id, "Second Edit")
    third = await _edit(server, paper_id, "Third Edit")
    await _undo(server, third)
    refused = await _undo(server, first)
    assert refused["content"] == (
        f"Change #{first} cannot be undone alone: change #{second} touched the same record "
        f"later. Undo #{second} first."
    )
    undo_second = await _undo(server, second)  # the one named can be undone: no loop
    assert str(undo_second["embeds"][0]["title"]).startswith("Undone")  # type: ignore[index]
    assert (await _undo(server, first))["embeds"]
    again = await _undo(server, second)
    assert str(again["content"]).startswith(f"Change #{second} is already undone (by change #")
