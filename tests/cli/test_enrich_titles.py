"""`laurel enrich` for papers without an arXiv id: found by exact title on the arXiv stand-in."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.catalog.arxiv.enrich import to_enrich
from bot.catalog.parts import CatalogParts
from bot.domain.clock import SystemClock
from bot.store.catalog.papers import PaperRepository
from laurel_console.localarxiv.recordings import entries_of, load
from laurel_console.localarxiv.server import LocalArxiv
from tests.support.backends import open_sqlite
from tests.support.enrich_cli import (
    audit_rows,
    laurel,
    no_outside_settings,
    settings_for,
    with_awards,
)

__all__ = ["no_outside_settings"]  # the autouse fixture, shared

AWARDS = """
[[awards]]
venue = "neurips"
year = 2024
name = "Best Paper Award"
kind = "best"
paper = { title = "Towards explainable test-case prioritisation with learning to rank models" }

[[awards]]
venue = "icml"
year = 2025
name = "Outstanding Paper Award"
kind = "outstanding"
paper = { title = "Active Fuzzing for Testing and Securing Cyber-Physical Systems" }

[[awards]]
venue = "icml"
year = 2025
name = "Outstanding Paper Award"
kind = "outstanding"
paper = { title = "Property-Based Mutation Testing", year = 2023 }

[[awards]]
venue = "icml"
year = 2025
name = "Outstanding Paper Award"
kind = "outstanding"
paper = { title = "Heat-bath random walks with Markov bases", arxiv = "1605.08386" }

