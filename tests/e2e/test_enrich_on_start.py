"""`[arxiv] enrich_on_start`: a starting bot fills papers from arXiv in the background, and
stops cleanly when it closes. (The arXiv stand-in serves the recorded replies.)"""

from __future__ import annotations

import asyncio
import datetime as dt
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.catalog.arxiv.titles import UNRESOLVED
from bot.domain.clock import SystemClock
from bot.domain.models import Award, AwardKind, CatalogBatch, Paper
from bot.settings import Settings
from bot.store.bot_state import BotStateRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localarxiv.server import LocalArxiv
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.clock import ManualClock


@pytest.fixture
async def arxiv(shared_dir: Path) -> AsyncIterator[LocalArxiv]:
    async with LocalArxiv(shared_dir / "datasets" / "arxiv-api-responses") as server:
        yield server


def settings_for(arxiv: LocalArxiv, **options: object) -> Settings:
    return Settings.model_validate(
        {
            "backups": {"enabled": False},
            "arxiv": {"base_url": arxiv.url, "enrich_on_start": True, **options},
        }
    )


async def add_papers(db: Database) -> None:
    def award(paper: Paper) -> Award:
        return Award(
            venue="icml",
            year=2025,
            name="Outstanding Paper",
            kind=AwardKind.OUTSTANDING,
            paper=paper,
        )

    batch = CatalogBatch(
        awards=(
            award(Paper(title="Heat-bath random walks with Markov bases", arxiv="1605.08386")),
            award(Paper(title="Property-Based Mutation Testing", year=2023)),
        )
    )
    await CatalogRepository(db, SystemClock()).apply(batch, actor="test", policy="fill")


async def test_a_starting_bot_fills_papers_by_id_and_by_title(
    server: LocalDiscord, db: Database, arxiv: LocalArxiv
) -> None:
    await add_papers(db)
    async with laurel_on(
        server, db, settings_for(arxiv, min_interval_seconds=0), clock=SystemClock()
    ) as bot:
        assert bot.enrich_task is not None
        await asyncio.wait_for(bot.enrich_task, 120)
    papers = PaperRepository(db)
    heat_bath = await papers.by_arxiv("1605.08386")
    assert heat_bath is not None
    assert heat_bath.paper.abstract is not None
    mutation = await papers.by_arxiv("2301.13615")  # found by its title
    assert mutation is not None
    assert mutation.paper.authors[0] == "Ezio Bartocci"
    rows = await db.fetchall("SELECT DISTINCT actor FROM audit WHERE actor = 'enrich'")
    assert len(rows) == 1
    # Ids first, many a request; then one title a request.
    kinds = ["ids" if r.ids else "title" for r in arxiv.requests]
    assert kinds[0] == "ids"
    assert kinds == sorted(kinds)  # no id request after the first title one
    titles = [r.search_query for r in arxiv.requests if not r.ids]
    assert all(q.startswith('ti:"') for q in titles)
    assert 'ti:"Property Based Mutation Testing"' in titles
    # What it could not find is remembered: the next start asks only about what is new.
    assert await BotStateRepository(db).get(UNRESOLVED)


async def test_the_enrich_task_stamps_its_audit_rows_with_the_bots_clock(
    server: LocalDiscord, db: Database, arxiv: LocalArxiv
) -> None:
    """The background run writes through the bot's own catalogue writer (issue 26): its audit
    rows carry the clock the bot was handed, never the wall clock."""
    await add_papers(db)
    clock = ManualClock(dt.datetime(2031, 5, 17, 8, 30, tzinfo=dt.UTC))
    settings = settings_for(arxiv, min_interval_seconds=0)
    async with laurel_on(server, db, settings, clock=clock) as bot:
        assert bot.enrich_task is not None
        await asyncio.wait_for(bot.enrich_task, 120)
    rows = await db.fetchall("SELECT DISTINCT at FROM audit WHERE actor = 'enrich'")
    assert [r[0] for r in rows] == ["2031-05-17T08:30:00+00:00"]


async def test_closing_the_bot_stops_a_run_waiting_on_arxiv(
    server: LocalDiscord, db: Database, arxiv: LocalArxiv
) -> None:
    arxiv.faults.delay(1, seconds=60)  # the first request hangs
    async with laurel_on(server, db, settings_for(arxiv), clock=SystemClock()) as bot:
        task = bot.enrich_task
        assert task is not None
        for _ in range(500):  # the stand-in has no event for a request arriving
            if arxiv.requests:
                break
            await asyncio.sleep(0.01)
        assert arxiv.requests
        started = time.monotonic()
    assert time.monotonic() - started < 5
    assert task.cancelled()
    assert await db.fetchall("SELECT 1 FROM audit WHERE actor = 'enrich'") == []


async def test_it_is_off_unless_configured(server: LocalDiscord, db: Database) -> None:
    async with laurel_on(server, db, clock=SystemClock()) as bot:
        assert bot.enrich_task is None


async def test_arxiv_down_is_a_warning_and_the_bot_serves_on(
    server: LocalDiscord,
    db: Database,
    arxiv: LocalArxiv,
    caplog: pytest.LogCaptureFixture,
) -> None:
    arxiv.faults.fail(1, status=503)
    settings = settings_for(arxiv, min_interval_seconds=0, retries=0)
    async with laurel_on(server, db, settings, clock=SystemClock()) as bot:
        assert bot.enrich_task is not None
        await asyncio.wait_for(bot.enrich_task, 120)
        assert bot.enrich_task.exception() is None
        about = await server.slash("about", {})
        assert (await about.message())["embeds"]
    warnings = [r.getMessage() for r in caplog.records if r.name == "bot.catalog.arxiv.enrich_job"]
    assert any("arXiv stopped answering" in m for m in warnings)
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
