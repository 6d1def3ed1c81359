"""/curate on the stand-in: the curator bot, its settings, the curators (ada owns the
application, grace does not), the form, and what a curation left in the database."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.settings import ArxivSettings, CurationSettings, Settings
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.sql import Connection
from laurel_console.harness import laurel_on
from laurel_console.localarxiv.server import LocalArxiv
from laurel_console.localdiscord.interactions import Interaction
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.awards import award, batch
from tests.support.interactions import EPHEMERAL

MASKED_ARXIV = "2502.06768"  # in the bundled catalogue (ICML 2025)
FORM = {
    "title": "Curated Attention Is Enough",
    "authors": "Ada Lovelace\nGrace Hopper",
    "doi": "10.5555/Curated.2025",
    "links": "code https://example.org/code",
    "abstract": "We curate.",
}


@pytest.fixture
async def arxiv(shared_dir: Path) -> AsyncIterator[LocalArxiv]:
    async with LocalArxiv(shared_dir / "datasets" / "arxiv-api-responses") as local:
        yield local


def settings_for(arxiv_url: str = "http://127.0.0.1:9/api/query", **curation: Any) -> Settings:
    return Settings(
        arxiv=ArxivSettings(base_url=arxiv_url, min_interval_seconds=0, retries=0),
        curation=CurationSettings(**curation),
    )


@pytest.fixture
async def curator_bot(
    server: LocalDiscord, db: Database, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[LaurelBot]:
    caplog.set_level(logging.WARNING)
    async with laurel_on(server, db, settings_for(), clock=SystemClock()) as bot:
        yield bot
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == [], "the bot logged errors"


def ada(server: LocalDiscord) -> int:
    """The guild's owner, who owns the application too: a curator without any setting."""
    return server.world.find_user("ada").id


def grace(server: LocalDiscord) -> int:
    return server.world.find_user("grace").id


async def curate(
    server: LocalDiscord, subcommand: str, options: Mapping[str, object] | None = None, **kw: Any
) -> Interaction:
    kw.setdefault("user_id", ada(server))
    return await server.slash("curate", options or {}, subcommand=subcommand, **kw)


def button(message: dict[str, Any], prefix: str) -> str:
    ids = [c["custom_id"] for row in message["components"] for c in row["components"]]
    (found,) = [str(i) for i in ids if str(i).startswith(prefix)]
    return found


async def audit_count(db: Database) -> int:
    row = await db.fetchone("SELECT count(*) FROM audit")
    assert row is not None
    return int(row[0])


async def paper_row(db: Database, paper_id: int) -> dict[str, Any]:
    """Everything stored of one paper: its row, author and affiliation rows, search row."""

    def read(conn: Connection) -> dict[str, Any]:
        row = dict(conn.execute("SELECT * FROM papers WHERE id = ?", (paper_id,)).fetchone())
        for table in ("paper_authors", "paper_affiliations"):
            row[table] = conn.execute(
                f"SELECT position, name FROM {table} WHERE paper_id = ? ORDER BY position",
                (paper_id,),
            ).fetchall()
        row["search"] = conn.execute(
            "SELECT * FROM paper_search WHERE rowid = ?", (paper_id,)
        ).fetchall()
        return row

    return await db.snapshot(read)


async def add_by_form(server: LocalDiscord, db: Database, form: dict[str, str]) -> int:
    """/curate paper add without arXiv, the form filled in, confirmed; the new paper's id."""
    opened = await curate(
        server, "paper add", {"venue": "ICML", "year": 2025, "award": "best", "track": "Main"}
    )
    await opened.response()
    assert opened.modal is not None
    preview = await (await server.submit(opened, form)).message()
    assert preview["flags"] & EPHEMERAL
    assert preview["embeds"][0]["title"] == form["title"]
    done = await server.press(preview, button(preview, "curate:confirm"), user_id=ada(server))
    assert (await done.message())["embeds"][0]["title"] == "Added"
    row = await db.fetchone("SELECT id FROM papers WHERE title = ?", (form["title"],))
    assert row is not None
    return int(row["id"])


NEW_AWARDS = """
[[awards]]
venue = "iclr"
year = 2025
name = "Outstanding Paper Award"
kind = "outstanding"
[awards.paper]
title = "An Imported Paper About Curation"
arxiv = "2501.00001"
authors = ["Ada Lovelace"]

[[awards]]
venue = "iclr"
year = 2025
name = "Outstanding Paper Award"
kind = "outstanding"
[awards.paper]
title = "A Record With A Bad Link"
links = { code = "javascript:alert(1)" }
"""


async def stored_paper_id(db: Database, arxiv: str) -> int:
    row = await db.fetchone("SELECT id FROM papers WHERE arxiv = ?", (arxiv,))
    assert row is not None
    return int(row["id"])


async def curators_writes(db: Database, server: LocalDiscord, count: int = 6) -> None:
    """`count` writes by the curator ada: with the bundled load (one line), more than a page."""
    for n in range(count):
        await CatalogRepository(db, SystemClock()).apply(
            batch(award(f"Curated Paper Number {n}")), actor=f"discord:{ada(server)}",
            policy="update",
        )  # fmt: skip