[[awards]]
venue = "neurips"
year = 2024
name = "Best Paper Award"
kind = "best"
paper = { title = "Heat-bath random walks with Markov bases", year = 2016 }
"""
EXPLAINABLE = "Towards explainable test-case prioritisation with learning to rank models"


@pytest.fixture
def recordings(shared_dir: Path, tmp_path: Path) -> Path:
    """The recorded replies, plus one more paper titled as a recorded one (another id)."""
    folder = tmp_path / "recordings"
    shutil.copytree(shared_dir / "datasets" / "arxiv-api-responses", folder)
    original = entries_of(load(folder))["2301.13615"].xml
    twin = original.replace("2301.13615", "2302.99999")
    body = f'<feed xmlns="http://www.w3.org/2005/Atom">{twin}</feed>'
    url = "https://export.arxiv.org/api/query?search_query=&id_list=2302.99999"
    (folder / "twin.json").write_text(
        json.dumps({"url": url, "status_code": 200, "body": body}), encoding="utf-8"
    )
    return folder


@pytest.fixture
async def arxiv(recordings: Path) -> AsyncIterator[LocalArxiv]:
    async with LocalArxiv(recordings) as server:
        yield server


@pytest.fixture
async def db_path(template_db: Path, tmp_path: Path) -> Path:
    return await with_awards(template_db, tmp_path, AWARDS)


async def test_papers_without_an_id_get_one_by_exact_title_and_are_filled(
    arxiv: LocalArxiv, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_for(db_path, arxiv.url)
    before = await audit_rows(db_path)
    assert await laurel(settings, "enrich") == 0
    out = capsys.readouterr().out

    async with await open_sqlite(db_path, create=False) as db:
        found = await PaperRepository(db).by_arxiv("2405.13786")
    assert found is not None
    paper = found.paper
    assert paper.title == EXPLAINABLE  # ours is kept: it is how the venue wrote it
    assert paper.abstract is not None
    assert paper.abstract.startswith("Test case prioritisation (TCP) is a critical task")
    assert paper.authors[0] == "Aurora Ramírez"
    assert paper.links.arxiv == "https://arxiv.org/abs/2405.13786"
    assert paper.sources[-1].document == "arXiv API"
    assert paper.sources[-1].covers[:2] == ("arxiv", "abstract")

    # The id lookups, then one title a request (the twin's id is never given to anyone).
    titles = [r.search_query for r in arxiv.requests if r.search_query]
    assert f'ti:"{EXPLAINABLE.replace("-", " ")}"' in titles
    assert all(not r.ids for r in arxiv.requests if r.search_query)
    assert f"filled  arXiv:2405.13786 “{EXPLAINABLE[:70]}”  [arxiv, abstract, authors" in out
    assert (
        "ambiguous title  “Property-Based Mutation Testing”: arXiv:2301.13615, arXiv:2302.99999"
        in out
    )
    # Published in 2020: not the preprint of a paper first seen at a 2025 venue.
    assert "no title match  “Active Fuzzing for Testing and Securing Cyber-Physical Systems”" in out
    assert (
        "title match held by another paper  “Heat-bath random walks with Markov bases”: "
        "arXiv:1605.08386 is paper #" in out
    )
    summary = re.search(
        r"(\d+) papers without an arXiv id looked up by title: 1 ids found, 1 ambiguous, "
        r"(\d+) not found, 1 already another paper's",
        out,
    )
    assert summary is not None
    assert int(summary[1]) == len(titles) == int(summary[2]) + 3
    assert re.search(r"^(\d+) abstracts filled$", out, re.MULTILINE)

    added = [row for row in (await audit_rows(db_path))[len(before) :] if row[0] == "enrich"]
    assert ("enrich", "merge", "paper") in added
    async with await open_sqlite(db_path, create=False) as db:
        papers = PaperRepository(db)
        assert await papers.by_arxiv("2302.99999") is None
        assert await papers.by_arxiv("2301.13615") is None
        assert await papers.by_arxiv("2005.14124") is None


async def test_titles_left_unmatched_are_not_asked_again_unless_told(
    arxiv: LocalArxiv, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_for(db_path, arxiv.url)
    assert await laurel(settings, "enrich") == 0
    asked = {r.search_query for r in arxiv.requests if r.search_query}
    arxiv.requests.clear()
    capsys.readouterr()
    assert await laurel(settings, "enrich") == 0
    assert arxiv.requests == []
    assert capsys.readouterr().out.startswith("0 papers to complete from arXiv")
    assert await laurel(settings, "enrich", "--retry-missing") == 0
    again = {r.search_query for r in arxiv.requests if r.search_query}
    assert again == asked - {f'ti:"{EXPLAINABLE.replace("-", " ")}"'}  # that one has its id


async def test_a_dry_run_finds_by_title_and_writes_nothing(
    arxiv: LocalArxiv, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_for(db_path, arxiv.url)
    audit = await audit_rows(db_path)
    assert await laurel(settings, "enrich", "--dry-run") == 0
    out = capsys.readouterr().out
    assert f"would fill  arXiv:2405.13786 “{EXPLAINABLE[:70]}”  [arxiv, abstract" in out
    assert "abstracts to fill" in out
    assert await audit_rows(db_path) == audit
    arxiv.requests.clear()
    assert await laurel(settings, "enrich", "--dry-run") == 0  # nor does it remember misses
    assert any(r.search_query for r in arxiv.requests)


async def test_an_arxiv_failure_during_title_lookups_keeps_what_was_found(
    arxiv: LocalArxiv, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = settings_for(db_path, arxiv.url, retries=0)
    async with await open_sqlite(db_path, create=False) as db:
        batches = -(-len(await to_enrich(CatalogParts.over(db, SystemClock()))) // 100)
    arxiv.faults.answer(batches + 1)  # the id batches and the first title, then a failure
    arxiv.faults.fail(1, status=503)
    assert await laurel(settings, "enrich") == 1
    err = capsys.readouterr().err
    assert "arXiv is not answering right now (HTTP 503, after 1 tries)" in err
    assert [(bool(r.ids), r.status) for r in arxiv.requests] == [
        *[(True, 200)] * batches,
        (False, 200),
        (False, 503),
    ]
    # The first title looked up was in vain: remembered; the rest are asked next time.
    arxiv.requests.clear()
    assert await laurel(settings, "enrich") == 0
    asked = [r.search_query for r in arxiv.requests]
    assert all(asked)
    assert len(asked) > 1
    async with await open_sqlite(db_path, create=False) as db:
        assert await PaperRepository(db).by_arxiv("2405.13786") is not None
