"""Statistics for every edition the organisers published, each saying what it counts (issue 24)."""

from __future__ import annotations

from bot.catalog.bundled import load_bundled
from bot.domain.models import Edition, Submitted

EDITIONS = {(e.venue, e.year): e for e in load_bundled().editions}


def _with_figures() -> list[Edition]:
    return [e for e in EDITIONS.values() if e.submissions or e.accepted]


def test_at_least_120_editions_have_statistics_across_twelve_venues() -> None:
    with_figures = _with_figures()
    assert len(with_figures) >= 120
    venues = {e.venue for e in with_figures}
    assert {"cvpr", "iccv", "eccv", "acl", "emnlp", "naacl"} <= venues
    assert len(venues) >= 12


def test_the_program_chairs_figures_for_iclr_2018() -> None:
    iclr = EDITIONS[("iclr", 2018)]
    assert (iclr.submissions, iclr.accepted, iclr.orals) == (935, 337, 23)
    assert {a.value for a in iclr.alternatives if a.field == "submissions"} == {981}


def test_aaai_figures_of_papers_reviewed_are_not_read_as_submitted() -> None:
    assert EDITIONS[("aaai", 2021)].submissions == 9034
    assert EDITIONS[("aaai", 2020)].submissions == 8843
    counts = EDITIONS[("aaai", 2025)].counts
    assert counts is not None
    assert counts.submissions is Submitted.REVIEWED


def test_iclr_2024_prefers_the_fact_sheet() -> None:
    iclr = EDITIONS[("iclr", 2024)]
    assert (iclr.submissions, iclr.accepted) == (7262, 2260)
    assert {a.value for a in iclr.alternatives if a.field == "submissions"} >= {7304}


def test_nlp_editions_count_the_main_conference_and_keep_findings_apart() -> None:
    emnlp = EDITIONS[("emnlp", 2023)]
    assert (emnlp.submissions, emnlp.accepted) == (3868 + 1041, 901 + 146)
    assert emnlp.counts is not None
    assert emnlp.counts.accepted == "main"
    assert [a.value for a in emnlp.alternatives if a.field == "accepted"] == [901 + 146 + 886 + 203]


def test_every_figure_has_a_source() -> None:
    for edition in _with_figures():
        assert edition.sources, (edition.venue, edition.year)


def test_official_figures_are_preferred_and_the_dataset_kept() -> None:
    cvpr_2020 = EDITIONS[("cvpr", 2020)]
    assert cvpr_2020.submissions == 5865  # the IEEE Computer Society's release
    assert {a.value for a in cvpr_2020.alternatives if a.field == "submissions"} == {6656}
    assert EDITIONS[("cvpr", 2023)].accepted == 2359  # the CVPR 2023 blog
    assert (EDITIONS[("acl", 2011)].submissions, EDITIONS[("acl", 2011)].accepted) == (1203, 292)


def test_editions_sourced_from_two_agreeing_reports_or_the_venue() -> None:
    # Each from two independent compilations that agree, or the organisers' own report.
    assert (EDITIONS[("iccv", 2021)].submissions, EDITIONS[("iccv", 2021)].accepted) == (6152, 1612)
    assert (EDITIONS[("eccv", 2024)].submissions, EDITIONS[("eccv", 2024)].accepted) == (8585, 2395)
    assert (EDITIONS[("iros", 2026)].submissions, EDITIONS[("iros", 2026)].accepted) == (4348, 1585)
    assert EDITIONS[("acl", 2010)].submissions == 987  # the program chairs' report
    assert EDITIONS[("acl", 2022)].submissions == 3378
    for key in [("iccv", 2021), ("eccv", 2024), ("iros", 2026), ("acl", 2024)]:
        assert len(EDITIONS[key].sources) >= 2, key


def test_disagreeing_counts_are_kept_as_alternatives() -> None:
    iccv = EDITIONS[("iccv", 2023)]
    assert (iccv.submissions, iccv.accepted) == (8260, 2160)
    assert {a.value for a in iccv.alternatives if a.field == "submissions"} == {8068}
    acl = EDITIONS[("acl", 2024)]
    assert (acl.submissions, acl.accepted) == (4407, 940)
    assert acl.counts is not None
    assert acl.counts.submissions is Submitted.REVIEWED
    assert {a.value for a in acl.alternatives if a.field == "accepted"} == {943}
    cvpr = EDITIONS[("cvpr", 2013)]
    assert (cvpr.submissions, cvpr.accepted) == (1816, 472)
    assert {a.value for a in cvpr.alternatives if a.field == "submissions"} == {1798}


def test_earlier_editions_from_the_organisers_own_reports() -> None:
    # The ACL archive of program chairs' reports and AAAI's pages of past conferences.
    assert (EDITIONS[("naacl", 2000)].submissions, EDITIONS[("naacl", 2000)].accepted) == (166, 43)
    assert (EDITIONS[("naacl", 2001)].submissions, EDITIONS[("naacl", 2001)].accepted) == (110, 31)
    naacl_2004 = EDITIONS[("naacl", 2004)]
    assert (naacl_2004.submissions, naacl_2004.accepted) == (168 + 84, 43 + 40)
    assert {a.value for a in naacl_2004.alternatives if a.field == "accepted"} == {43}
    aaai_1996 = EDITIONS[("aaai", 1996)]
    assert (aaai_1996.submissions, aaai_1996.accepted) == (643, 197)
    assert EDITIONS[("aaai", 1994)].submissions == 780
    assert EDITIONS[("aaai", 1994)].accepted is None
