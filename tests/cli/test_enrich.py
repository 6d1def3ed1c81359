"""`laurel enrich` end to end: a real database, the import, and the arXiv stand-in."""

from __future__ import annotations

import itertools
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.catalog.arxiv.atom import parse_feed
from bot.catalog.arxiv.client import ArxivClient
from bot.catalog.arxiv.enrich import enrich, to_enrich
from bot.catalog.parts import CatalogParts
from bot.cli import build_parser
from bot.domain.clock import SystemClock
from bot.settings import ArxivSettings
from bot.store.catalog.enrichment import EnrichmentRepository
from laurel_console.localarxiv.server import LocalArxiv
from tests.support.backends import open_sqlite
from tests.support.clock import ManualClock
from tests.support.enrich_cli import (
    audit_rows,
    laurel,
    no_outside_settings,
    paper,
    settings_for,
    with_awards,
)

__all__ = ["no_outside_settings"]  # fixtures, from tests/support

# Papers whose arXiv ids the recordings hold, each lacking something else.
AWARDS = """
[[awards]]
venue = "icml"
year = 2025
name = "Outstanding Paper Award"
kind = "outstanding"
paper = { title = "Heat-bath random walks with Markov bases", arxiv = "1605.08386" }

[[awards]]
venue = "icml"
year = 2025
name = "Outstanding Paper Award"
kind = "outstanding"
paper = { title = "AEW10", arxiv = "1707.08567", authors = ["Kees A. Schouhamer Immink"] }

[[awards]]
venue = "icml"
year = 2025
name = "Outstanding Paper Award"
kind = "outstanding"

[awards.paper]
title = "Hot Jupiters"
arxiv = "astro-ph/0601001"
abstract = "Our own words."
links = { arxiv = "https://arxiv.org/abs/astro-ph/0601001" }

[[awards]]
venue = "neurips"
year = 2024
name = "Best Paper Award"
kind = "best"
paper = { title = "Testing Deep Learning Models", arxiv = "2202.12139v1" }
"""
RECORDED_IDS = {"1605.08386", "1707.08567", "astro-ph/0601001", "2202.12139"}


@pytest.fixture
def recordings(shared_dir: Path) -> Path:
    return shared_dir / "datasets" / "arxiv-api-responses"


@pytest.fixture
async def arxiv(recordings: Path) -> AsyncIterator[LocalArxiv]:
    async with LocalArxiv(recordings) as server:
        yield server


@pytest.fixture
async def db_path(template_db: Path, tmp_path: Path) -> Path:
    """The bundled catalogue plus four awards whose papers the recordings know."""
    return await with_awards(template_db, tmp_path, AWARDS)


