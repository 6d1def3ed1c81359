"""Bylines and institutions as published (issue 24): names in full where the proceedings or the
authors give them, whole author lists, one institution listed once."""

from __future__ import annotations

import re

from bot.catalog.bundled import load_bundled
from bot.domain.institutions import Institution, load_institutions, name_key
from bot.domain.models import Paper

# Initials before a one-word surname ("S. Lazebnik", "T.-Y. Lin"): a name the datasets shortened.
_INITIALS_ONLY = re.compile(r"^(?:[A-Z]\.(?:-?[A-Z]\.)*\s?)+[A-Z][\w'’-]+$")

# Names short by the person's own usage (as the datasets give them; the issue-24 brief names them
# published forms). Not re-read against the proceedings in this session.
PUBLISHED_FORM = {"X.Y. Han", "J.K. Aggarwal"}
# Bylines still in initials because no acceptable page giving the names in full was found; the
# searches made are listed in the issue-24 report of helper "by" (2026-12-02). A name leaving this
# list is progress; a name joining it is a regression.
NOT_YET_SOURCED = {
    # ECCV 2012 "Segmentation Propagation in ImageNet"
    "D. Kuettel",
    "M. Guillaumin",
    "V. Ferrari",
    # ECCV 2014 "Large-Scale Object Classification using Label Relation Graphs"
    "J. Deng",
    "N. Ding",
    "Y. Jia",
    "A. Frome",
    "K. Murphy",
    "S. Bengio",
    "Y. Li",
    "H. Neven",
    "H. Adam",
    # ECCV 2016 "Real-Time 3D Reconstruction and 6-DoF Tracking with an Event Camera"
    "H. Kim",
    "S. Leutenegger",
    "A. J. Davison",
    # ICCV 2011 "Close the Loop: Joint Blind Image Restoration and Recognition …"
    "H. Zhang",
    "J. Yang",
    "Y. Zhang",
    "N. M. Nasrabadi",
    "T. S. Huang",
    # ICRA 2016 "Image-Based Robotic System for … Intra-Articular Fracture Surgeries"
    "R. Atkins",
    # IROS 2018 "Robust Visual-Inertial State Estimation with Multiple Odometries …" (IEEE prints
    # initials) and IROS 2020 "MHYRO" (likewise)
    "M. G. Müller",
    "F. Steidle",
    "M. J. Schuster",
    "P. Lutz",
    "M. Maier",
    "S. Stoneman",
    "T. Tomic",
    "W. Stürzl",
    "A. Lopez-Lora",
    "P.J. Sanchez-Cuevas",
    "A. Suarez",
    "A. Garofano-Soldado",
    "A. Ollero",
    "G. Heredia",
}


def _institution(found: Institution | None, name: str) -> str:
    return found.name if found is not None else name_key(name)


def _papers() -> list[tuple[str, int, Paper]]:
    return [(a.venue, a.year, a.paper) for a in load_bundled().awards]


def test_the_lint_pattern_tells_initials_from_published_forms() -> None:
    assert _INITIALS_ONLY.match("S. Lazebnik")
    assert _INITIALS_ONLY.match("T.-Y. Lin")
    assert _INITIALS_ONLY.match("A. J. Davison")
    assert not _INITIALS_ONLY.match("H. Andrew Schwartz")
    assert not _INITIALS_ONLY.match("E. Dario Gutiérrez")
    assert not _INITIALS_ONLY.match("Samuel Rota Bulo")


def test_names_in_initials_are_published_forms_or_known_gaps() -> None:
    shortened = {n for _, _, p in _papers() for n in p.authors if _INITIALS_ONLY.match(n)}
    assert shortened - PUBLISHED_FORM - NOT_YET_SOURCED == set()


def test_the_artificial_hivemind_byline_is_whole() -> None:
    # NeurIPS 2025 D&B Best Paper: ten authors on the first author's own page (issue 24).
    (paper,) = [
        p
        for v, y, p in _papers()
        if (v, y) == ("neurips", 2025) and p.title.startswith("Artificial Hivemind") and p.authors
    ]
    assert paper.authors == (
        "Liwei Jiang",
        "Yuanjun Chai",
        "Margaret Li",
        "Mickel Liu",
        "Raymond Fok",
        "Nouha Dziri",
        "Yulia Tsvetkov",
        "Maarten Sap",
        "Alon Albalak",
        "Yejin Choi",
    )
    assert not paper.authors_incomplete


def test_a_paper_lists_one_institution_once() -> None:
    institutions = load_institutions()
    njust = institutions.find("NanJing University of Science & Technology")
    assert njust is not None
    assert njust.name == "Nanjing University of Science and Technology"
    named = {
        ("acl", 2023, "Dense-ATOMIC"),
        ("emnlp", 2023, "IfQA"),
        ("emnlp", 2023, "PaperMage"),
    }
    seen = 0
    for venue, year, paper in _papers():
        if not any((venue, year) == (v, y) and paper.title.startswith(t) for v, y, t in named):
            continue
        seen += 1
        keys = [_institution(institutions.find(n), n) for n in paper.affiliations]
        assert len(keys) == len(set(keys)), (venue, year, paper.title, paper.affiliations)
    assert seen >= len(named)


def test_no_paper_lists_one_normalised_institution_twice() -> None:
    # ACL 2023 gave "ETH Zurich" and "ETH Zürich", "Meta AI" and "Facebook AI Research", "NUS"
    # and "National University of Singapore" on one paper; Aya listed Cohere For AI three times.
    institutions = load_institutions()
    twice = []
    for venue, year, paper in _papers():
        keys = [_institution(institutions.find(n), n) for n in paper.affiliations]
        if len(keys) != len(set(keys)):
            twice.append((venue, year, paper.title, paper.affiliations))
    assert twice == []


def _one(venue: str, year: int, title: str) -> Paper:
    found = {p.title: p for v, y, p in _papers() if (v, y) == (venue, year)}
    (paper,) = [p for t, p in found.items() if t.startswith(title)]
    return paper


def test_middle_initials_as_the_authors_give_them() -> None:
    # The proceedings' pages drop them; the authors' own READMEs (Greedy_InfoMax at 05f35c8,
    # vec2text at 01b2da2) give the bylines in full (issue 24).
    infomax = _one("neurips", 2019, "Putting An End to End-to-End")
    assert infomax.authors == ("Sindy Löwe", "Peter O'Connor", "Bastiaan S. Veeling")
    vec2text = _one("emnlp", 2023, "Text Embeddings Reveal (Almost) As Much As Text")
    assert vec2text.authors == (
        "John X. Morris",
        "Volodymyr Kuleshov",
        "Vitaly Shmatikov",
        "Alexander M. Rush",
    )


def test_ipnet_keeps_the_byline_of_its_first_page() -> None:
    # The code README says "Chenyu Chen"; the paper's first page (the PDF on the first author's
    # site, 807b722) prints "Yuchen Chen": the published byline stays (issue 24).
    ipnet = _one("aaai", 2023, "Two Heads are Better than One")
    assert ipnet.authors[:3] == ("Pengfei Ren", "Yuchen Chen", "Jiachang Hao")
    assert "Chenyu Chen" not in ipnet.authors
