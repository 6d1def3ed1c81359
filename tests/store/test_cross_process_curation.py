"""Curation across processes on PostgreSQL (issue 15): a curator's edit made by another process
is read at once by `/paper show`, and found by this process's search once its derived index
follows the database (every [search] follow_seconds, as bot/app.py schedules it) — not before.
The lag itself is measured by `python -m benchmarks.curation_lag`."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.interval import IntervalTrigger

from bot.domain.clock import SystemClock
from bot.domain.models import CatalogBatch, Venue
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.search.index import SearchIndex
from bot.store.search.store import store_of
from tests.support.awards import award, batch
from tests.support.backends import open_postgres

ROOT = Path(__file__).resolve().parents[2]
FOLLOW_SECONDS = 0.25
# Correctness, not speed: on a loaded two-core machine a catch-up may take a while.
BOUND_SECONDS = 10.0

# The other process: a curator renames the paper through the one way in, then says when.
CURATOR = """
import asyncio, json, sys, time
from bot.domain.clock import SystemClock
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from tests.support.backends import open_postgres

async def main(url, paper_id, title):
    async with await open_postgres(url) as db:
        stored = await PaperRepository(db).get(paper_id)
        edited = stored.paper.model_copy(update={"title": title})
        catalog = CatalogRepository(db, SystemClock())
        await catalog.replace_paper(paper_id, edited, actor="curator:7")
        print(json.dumps({"committed": time.time()}), flush=True)

asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
"""


async def curate_elsewhere(url: str, paper_id: int, title: str) -> float:
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CURATOR, url, str(paper_id), title,
        cwd=ROOT, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await asyncio.wait_for(child.communicate(), 120)
    assert child.returncode == 0, err.decode()
    committed: float = json.loads(out)["committed"]
    return committed


async def test_a_write_in_another_process_reaches_show_at_once_and_search_by_following(
    postgres_url: str,
) -> None:
    async with await open_postgres(postgres_url) as db:
        catalog = CatalogRepository(db, SystemClock())
        await catalog.apply(
            CatalogBatch(venues=(Venue(key="icml", name="ICML"),)), actor="t", policy="update"
        )
        await catalog.apply(batch(award("Attention Is All You Need")), actor="t", policy="update")
        (row,) = await db.fetchall("SELECT id FROM papers")
        paper_id = int(row[0])
        index = SearchIndex(store_of(db), None)
        await index.start()
        await index.wait_ready()
        papers = PaperRepository(db, None, index)
        scheduler = AsyncIOScheduler(timezone="UTC")
        try:
            title = "Attention Is All You Need Wombatically"
            committed = await curate_elsewhere(postgres_url, paper_id, title)

            stored = await papers.get(paper_id)  # the database itself: seen at once
            assert stored is not None
            assert stored.paper.title == title
            # This process was told nothing: its index knows the edit only by following.
            assert [p.id for p in await papers.search("wombatically")] == []

            scheduler.add_job(index.follow, IntervalTrigger(seconds=FOLLOW_SECONDS))
            scheduler.start()
            found: list[int] = []
            while not found and time.time() - committed < BOUND_SECONDS:
                await asyncio.sleep(0.02)
                found = [p.id for p in await papers.search("wombatically")]
            assert found == [paper_id], f"not found {BOUND_SECONDS} s after the commit"
            assert [p.id for p in await papers.search("attention")] == [paper_id]
        finally:
            scheduler.shutdown(wait=False)
            await index.catch_up()  # the follow under way, if one is
            await index.close()