async def test_enrich_fills_gaps_from_the_recorded_entries(
    arxiv: LocalArxiv, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_for(db_path, arxiv.url)
    before = await audit_rows(db_path)
    assert await laurel(settings, "enrich", "--batch", "10") == 0
    out = capsys.readouterr().out

    heat_bath = await paper(db_path, "1605.08386")
    assert heat_bath.authors == ("Caprice Stanley", "Tobias Windisch")
    assert heat_bath.abstract is not None
    assert heat_bath.abstract.startswith("Graphs on lattice points are studied")
    assert heat_bath.links.pdf == "https://arxiv.org/pdf/1605.08386"
    assert heat_bath.arxiv_version == 1
    assert heat_bath.sources[-1].document == "arXiv API"

    proceedings = await paper(db_path, "1707.08567")
    assert proceedings.authors == ("Kees A. Schouhamer Immink",)  # ours: fill never overrides
    assert proceedings.title == "AEW10"
    assert proceedings.abstract is not None

    jupiters = await paper(db_path, "astro-ph/0601001")
    assert jupiters.abstract == "Our own words."
    assert jupiters.links.pdf == "https://arxiv.org/pdf/astro-ph/0601001"

    testing = await paper(db_path, "2202.12139")
    assert testing.doi == "10.1109/icstw55395.2022.00035"
    assert testing.authors == ("Mohit Kumar Ahuja", "Arnaud Gotlieb", "Helge Spieker")

    added = (await audit_rows(db_path))[len(before) :]
    assert added == [("enrich", "merge", "paper")] * 4
    title, fields = "Heat-bath random walks with Markov bases", "abstract, authors, links.arxiv"
    assert f"filled  arXiv:1605.08386 “{title}”  [{fields}, links.pdf]" in out
    # The bundled papers' ids are not in the recordings: asked for, and reported missing.
    asked = [i for r in arxiv.requests for i in r.ids]
    assert set(asked) >= RECORDED_IDS
    assert all(len(r.ids) <= 10 for r in arxiv.requests)
    assert "not on arXiv" in out


async def test_a_second_run_changes_nothing_and_asks_nothing(
    arxiv: LocalArxiv, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_for(db_path, arxiv.url)
    assert await laurel(settings, "enrich") == 0
    out = capsys.readouterr().out
    assert "ids arXiv did not know and titles left unmatched are skipped from now on" in out
    first_requests = len(arxiv.requests)
    audit = await audit_rows(db_path)
    assert await laurel(settings, "enrich") == 0
    assert await audit_rows(db_path) == audit
    assert len(arxiv.requests) == first_requests  # complete, or known not to be on arXiv
    assert capsys.readouterr().out.startswith("0 papers to complete from arXiv")


async def test_retry_missing_asks_again_for_what_arxiv_did_not_know(
    arxiv: LocalArxiv, db_path: Path
) -> None:
    settings = settings_for(db_path, arxiv.url)
    assert await laurel(settings, "enrich") == 0
    unknown = {i for r in arxiv.requests for i in r.ids} - RECORDED_IDS
    assert unknown
    arxiv.requests.clear()
    assert await laurel(settings, "enrich", "--retry-missing") == 0
    assert {i for r in arxiv.requests for i in r.ids} == unknown


async def test_a_dry_run_writes_nothing_and_says_what_it_would_fill(
    arxiv: LocalArxiv, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_for(db_path, arxiv.url)
    audit = await audit_rows(db_path)
    async with await open_sqlite(db_path, create=False) as db:
        waiting = len(await to_enrich(CatalogParts.over(db, SystemClock())))
    assert await laurel(settings, "enrich", "--dry-run") == 0
    out = capsys.readouterr().out
    fields = "[abstract, authors, doi, links.arxiv, links.pdf]"
    assert f"would fill  arXiv:2202.12139 “Testing Deep Learning Models”  {fields}" in out
    assert "dry run: nothing was written" in out
    assert await audit_rows(db_path) == audit
    async with await open_sqlite(db_path, create=False) as db:
        again = await to_enrich(CatalogParts.over(db, SystemClock()))
        assert len(again) == waiting  # nor does it remember what arXiv lacked
    assert (await paper(db_path, "2202.12139")).abstract is None


async def test_an_interrupted_run_resumes_where_it_stopped(
    arxiv: LocalArxiv, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_for(db_path, arxiv.url, retries=1)
    async with await open_sqlite(db_path, create=False) as db:
        todo = [i.paper.arxiv for i in await EnrichmentRepository(db).incomplete()]
    arxiv.faults.answer(1)
    arxiv.faults.fail(2, status=503)  # the second batch fails, and so does its one retry
    assert await laurel(settings, "enrich", "--batch", "5") == 1
    err = capsys.readouterr().err
    assert "arXiv is not answering right now (HTTP 503, after 2 tries)" in err
    assert "run `laurel enrich` again" in err
    first = [i for r in arxiv.requests if r.status == 200 for i in r.ids]
    assert first == todo[:5]

    arxiv.requests.clear()
    assert await laurel(settings, "enrich", "--batch", "5") == 0
    again = [i for r in arxiv.requests for i in r.ids]
    assert again == todo[5:]  # only what the first run did not do
    assert (await paper(db_path, "2202.12139")).abstract is not None


async def test_limit_and_an_invalid_batch(
    arxiv: LocalArxiv, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await laurel(settings_for(db_path, arxiv.url), "enrich", "--limit", "3") == 0
    assert [len(r.ids) for r in arxiv.requests] == [3]
    assert capsys.readouterr().out.startswith("3 papers to complete from arXiv: 1 request")
    with pytest.raises(SystemExit):
        build_parser().parse_args(["enrich", "--batch", "0"])


async def test_batches_go_one_request_every_three_seconds(recordings: Path, db_path: Path) -> None:
    clock = ManualClock()
    async with (
        LocalArxiv(recordings, clock=clock.monotonic) as server,
        aiohttp.ClientSession() as http,
    ):
        client = ArxivClient(http, ArxivSettings(base_url=server.url), clock=clock)
        async with await open_sqlite(db_path, create=False) as db:
            parts = CatalogParts.over(db, clock)
            report = await enrich(parts, client, await to_enrich(parts), batch=4)
    times = [r.at for r in server.requests]
    assert len(times) == -(-report.considered // 4) > 2
    assert {b - a for a, b in itertools.pairwise(times)} == {3.0}
    assert {f.arxiv for f in report.filled} == RECORDED_IDS


async def test_the_ai_bestpapers_import_gets_abstracts(
    shared_dir: Path, recordings: Path, template_db: Path, tmp_path: Path
) -> None:
    """The 574 imported awards, against a stand-in that makes up what it has no record of."""
    path = tmp_path / "laurel.db"
    shutil.copyfile(template_db, path)
    async with LocalArxiv(recordings, synthesize=True) as server:
        settings = settings_for(path, server.url)
        papers_yml = shared_dir / "datasets" / "ai-bestpapers" / "papers.yml"
        assert await laurel(settings, "import", str(papers_yml)) == 0
        async with await open_sqlite(path, create=False) as db:
            todo = await EnrichmentRepository(db).count_incomplete()
        assert todo > 200
        assert await laurel(settings, "enrich") == 0
        assert len([r for r in server.requests if r.ids]) == -(-todo // 100)
        async with await open_sqlite(path, create=False) as db:
            # Left: author lists a source cut short, which the made-up entries of the stand-in
            # do not extend (same people, same order), so they stay marked and are not replaced.
            cut_short = await db.fetchone(
                "SELECT count(*) FROM live_papers WHERE arxiv IS NOT NULL AND authors_incomplete"
            )
            assert cut_short is not None
            assert await EnrichmentRepository(db).count_incomplete() == cut_short[0]
            row = await db.fetchone(
                "SELECT count(*) FROM papers WHERE arxiv IS NOT NULL AND abstract IS NULL"
            )
            assert row is not None
            assert row[0] == 0
        server.requests.clear()
        assert await laurel(settings, "enrich") == 0
        assert server.requests == []


async def test_a_doi_another_paper_holds_is_left_out_and_reported(
    arxiv: LocalArxiv, db_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_for(db_path, arxiv.url)
    holder = tmp_path / "holder.toml"
    holder.write_text(
        """
[[awards]]
venue = "icml"
year = 2024
name = "Best Paper Award"
kind = "best"
paper = { title = "Another Paper", doi = "10.1109/ICSTW55395.2022.00035" }
""",
        encoding="utf-8",
    )
    assert await laurel(settings, "import", str(holder)) == 0
    capsys.readouterr()
    assert await laurel(settings, "enrich") == 0
    out = capsys.readouterr().out
    testing = await paper(db_path, "2202.12139")
    assert testing.doi is None
    assert testing.abstract is not None
    assert testing.sources[-1].covers == ("abstract", "authors", "links.arxiv", "links.pdf")
    filled = "[abstract, authors, links.arxiv, links.pdf]"
    assert f"filled  arXiv:2202.12139 “Testing Deep Learning Models”  {filled}" in out
    assert "reject  award neurips 2024 “Testing Deep Learning Models”" in out
    assert "is paper #" in out


def test_laurel_localarxiv_serves_the_recordings(recordings: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "bot", "localarxiv", "--recordings", str(recordings)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=tmp_path) as process:
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert line.startswith("localarxiv: serving 104 recorded entries at http://127.0.0.1:")
            url = line.split(" at ", 1)[1].strip()
            with urllib.request.urlopen(f"{url}?id_list=1605.08386") as reply:
                feed = parse_feed(reply.read())
            assert feed.entries[0].title == "Heat-bath random walks with Markov bases"
        finally:
            process.terminate()
