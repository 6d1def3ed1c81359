"""/curate award, stats, import, export, history and undo on the stand-in."""

from __future__ import annotations

import csv
import io
import logging
import tempfile
import tomllib
from pathlib import Path
from typing import Any

import pytest

from bot.app import LaurelBot
from bot.catalog.document import read_document
from bot.catalog.importers import csv_format
from bot.domain.clock import SystemClock
from bot.domain.models import Award, CatalogBatch
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.commands import mention
from tests.support.curating import (
    MASKED_ARXIV,
    NEW_AWARDS,
    ada,
    audit_count,
    button,
    curate,
    curator_bot,
    curators_writes,
    grace,
    settings_for,
    stored_paper_id,
)
from tests.support.interactions import EPHEMERAL
from tests.support.payloads import fields

__all__ = ["curator_bot"]  # the fixture, shared with test_curate


async def test_award_add_then_remove(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    paper_id = await stored_paper_id(db, MASKED_ARXIV)
    before = await audit_count(db)
    asked = await curate(
        server,
        "award add",
        {"paper": str(paper_id), "venue": "NeurIPS", "year": 2025, "award": "test of time"},
    )
    preview = await asked.message()  # a preview first, as every other curator write has
    assert preview["flags"] & EPHEMERAL
    (shown_first,) = preview["embeds"]
    assert shown_first["footer"]["text"] == f"Give paper #{paper_id} this award?"
    assert fields(shown_first)["Awards"] == "NeurIPS 2025 · Test of Time Award (Test of time)"
    assert await audit_count(db) == before  # nothing written until Confirm
    cancelled = await server.press(preview, button(preview, "curate:cancel"), user_id=ada(server))
    assert (await cancelled.message())["content"] == "Cancelled; nothing was written."
    assert await audit_count(db) == before
    asked = await curate(
        server,
        "award add",
        {"paper": str(paper_id), "venue": "NeurIPS", "year": 2025, "award": "test of time"},
    )
    preview = await asked.message()
    added = await server.press(preview, button(preview, "curate:confirm"), user_id=ada(server))
    (embed,) = (await added.message())["embeds"]
    assert embed["title"].startswith("Award added (change #")
    shown = await (
        await server.slash("paper", {"paper": str(paper_id)}, subcommand="show")
    ).message()
    awards = {f["name"]: f["value"] for f in shown["embeds"][0]["fields"]}["Awards"]
    assert "NeurIPS 2025 · Test of Time Award" in awards

    again = await curate(
        server,
        "award add",
        {"paper": str(paper_id), "venue": "NeurIPS", "year": 2025, "award": "test of time"},
    )
    assert (await again.message())["content"].startswith(f"Paper #{paper_id} already holds")

    choices = await server.autocomplete(
        "curate", {"award": "token ordering"}, "award", subcommand="award remove",
        user_id=ada(server),
    )  # fmt: skip
    (test_of_time,) = [c for c in choices if "test-of-time" in c["name"]]
    removed = await curate(server, "award remove", {"award": test_of_time["value"]})
    assert (await removed.message())["embeds"][0]["title"].startswith("Award removed")
    shown = await (
        await server.slash("paper", {"paper": str(paper_id)}, subcommand="show")
    ).message()
    assert fields(shown["embeds"][0])["Awards"] == "ICML 2025 · Outstanding Paper Award"
    twice = await curate(server, "award remove", {"award": test_of_time["value"]})
    assert (await twice.message())["content"].startswith("No award in the catalogue matches")


async def test_stats_set_changes_one_number_with_its_source_and_refuses_inconsistent_ones(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    source = "https://icml.cc/Conferences/2025/Statistics"
    original = await db.fetchone(
        "SELECT orals, sources FROM editions WHERE venue = 'icml' AND year = 2025"
    )
    assert original is not None
    done = await curate(
        server,
        "stats set",
        {"venue": "ICML", "year": 2025, "field": "orals", "value": 987, "source": source},
    )
    (embed,) = (await done.message())["embeds"]
    assert embed["title"].startswith("Saved as change #")
    assert {f["name"] for f in embed["fields"]} == {"orals", "sources"}
    row = await db.fetchone(
        "SELECT orals, sources FROM editions WHERE venue = 'icml' AND year = 2025"
    )
    assert row is not None
    assert row["orals"] == 987
    assert source in row["sources"]
    change_id = int(embed["title"].removeprefix("Saved as change #"))
    undone = await (await curate(server, "undo", {"change": change_id})).message()
    assert undone["embeds"][0]["title"].startswith("Undone")
    restored = await db.fetchone(
        "SELECT orals, sources FROM editions WHERE venue = 'icml' AND year = 2025"
    )
    assert restored is not None
    assert tuple(restored) == tuple(original)

    before = await audit_count(db)
    refused = await curate(
        server,
        "stats set",
        {"venue": "ICML", "year": 2025, "field": "accepted", "value": 9_999_999, "source": source},
    )
    message = await refused.message()
    assert message["flags"] & EPHEMERAL
    assert "These fields are not valid" in message["content"]
    bad_source = await curate(
        server,
        "stats set",
        {"venue": "ICML", "year": 2025, "field": "orals", "value": 1, "source": "javascript:x"},
    )
    assert "**url**" in (await bad_source.message())["content"]
    assert await audit_count(db) == before


async def test_import_shows_the_dry_run_and_applies_only_when_asked(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    before = await audit_count(db)
    asked = await curate(server, "import", {"file": ("season.toml", NEW_AWARDS.encode())})
    preview = await asked.message()
    (embed,) = preview["embeds"]
    assert embed["title"].startswith("Dry run of season.toml")
    assert "add: 1 award, 1 paper" in embed["description"]
    assert "rejected: 1" in embed["description"]
    assert "links.code: only http and https links are allowed" in embed["description"]
    assert await audit_count(db) == before  # a dry run writes nothing

    applied = await server.press(preview, button(preview, "curate:confirm"), user_id=ada(server))
    assert (await applied.message())["embeds"][0]["title"] == "Imported"
    assert await db.fetchone("SELECT 1 FROM papers WHERE arxiv = '2501.00001'") is not None
    rows = await db.fetchall("SELECT DISTINCT actor FROM audit WHERE id > ?", (before,))
    assert [r["actor"] for r in rows] == [f"discord:{ada(server)}"]

    again = await curate(server, "import", {"file": ("season.toml", NEW_AWARDS.encode())})
    assert (await again.message())["content"].startswith("That file would change nothing")


async def test_import_refuses_what_it_cannot_read(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    before = await audit_count(db)
    for upload, answer in (
        (("season.pdf", b"%PDF"), "cannot tell the format of **season.pdf**"),
        (
            ("season.toml", b"[[awards]\nbroken"),
            "Nothing was imported: the file is not valid TOML (line 1).",
        ),
    ):
        refused = await curate(server, "import", {"file": upload})
        message = await refused.message()
        assert message["flags"] & EPHEMERAL
        assert answer in message["content"]
    assert await audit_count(db) == before


async def test_export_attaches_the_catalogue_that_reads_back(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    exported = await (await curate(server, "export")).message()
    (attachment,) = exported["attachments"]
    assert attachment["filename"] == "laurel-catalog.toml"
    data = server.attachment_bytes(attachment)
    batch = read_document(data.decode(), "export")
    row = await db.fetchone("SELECT count(*) FROM live_awards")
    assert row is not None
    assert len(batch.awards) == row[0] > 0
    assert batch.rejected == ()
    assert tomllib.loads(data.decode())["venues"]
    assert exported["content"].startswith(f"The catalogue: {row[0]} awards")

    assert len(data) > 64 * 1024  # more than one network read returns at once
    again = await curate(server, "import", {"file": ("laurel-catalog.toml", data)})
    assert (await again.message())["content"].startswith("That file would change nothing")

    as_csv = await (await curate(server, "export", {"format": "CSV"})).message()
    (attachment,) = as_csv["attachments"]
    table = list(
        csv.DictReader(io.StringIO(server.attachment_bytes(attachment).decode("utf-8-sig")))
    )
    assert len(table) == row[0]


async def test_history_pages_and_undo_refuses_what_it_cannot_undo(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    await curators_writes(db, server)
    first = await (await curate(server, "history")).message()
    footer = first["embeds"][0]["footer"]["text"]
    pages = int(footer.split(" of ")[1].split(" ")[0])
    assert pages > 1  # the bundled catalogue's own rows
    ids = [str(c["custom_id"]) for row in first["components"] for c in row["components"]]
    assert [i.split(":")[:2] for i in ids] == [["curate", "history"]] * 2
    assert ids[0].endswith(":0:p")  # Previous: disabled on the first page (pages count from 0)
    following = ids[1]
    assert following.endswith(":1:n")  # Next leads to the second page
    older = await server.press(first, following, user_id=ada(server))
    second = await older.message()
    assert second["embeds"][0]["footer"]["text"].startswith(f"Page 2 of {pages}")
    assert second["embeds"][0]["description"] != first["embeds"][0]["description"]

    # A change made since does not move the rows of the pages already shown.
    preview = await (await curate(server, "paper remove", {"paper": MASKED_ARXIV})).message()
    await (
        await server.press(preview, button(preview, "curate:confirm"), user_id=ada(server))
    ).message()
    stored = server.driver.store.find(int(first["id"]))
    assert stored is not None
    stored.payload["components"] = first["components"]  # the first page's buttons, shown again
    again = await (await server.press(first, following, user_id=ada(server))).message()
    stored.payload["components"] = first["components"]
    assert again["embeds"][0]["description"] == second["embeds"][0]["description"]
    assert again["embeds"][0]["footer"]["text"].startswith(f"Page 2 of {pages}")
    # Only the curator who asked turns its pages.
    taken = await server.press(first, following, user_id=grace(server))
    refusal = await taken.message()
    assert refusal["flags"] & EPHEMERAL
    assert refusal["content"] == "Only the curator who asked may use these buttons."

    edition = await db.fetchone(
        "SELECT min(id) FROM audit WHERE entity = 'edition' AND action = 'add'"
    )
    assert edition is not None
    refused = await (await curate(server, "undo", {"change": edition[0]})).message()
    assert refused["content"] == (
        f"Change #{edition[0]} added a venue or an edition, which cannot be undone; "
        "correct it instead."
    )
    unknown = await (await curate(server, "undo", {"change": 10**9})).message()
    assert (
        unknown["content"]
        == f"There is no change #{10**9} (see {mention(server, 'curate history')})."
    )


async def test_curation_answers_in_traditional_chinese(
    curator_bot: LaurelBot, server: LocalDiscord
) -> None:
    refused = await curate(
        server, "export", user_id=server.world.find_user("grace").id, locale="zh-TW"
    )
    assert (await refused.message())["content"].startswith("只有 Laurel 的策展人可以修改目錄")
    history = await (await curate(server, "history", locale="zh-TW")).message()
    assert history["embeds"][0]["title"] == "目錄變更紀錄"


async def test_csv_export_holds_separators_and_no_formula_and_reads_back(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    """/curate export → CSV writes what it used to refuse whole (a ";" in a name) and what a
    spreadsheet would run (a cell starting "="), in the curator's language, and reads back."""
    tricky = Award.model_validate(
        {
            "venue": "icml",
            "year": 2025,
            "name": "Outstanding Paper Award",
            "kind": "outstanding",
            "paper": {
                "title": '=HYPERLINK("https://evil.example","open me")',
                "authors": ["Smith; John", "@mention", "'Tis Quoted"],
                "affiliations": ["Lab\\; of \\ things"],
            },
        }
    )
    await CatalogRepository(db, SystemClock()).apply(
        CatalogBatch(awards=(tricky,)), actor="test", policy="update"
    )

    answer = await (await curate(server, "export", {"format": "CSV"}, locale="zh-TW")).message()

    assert answer["content"].startswith("目錄")  # the zh-TW text, not an English refusal
    (attachment,) = answer["attachments"]
    data = server.attachment_bytes(attachment)
    for row in csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")):
        assert not [cell for cell in row if cell.startswith(("=", "+", "-", "@", "\t", "\r"))]
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "export.csv").write_bytes(data)
        again = csv_format.parse(Path(folder) / "export.csv")
    assert again.rejected == ()
    assert tricky in again.awards


async def test_import_of_a_deeply_nested_file_is_refused_in_the_curators_language(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    before = await audit_count(db)
    deep = ("- " + "[" * 50_000 + "]" * 50_000 + "\n").encode()

    answer = await curate(server, "import", {"file": ("deep.yml", deep)}, locale="zh-TW")

    shown = await answer.message()
    assert shown["content"].startswith("沒有匯入任何內容：**deep.yml** 的巢狀層級超過 64 層")
    assert shown["flags"] & EPHEMERAL
    assert await audit_count(db) == before


async def test_history_pages_turn_after_a_restart(
    server: LocalDiscord, db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    """The history's buttons are persistent (the components merge): a Laurel started again,
    with nothing in memory, turns the page a Laurel before it showed."""
    caplog.set_level(logging.WARNING)
    await curators_writes(db, server)
    async with laurel_on(server, db, settings_for(), clock=SystemClock()):
        first = await (await curate(server, "history")).message()
    following = next(i for i in _ids(first) if i.endswith(":n"))
    async with laurel_on(server, db, settings_for(), clock=SystemClock()):
        refused = await (await server.press(first, following, user_id=grace(server))).message()
        second = await (await server.press(first, following, user_id=ada(server))).message()
    footer = second["embeds"][0]["footer"]["text"]
    assert footer.startswith("Page 2 of ")
    assert second["embeds"][0]["description"] != first["embeds"][0]["description"]
    assert refused["flags"] & EPHEMERAL
    assert refused["content"] == "Only the curator who asked may use these buttons."
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


def _ids(message: dict[str, Any]) -> list[str]:
    return [str(c["custom_id"]) for row in message["components"] for c in row["components"]]
