"""The ranking benchmark's judged sets (benchmarks/judged/search*.toml) name papers by exact
title: a catalogue change that renames or drops one of them would stop the benchmark. Checked
here over the bundled catalogue, so that the change that breaks a set is the one that fails."""

from __future__ import annotations

import asyncio
import tomllib
from collections import defaultdict
from pathlib import Path

import pytest

from benchmarks.ranking import KINDS, SETS, load_judged
from benchmarks.similar import SETS as SIMILAR_SETS
from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.domain.clock import SystemClock
from tests.support.backends import open_sqlite


@pytest.fixture(scope="module")
def titles(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[int]]:
    async def read() -> dict[str, list[int]]:
        path = tmp_path_factory.mktemp("judged") / "laurel.db"
        async with await open_sqlite(path) as db:
            await load_bundled_into(CatalogParts.over(db, SystemClock()))
            found: dict[str, list[int]] = defaultdict(list)
            for row in await db.fetchall("SELECT id, title FROM live_papers"):
                found[row["title"]].append(int(row["id"]))
            return found

    return asyncio.run(read())


@pytest.mark.parametrize("judged", SETS, ids=[p.name for p in SETS])
def test_every_paper_a_judged_set_means_is_in_the_bundled_catalogue(
    judged: Path, titles: dict[str, list[int]]
) -> None:
    cases = load_judged(titles, judged)  # stops, naming the title, when one is missing
    assert cases, judged.name
    assert all(case.meant for case in cases)
    assert {case.kind for case in cases} <= set(KINDS)
    assert len({case.query for case in cases}) == len(cases), "a query judged twice"


def test_an_unknown_title_stops_the_benchmark_naming_it(tmp_path: Path) -> None:
    judged = tmp_path / "set.toml"
    judged.write_text('[[queries]]\nkind = "title"\nquery = "x"\npapers = ["No Such Paper"]\n')
    with pytest.raises(SystemExit, match="no paper titled 'No Such Paper'"):
        load_judged({"Another Paper": [1]}, judged)


@pytest.mark.parametrize("judged", SIMILAR_SETS, ids=[p.name for p in SIMILAR_SETS])
def test_every_paper_a_similar_set_judges_is_in_the_bundled_catalogue(
    judged: Path, titles: dict[str, list[int]]
) -> None:
    # benchmarks/similar.py leaves out a title the catalogue no longer holds (a correction
    # dropped ICLR 2020's awards): the sets name none other, and no paper is judged
    # both related and unrelated to one paper.
    dropped = {
        "On Identifiability in Transformers",
        "Plug and Play Language Models: A Simple Approach to Controlled Text Generation",
        "Your Classifier is Secretly an Energy Based Model and You Should Treat it Like One",
    }
    papers = tomllib.loads(judged.read_text(encoding="utf-8"))["papers"]
    assert papers
    for entry in papers:
        assert entry["title"] in titles
        related, unrelated = set(entry["related"]), set(entry["unrelated"])
        assert not related & unrelated, entry["title"]
        assert entry["title"] not in related | unrelated
        assert (related | unrelated) - set(titles) <= dropped, entry["title"]
