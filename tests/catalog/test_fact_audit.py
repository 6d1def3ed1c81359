"""The held-out fact check of December 2026 (issue 24, docs/fact-audit-2026-12.md).

Forty awards drawn with a fixed seed from a fresh database were read against the venues' pages,
the proceedings and the authors' pages. Each fact found wrong is fixed at its root (the converter's
corrections, the per-paper facts files, the converter's links) and pinned here on the bundled
documents, so a re-run of the converter cannot bring it back. Each test fails on the catalogue as
it stood before the check (main at 84a309f)."""

from __future__ import annotations

import re

import pytest

from bot.catalog.bundled import documents
from bot.catalog.document import read_document
from bot.domain.models import Award, Paper


@pytest.fixture(scope="module")
def awards() -> list[Award]:
    out: list[Award] = []
    for name, text in documents():
        if name.startswith(("awards/", "20")):
            out += read_document(text, name).awards
    return out


def _paper(awards: list[Award], venue: str, year: int, title: str) -> Paper:
    found = [
        a.paper for a in awards if (a.venue, a.year) == (venue, year) and a.paper.title == title
    ]
    assert found, f"{venue} {year} “{title}” is not in the catalogue"
    return found[0]


def test_the_corl_2022_best_paper_title_is_spaced_as_published(awards: list[Award]) -> None:
    titles = {a.paper.title for a in awards if (a.venue, a.year) == ("corl", 2022)}
    assert not {t for t in titles if "BasedInteractive" in t}
    paper = _paper(
        awards,
        "corl",
        2022,
        "Training Robots to Evaluate Robots: Example-Based Interactive Reward Functions for "
        "Policy Learning",
    )
    assert paper.arxiv == "2212.08961"


def test_the_iccv_2011_marr_prize_byline_has_full_names(awards: list[Award]) -> None:
    paper = _paper(awards, "iccv", 2011, "Relative Attributes")
    assert paper.authors == ("Devi Parikh", "Kristen Grauman")
    assert any(a.field == "authors" for a in paper.alternatives)


def test_institutions_carry_no_footnote_marks_or_bare_numbers(awards: list[Award]) -> None:
    naacl = _paper(
        awards,
        "naacl",
        2024,
        "Understanding the Capabilities and Limitations of Large Language Models for Cultural "
        "Commonsense",
    )
    assert naacl.affiliations == (
        "University of Michigan",
        "LG AI Research",
        "University of Illinois at Chicago",
        "Singapore University of Technology and Design",
    )
    odd = {
        name
        for award in awards
        for name in award.paper.affiliations
        if re.fullmatch(r"[\d\s+()-]+", name) or re.search(r"[a-z]{3}\d$", name)
    }
    assert odd == set()


def test_the_acl_2024_unpublished_best_paper_has_its_arxiv_record(awards: list[Award]) -> None:
    paper = _paper(awards, "acl", 2024, "Natural Language Satisfiability")
    assert paper.arxiv == "2508.17153"
