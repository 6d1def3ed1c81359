"""`laurel enrich` completes author lists a source cut short ("et al.", 「等」), and only those."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from laurel_console.localarxiv.server import LocalArxiv
from tests.support.enrich_cli import (
    audit_rows,
    laurel,
    no_outside_settings,
    paper,
    settings_for,
    with_awards,
)

__all__ = ["no_outside_settings"]

AWARDS = """
[[awards]]
venue = "icml"
year = 2025
name = "Outstanding Paper Award"
kind = "outstanding"
[awards.paper]
title = "Heat-bath random walks with Markov bases"
arxiv = "1605.08386"
authors = ["C. Stanley"]
authors_incomplete = true
abstract = "Ours."

[[awards]]
venue = "icml"
year = 2025
name = "Outstanding Paper Award"
kind = "outstanding"
[awards.paper]
title = "Property-Based Mutation Testing"
arxiv = "2301.13615"
authors = ["Someone Else"]
authors_incomplete = true

[[awards]]
venue = "icml"
year = 2025
name = "Outstanding Paper Award"
kind = "outstanding"
[awards.paper]
title = "Towards Explainable Test Case Prioritisation with Learning-to-Rank Models"
authors = ["Aurora Ramírez"]
authors_incomplete = true
year = 2024
"""


@pytest.fixture
async def arxiv(shared_dir: Path) -> AsyncIterator[LocalArxiv]:
    async with LocalArxiv(shared_dir / "datasets" / "arxiv-api-responses") as server:
        yield server


@pytest.fixture
async def db_path(template_db: Path, tmp_path: Path) -> Path:
    return await with_awards(template_db, tmp_path, AWARDS)


async def test_a_cut_short_list_that_arxiv_extends_is_completed(
    arxiv: LocalArxiv, db_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = await audit_rows(db_path)
    assert await laurel(settings_for(db_path, arxiv.url), "enrich") == 0
    out = capsys.readouterr().out

    heat_bath = await paper(db_path, "1605.08386")
    assert heat_bath.authors == ("Caprice Stanley", "Tobias Windisch")
    assert not heat_bath.authors_incomplete
    assert heat_bath.abstract == "Ours."  # the update takes only what it completes
    assert heat_bath.alternatives == ()
    assert heat_bath.sources[-1].covers == ("authors", "links.arxiv", "links.pdf")
    assert "filled  arXiv:1605.08386 “Heat-bath random walks with Markov bases”  [authors" in out

    # Found by title, with its list completed in the same run.
    explainable = await paper(db_path, "2405.13786")
    assert explainable.authors[0] == "Aurora Ramírez"
    assert len(explainable.authors) > 1
    assert not explainable.authors_incomplete

    # arXiv's list does not begin with ours: not the same people, so ours stays, marked.
    mutation = await paper(db_path, "2301.13615")
    assert mutation.authors == ("Someone Else",)
    assert mutation.authors_incomplete
    assert mutation.abstract is not None  # what it lacked is still filled

    added = (await audit_rows(db_path))[len(before) :]
    assert ("enrich", "merge", "paper") in added


async def test_a_dry_run_completes_nothing(arxiv: LocalArxiv, db_path: Path) -> None:
    assert await laurel(settings_for(db_path, arxiv.url), "enrich", "--dry-run") == 0
    heat_bath = await paper(db_path, "1605.08386")
    assert heat_bath.authors == ("C. Stanley",)
    assert heat_bath.authors_incomplete
