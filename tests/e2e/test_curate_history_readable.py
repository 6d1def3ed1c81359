"""/curate history reads as changes, not raw rows (issue 25, item 12): "edition_id: 171" over
411 pages, mostly rows the bundled data loaded. Now: the curators' own changes first, with
names ("ICML 2025", field names in the reader's language), each bundled load one line."""

from __future__ import annotations

from typing import Any

import pytest

from bot.app import LaurelBot
from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import ada, button, curate, curator_bot

__all__ = ["curator_bot"]
SAID = {
    "en-US": ("edition: NeurIPS 2025", "kind: Best paper", "the bundled catalogue: "),
    "zh-TW": ("屆次：NeurIPS 2025", "類型：最佳論文", "內建目錄："),
    "zh-CN": ("届次：NeurIPS 2025", "类型：最佳论文", "内置目录："),
}


async def _give_award(server: LocalDiscord) -> None:
    options: dict[str, Any] = {
        "paper": "token ordering", "venue": "NeurIPS", "year": 2025, "award": "best",
    }  # fmt: skip
    preview = await (await curate(server, "award add", options)).message()
    done = await server.press(preview, button(preview, "curate:confirm"), user_id=ada(server))
    await done.message()


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_history_shows_curators_changes_first_by_name_and_folds_bundled_loads(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database, locale: str
) -> None:
    await _give_award(server)
    history = await (await curate(server, "history", locale=locale)).message()
    (embed,) = history["embeds"]
    lines = embed["description"].splitlines()
    assert f"<@{ada(server)}>" in lines[0]  # the curator's own change comes first
    edition, kind, bundled = SAID[locale]
    assert any(edition in line for line in lines)
    assert any(kind in line for line in lines)
    assert "edition_id" not in embed["description"]
    assert "paper_id" not in embed["description"]
    folded = [line for line in lines if bundled in line]
    row = await db.fetchone("SELECT count(*) FROM audit WHERE actor = 'bundled data'")
    assert row is not None
    assert len(folded) == 1  # thousands of bundled rows: one line
    assert f"{row[0]:,}" in folded[0]
    assert embed["footer"]["text"] in ("Page 1 of 1", "第 1 頁，共 1 頁", "第 1 页，共 1 页")


@pytest.mark.parametrize(
    ("locale", "edition", "kind"),
    [("en-US", "edition", "kind"), ("zh-TW", "屆次", "類型"), ("zh-CN", "届次", "类型")],
)
async def test_what_a_write_changed_is_named_in_the_readers_language(
    curator_bot: LaurelBot, server: LocalDiscord, locale: str, edition: str, kind: str
) -> None:
    options: dict[str, Any] = {
        "paper": "token ordering", "venue": "NeurIPS", "year": 2025, "award": "best",
    }  # fmt: skip
    preview = await (await curate(server, "award add", options, locale=locale)).message()
    done = await server.press(
        preview, button(preview, "curate:confirm"), user_id=ada(server), locale=locale
    )
    (embed,) = (await done.message())["embeds"]
    fields = {f["name"]: f["value"] for f in embed["fields"]}
    assert fields[edition] == "NeurIPS 2025"  # was "edition_id: 171"
    assert kind in fields
    assert "edition_id" not in fields


@pytest.mark.parametrize(
    ("locale", "changed"),
    [("en-US", "changed ICML 2024"), ("zh-TW", "修改 ICML 2024"), ("zh-CN", "修改 ICML 2024")],
)
async def test_a_number_set_names_its_edition_as_the_history_does(
    curator_bot: LaurelBot, server: LocalDiscord, locale: str, changed: str
) -> None:
    """/curate stats set answered "修改 届次 #3 (口头报告, 来源)" where the history says
    "修改 ICML 2024": an edition is named, in a write's answer and in its undo."""
    options = {"venue": "ICML", "year": 2024, "field": "orals", "value": 150,
               "source": "https://icml.cc/"}  # fmt: skip
    (done,) = (await (await curate(server, "stats set", options, locale=locale)).message())[
        "embeds"
    ]
    assert changed in done["description"]
    change = int(done["description"].split("`#", 1)[1].split("`", 1)[0])
    undone = await (await curate(server, "undo", {"change": change}, locale=locale)).message()
    assert changed in undone["embeds"][0]["description"]
