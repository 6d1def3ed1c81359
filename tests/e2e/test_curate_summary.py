"""/curate paper edit's summary (one language a form) and area, on the stand-in: set, cleared,
audited, with the summary's source moved along, and refused where the input is incomplete."""

from __future__ import annotations

import json

import pytest

from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import (  # noqa: F401 (curator_bot is a fixture)
    FORM,
    ada,
    add_by_form,
    curate,
    curator_bot,
    paper_row,
)
from tests.support.interactions import EPHEMERAL

pytestmark = pytest.mark.usefixtures("curator_bot")
PAGE = "https://openreview.net/forum?id=curated"


def _fields(modal: dict[str, object]) -> dict[str, tuple[str, str | None]]:
    rows = modal["components"]
    assert isinstance(rows, list)
    return {
        r["components"][0]["custom_id"]: (
            r["components"][0]["label"],
            r["components"][0].get("value"),
        )
        for r in rows
    }


async def test_a_summary_is_set_in_one_language_with_its_source_then_cleared(
    server: LocalDiscord, db: Database
) -> None:
    paper_id = await add_by_form(server, db, FORM)
    opened = await curate(server, "paper edit", {"paper": str(paper_id), "summary": "zh-TW"})
    await opened.response()
    assert opened.modal is not None
    fields = _fields(opened.modal)
    assert list(fields) == ["summary", "source"]
    assert fields["summary"][0] == "Summary in 繁體中文 (blank: none)"
    saved = await server.submit(opened, {"summary": "我們整理目錄。", "source": PAGE})
    (diff,) = (await saved.message())["embeds"]
    assert diff["title"].startswith("Saved as change #")
    shown = {f["name"]: f["value"] for f in diff["fields"]}
    assert shown["Where the area and summaries come from"] == (
        f"Summary (zh-TW): written from <{PAGE}>"
    )
    row = await paper_row(db, paper_id)
    assert json.loads(row["summaries"]) == {"zh-TW": "我們整理目錄。"}
    assert {"url": PAGE, "covers": ["summaries.zh-TW"]} in json.loads(row["sources"])
    audit = await db.fetchone(
        "SELECT actor, action FROM audit WHERE entity = 'paper' ORDER BY id DESC LIMIT 1"
    )
    assert audit is not None
    assert (audit["actor"], audit["action"]) == (f"discord:{ada(server)}", "change")

    again = await curate(server, "paper edit", {"paper": str(paper_id), "summary": "zh-TW"})
    await again.response()
    assert again.modal is not None
    assert _fields(again.modal)["source"][1] == PAGE  # what it was written from, to keep
    await (await server.submit(again, {"summary": "", "source": PAGE})).message()
    row = await paper_row(db, paper_id)
    assert json.loads(row["summaries"]) == {}
    assert all("summaries.zh-TW" not in s.get("covers", []) for s in json.loads(row["sources"]))


async def test_a_summary_without_its_source_is_refused_and_nothing_is_written(
    server: LocalDiscord, db: Database
) -> None:
    paper_id = await add_by_form(server, db, FORM)
    before = await paper_row(db, paper_id)
    opened = await curate(server, "paper edit", {"paper": str(paper_id), "summary": "en"})
    await opened.response()
    refused = await (await server.submit(opened, {"summary": "We curate.", "source": ""})).message()
    assert refused["flags"] & EPHEMERAL
    assert refused["content"].startswith("Nothing was saved: a summary needs the link")
    assert await paper_row(db, paper_id) == before


async def test_the_area_is_set_and_cleared_without_a_form(
    server: LocalDiscord, db: Database
) -> None:
    paper_id = await add_by_form(server, db, FORM)
    filed = await curate(
        server,
        "paper edit",
        {"paper": str(paper_id), "area": "Reinforcement Learning & Decision Making"},
    )
    assert filed.modal is None
    (answer,) = (await filed.message())["embeds"]
    assert answer["title"].startswith("Saved as change #")
    assert answer["fields"][-1]["value"].startswith(
        "Area Reinforcement Learning & Decision Making: set by a curator or an import "
        "(see </curate history:"  # by mention, in the reader's language (issue 25, item 2)
    )
    assert (await paper_row(db, paper_id))["area"] == "Reinforcement Learning & Decision Making"
    both = await curate(
        server,
        "paper edit",
        {"paper": str(paper_id), "area": "NLP & Language", "clear-area": True},
    )
    assert (await both.message())["content"].startswith("Give an area or clear it, not both")
    cleared = await curate(server, "paper edit", {"paper": str(paper_id), "clear-area": True})
    await cleared.message()
    assert (await paper_row(db, paper_id))["area"] is None
    history = await db.fetchall(
        "SELECT action FROM audit WHERE entity = 'paper' AND entity_id = ? ORDER BY id",
        (str(paper_id),),
    )
    assert [r["action"] for r in history] == ["add", "change", "change"]
