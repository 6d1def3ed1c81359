"""The converter's hand-kept corrections (issue 24): awards never given stay out, the venue's own
award names win, a row with another paper's facts is split off, bylines as published."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.catalog.bundled import load_bundled
from bot.domain.models import Award, AwardKind, Paper, Source
from tools import bundle
from tools.bundle import corrections
from tools.bundle.datasets import AWESOME, Record

DATA_DIR = bundle.REPO / "data"
SHARED = bundle.REPO.parent / "shared" / "datasets"
LINKS = bundle.REPO / "tools" / "bundle" / "paper_links.toml"
needs_shared = pytest.mark.skipif(
    not (SHARED / "ai-bestpapers" / "papers.yml").is_file(),
    reason=f"the datasets are not here ({SHARED})",
)


@pytest.fixture(scope="module")
def awards() -> list[Award]:
    result = bundle.convert(SHARED, DATA_DIR, LINKS)
    from bot.catalog.document import read_document

    out: list[Award] = []
    for path, text in result.files.items():
        if path.parts[0] == "awards":
            out += read_document(text, str(path)).awards
    return out


def _of(awards: list[Award], venue: str, year: int) -> list[Award]:
    return [a for a in awards if (a.venue, a.year) == (venue, year)]


@needs_shared
def test_iclr_2020_gave_no_paper_awards(awards: list[Award]) -> None:
    assert _of(awards, "iclr", 2020) == []


@needs_shared
def test_the_venues_own_award_name_wins_and_the_label_stays_an_alternative(
    awards: list[Award],
) -> None:
    for venue, year, count in (("iclr", 2019, 2), ("icml", 2019, 2), ("neurips", 2020, 3)):
        best = [a for a in _of(awards, venue, year) if a.kind is AwardKind.BEST]
        assert len(best) == count, (venue, year)
        for award in best:
            assert award.name == "Best Paper"
            assert [a.value for a in award.alternatives if a.field == "name"] == [
                "Outstanding Paper"
            ]


@needs_shared
def test_the_merged_iros_row_is_two_papers(awards: list[Award]) -> None:
    robocup = {a.year: a.paper for a in awards if a.venue == "iros" and "RoboCup" in a.name}
    assert robocup[2019].title.startswith("Motion Decoupling and Composition")
    assert robocup[2019].authors == ("Xiaobin Xiong", "Aaron Ames")
    assert robocup[2018].authors == ("Aly Magassouba", "Komei Sugiura", "Hisashi Kawai")
    assert not robocup[2018].title.startswith("Motion Decoupling")
    assert robocup[2018].arxiv != robocup[2019].arxiv


@needs_shared
def test_kinds_and_tracks_read_as_the_venue_named_them(awards: list[Award]) -> None:
    best = {a.name for a in awards if a.kind is AwardKind.BEST}
    assert not {n for n in best if re.search(r"presentation|system|demo", n, re.IGNORECASE)}
    neurips_2022 = {a.paper.title.split(":")[0]: a for a in _of(awards, "neurips", 2022)}
    for title in ("LAION-5B", "MineDojo"):
        assert neurips_2022[title].kind is AwardKind.DATASETS_BENCHMARKS
        assert neurips_2022[title].track == "Datasets & Benchmarks"
    tracks = {a.track for a in awards if a.track}
    odd = {t for t in tracks if re.search(r"^(for|on) |\btied\b|^[a-z]", t)}
    assert odd == set()


@needs_shared
def test_bylines_as_published(awards: list[Award]) -> None:
    by_title = {a.paper.title: a.paper for a in awards}
    dueling = by_title["Dueling Network Architectures for Deep Reinforcement Learning"]
    assert "Hado van Hasselt" in dueling.authors
    assert "Nando de Freitas" in dueling.authors
    bridging = by_title[
        "Bridging the Gap between Training and Inference for Neural Machine Translation"
    ]
    assert bridging.authors[-2:] == ("Di You", "Qun Liu")
    dpm = by_title["A Discriminatively Trained, Multiscale, Deformable Part Model"]
    assert dpm.authors == ("Pedro Felzenszwalb", "David McAllester", "Deva Ramanan")
    assert any(a.field == "authors" for a in dpm.alternatives)


def _record(name: str, title: str) -> Record:
    source = Source(url="https://example.org/awards")
    paper = Paper(title=title, sources=(source,))
    award = Award(
        venue="iclr",
        year=2020,
        name=name,
        kind=AwardKind.OUTSTANDING,
        paper=paper,
        sources=(source,),
    )
    return Record(AWESOME, award, "papers.csv line 2")


def test_a_rejected_award_is_left_out_and_named_with_its_reason(tmp_path: Path) -> None:
    path = tmp_path / "corrections.toml"
    path.write_text(
        '[[rejected]]\nvenue = "iclr"\nyear = 2020\ndataset_name = "Outstanding Paper"\n'
        'reason = "no awards that year"\nsources = ["https://example.org/report"]\n',
        encoding="utf-8",
    )
    notes: list[str] = []
    kept = corrections.apply(
        [_record("Outstanding Paper", "A"), _record("Test of Time", "B")],
        corrections.load(path),
        notes,
    )
    assert [r.award.paper.title for r in kept] == ["B"]
    assert len(notes) == 1
    assert "no awards that year" in notes[0]


def test_a_correction_without_a_source_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "corrections.toml"
    path.write_text('[[rejected]]\nvenue = "iclr"\nyear = 2020\nreason = "r"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="needs sources"):
        corrections.load(path)


@needs_shared
def test_acl_2017_titles_are_the_anthologys_and_keep_their_area(awards: list[Award]) -> None:
    # data/xml/P17.xml of the ACL Anthology: P17-1117 and P17-2034 (issue 24).
    acl = {a.paper.title: a.paper for a in _of(awards, "acl", 2017)}
    for old, new in (
        (
            "Multi-Task Video Captioning with Visual and Textual Entailment",
            "Multi-Task Video Captioning with Video and Entailment Generation",
        ),
        (
            "A Corpus of Compositional Language for Visual Reasoning",
            "A Corpus of Natural Language for Visual Reasoning",
        ),
    ):
        assert old not in acl
        paper = acl[new]
        assert old in [a.value for a in paper.alternatives if a.field == "title"]
        # the taxonomy row is keyed by the dataset's title; the corrected paper still finds it
        assert paper.area is not None
        assert paper.task is not None


def test_rss_2020_test_of_time_is_the_rss_2005_paper() -> None:
    # The award honours Dellaert's RSS 2005 paper, not the 2006 IJRR article with Kaess (issue 24);
    # read in the bundled catalogue, with the summary tools/bundle/papers/rss.toml gives it.
    awards = list(load_bundled().awards)
    (sam,) = [a.paper for a in _of(awards, "rss", 2020) if a.paper.title.startswith("Square Root")]
    assert sam.title == "Square Root SAM"
    assert sam.authors == ("Frank Dellaert",)
    assert sam.year == 2005
    assert sam.doi is None
    assert sam.links.pdf == "https://dellaert.github.io/files/Dellaert05rss.pdf"
    assert sam.links.project is None
    assert sam.summaries
    assert not [s for s in sam.summaries.values() if re.search("Kaess|real data|真實", s)]
    alternatives = {a.field: a.value for a in sam.alternatives}
    assert alternatives["doi"] == "10.1177/0278364906072768"
    assert alternatives["authors"] == ["Frank Dellaert", "Michael Kaess"]


def test_bylines_in_full_where_the_datasets_gave_initials() -> None:
    # Each from the page named in tools/bundle/papers/<venue>.toml (issue 24), as bundled.
    awards = list(load_bundled().awards)
    expected = {
        ("cvpr", 2016, "Beyond Bags of Features"): (
            "Svetlana Lazebnik",
            "Cordelia Schmid",
            "Jean Ponce",
        ),
        ("cvpr", 2016, "Scalable Recognition with a Vocabulary Tree"): (
            "David Nistér",
            "Henrik Stewénius",
        ),
        ("cvpr", 2017, "Accurate, Dense, and Robust Multi-View Stereopsis"): (
            "Yasutaka Furukawa",
            "Jean Ponce",
        ),
        ("eccv", 2014, "Scene Chronology"): ("Kevin Matzen", "Noah Snavely"),
        ("eccv", 2018, "Implicit 3D Orientation Learning"): (
            "Martin Sundermeyer",
            "Zoltan-Csaba Marton",
            "Maximilian Durner",
            "Manuel Brucker",
            "Rudolph Triebel",
        ),
        ("iccv", 2013, "From Large Scale Image Categorization"): (
            "Vicente Ordonez",
            "Jia Deng",
            "Yejin Choi",
            "Alexander C. Berg",
            "Tamara L. Berg",
        ),
        ("iccv", 2015, "Deep Neural Decision Forests"): (
            "Peter Kontschieder",
            "Madalina Fiterau",
            "Antonio Criminisi",
            "Samuel Rota Bulo",
        ),
        ("iccv", 2017, "Mask R-CNN"): (
            "Kaiming He",
            "Georgia Gkioxari",
            "Piotr Dollár",
            "Ross Girshick",
        ),
        ("iccv", 2017, "Focal Loss for Dense Object Detection"): (
            "Tsung-Yi Lin",
            "Priya Goyal",
            "Ross Girshick",
            "Kaiming He",
            "Piotr Dollár",
        ),
    }
    for (venue, year, start), names in expected.items():
        found = {
            a.paper.authors for a in _of(awards, venue, year) if a.paper.title.startswith(start)
        }
        assert found == {names}, (venue, year, start)


def test_icra_2017_robot_vision_paper_has_its_published_title() -> None:
    # The first author's publication list (tschmidt23.github.io at 7f629c6) titles the RA-L paper
    # "Self-supervised Visual Descriptor Learning for Dense Correspondence" (issue 24).
    icra = [a.paper for a in _of(list(load_bundled().awards), "icra", 2017)]
    titles = {p.title for p in icra}
    assert "Self-supervised Learning of Dense Visual Descriptors" not in titles
    (paper,) = [p for p in icra if p.title.startswith("Self-supervised Visual Descriptor")]
    assert paper.title == "Self-supervised Visual Descriptor Learning for Dense Correspondence"
    assert paper.authors[0] == "Tanner Schmidt"
    alternatives = [a.value for a in paper.alternatives if a.field == "title"]
    assert alternatives == ["Self-supervised Learning of Dense Visual Descriptors"]
