"""The author-name lint (issue 24): over every name of the bundled catalogue, and against the
datasets' own spellings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.catalog.bundled import load_bundled
from bot.domain import author_names
from bot.domain.models import AuthorsState, Paper

# Names the lint questions that the source publishes so, with where it was checked.
AS_PUBLISHED = {
    # ClimSim (NeurIPS 2023 D&B): the byline of OpenReview W5If9P1xqO as ai-bestpapers copies it.
    "YU HUANG": ["all capitals or all small letters"],
    # ICML 2022 ATAC: PMLR v162 cheng22b spells "Ching-An"; RSS 2023 keeps ai-bestpapers'.
    "Ching-An Cheng": ["spelt with other capitals too: ['Ching-an Cheng']"],
    "Ching-an Cheng": ["spelt with other capitals too: ['Ching-An Cheng']"],
}
# Names whose proceedings spell them with other capitals than ai-bestpapers does, with the page.
PROCEEDINGS_SPELLING = {
    "Ching-An Cheng": "https://proceedings.mlr.press/v162/cheng22b.html",
    # IROS 2015's aerial-aquatic robotic insect, as tools/bundle/papers/iros.toml read it with
    # IEEE Xplore record 7353394; ai-bestpapers writes "YuFeng" on its IROS rows.
    "Yufeng Chen": "https://ieeexplore.ieee.org/document/7353394/",
}


def test_the_lint_catches_the_defects_the_datasets_carried() -> None:
    found = author_names.lint(
        [
            ["Pedro Felzenszwalb. David McAllester", "Deva Ramanan"],
            ["Ziyu Wang", "Hado Hasselt", "Nando Freitas"],
            ["Hado van Hasselt", "Nando de Freitas"],
            ["Wen Zhang", "Di You Qun Liu"],
            ["Di You", "Qun Liu"],
            ["Aaron Van den Oord"],
            ["Aaron van den Oord", "Ana Smith and Bo Li"],
        ]
    )
    assert set(found) == {
        "Pedro Felzenszwalb. David McAllester",
        "Hado Hasselt",
        "Nando Freitas",
        "Di You Qun Liu",
        "Aaron Van den Oord",
        "Aaron van den Oord",
        "Ana Smith and Bo Li",
    }


def test_initials_and_suffixes_are_not_stray_full_stops() -> None:
    assert author_names.problems("Michael W. Mahoney") == []
    assert author_names.problems("J. David Neelin") == []
    assert author_names.problems("Martin Luther King Jr.") == []


def test_no_author_name_of_the_bundled_catalogue_fails_the_lint() -> None:
    bylines = [a.paper.authors for a in load_bundled().awards]
    assert author_names.lint(bylines) == AS_PUBLISHED


def _dataset_names(shared_dir: Path) -> set[str]:
    text = (shared_dir / "datasets" / "ai-bestpapers" / "papers.yml").read_text(encoding="utf-8")
    names: set[str] = set()
    for block in re.findall(r"author: (.*?)\n    (?:link|source|title|award)", text, re.S):
        joined = re.sub(r"\s*\n\s*", " ", block)
        names |= {n.strip() for n in re.split(r"[,·]", joined) if n.strip()}
    return names


def test_no_name_changes_case_against_its_source(shared_dir: Path) -> None:
    source = {n.casefold(): n for n in _dataset_names(shared_dir)}
    ours = {n for a in load_bundled().awards for n in a.paper.authors}
    changed = {
        n: source[n.casefold()]
        for n in ours
        if n.casefold() in source and n not in PROCEEDINGS_SPELLING
    }
    assert {n: s for n, s in changed.items() if n != s} == {}


@pytest.mark.parametrize(
    ("authors", "cut", "state"),
    [
        ((), False, AuthorsState.UNKNOWN),
        (("A B",), False, AuthorsState.COMPLETE),
        (("A B",), True, AuthorsState.CUT_SHORT),
    ],
)
def test_the_byline_tells_unknown_from_complete_from_cut_short(
    authors: tuple[str, ...], cut: bool, state: AuthorsState
) -> None:
    paper = Paper(title="T", authors=authors, authors_incomplete=cut)
    assert paper.authors_state is state


def test_nell_keeps_the_proceedings_order() -> None:
    # AAAI 2025 Classic Paper: the proceedings (ojs.aaai.org, article 7519) put Carlson first.
    nell = next(
        a.paper
        for a in load_bundled().awards
        if a.paper.title == "Toward an Architecture for Never-Ending Language Learning"
    )
    assert nell.authors[0] == "Andrew Carlson"
    assert nell.authors[-1] == "Tom Mitchell"
    assert nell.authors_state is AuthorsState.COMPLETE
