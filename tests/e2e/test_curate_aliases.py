"""/curate paper edit's aliases (issue 27) on the stand-in: the names people use for a paper
(AlexNet) set by a curator through the one audited write path, found by /paper search and
/paper show, shown on the card, undone by /curate undo, and refused where the input is wrong."""

from __future__ import annotations

import json

import pytest

from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import (  # noqa: F401 (curator_bot is a fixture)
    FORM,
    add_by_form,
    curate,
    curator_bot,
    paper_row,
)
from tests.support.interactions import EPHEMERAL

pytestmark = pytest.mark.usefixtures("curator_bot")


async def _search(server: LocalDiscord, query: str) -> str:
    found = await (await server.slash("paper", {"query": query}, subcommand="search")).message()
    described = "".join(str(e.get("description", "")) for e in found.get("embeds", []))
    return described + str(found.get("content", ""))


async def test_aliases_are_set_found_shown_and_undone(server: LocalDiscord, db: Database) -> None:
    paper_id = await add_by_form(server, db, FORM)
    assert FORM["title"] not in await _search(server, "Quokkanet")
    named = await curate(
        server, "paper edit", {"paper": str(paper_id), "aliases": "QuokkaNet; quokkanet ;CAE-9"}
    )
    assert named.modal is None
    (answer,) = (await named.message())["embeds"]
    change_id = int(answer["title"].removeprefix("Saved as change #"))
    assert json.loads((await paper_row(db, paper_id))["aliases"]) == ["QuokkaNet", "CAE-9"]

    assert (await _search(server, "QuokkaNet")).startswith(f"**1.** **{FORM['title']}")
    assert FORM["title"] in await _search(server, "cae-9")
    shown = await (await server.slash("paper", {"paper": "QuokkaNet"}, subcommand="show")).message()
    (card,) = shown["embeds"]
    assert card["title"] == FORM["title"]
    fields = {f["name"]: f["value"] for f in card["fields"]}
    assert fields["Also known as"] == "QuokkaNet; CAE-9"

    undone = await (await curate(server, "undo", {"change": change_id})).message()
    assert undone["embeds"][0]["title"].startswith("Undone (change #")
    assert json.loads((await paper_row(db, paper_id))["aliases"]) == []
    assert FORM["title"] not in await _search(server, "QuokkaNet")


async def test_aliases_are_cleared_and_wrong_input_is_refused(
    server: LocalDiscord, db: Database
) -> None:
    paper_id = await add_by_form(server, db, FORM)
    named = await curate(server, "paper edit", {"paper": str(paper_id), "aliases": "QNet"})
    await named.message()
    before = await paper_row(db, paper_id)
    both = await curate(
        server, "paper edit", {"paper": str(paper_id), "aliases": "A", "clear-aliases": True}
    )
    refused = await both.message()
    assert refused["flags"] & EPHEMERAL
    assert refused["content"].startswith("Give aliases or clear them, not both")
    many = "; ".join(f"Name{n}" for n in range(11))
    too_many = await (
        await curate(server, "paper edit", {"paper": str(paper_id), "aliases": many})
    ).message()
    assert too_many["content"].startswith("A paper takes at most 10 aliases, not 11")
    assert await paper_row(db, paper_id) == before

    cleared = await curate(server, "paper edit", {"paper": str(paper_id), "clear-aliases": True})
    assert (await cleared.message())["embeds"][0]["title"].startswith("Saved as change #")
    assert json.loads((await paper_row(db, paper_id))["aliases"]) == []
