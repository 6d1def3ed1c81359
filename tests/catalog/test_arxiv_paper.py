"""paper_from_arxiv and missing_from: the one Paper an arXiv entry makes, and its gaps."""

from __future__ import annotations

import pytest

from bot.catalog.arxiv.atom import ArxivEntry, parse_feed
from bot.catalog.arxiv.paper import completes, lacks, missing_from, paper_from_arxiv, same_person
from bot.domain.identifiers import ArxivId
from bot.domain.models import Links, Paper, Source
from tests.support.arxiv_records import only_entry, recorded_body


@pytest.fixture
def old_form() -> ArxivEntry:
    return only_entry("id_astro-ph_0601001_s0_m100_3150dca9dc76.json")


@pytest.fixture
def with_doi() -> ArxivEntry:
    return parse_feed(recorded_body("q_testing_s0_m10_bc5a6c384fe9.json")).entries[0]


def test_paper_from_an_entry(old_form: ArxivEntry) -> None:
    paper = paper_from_arxiv(old_form, year=2006)
    assert paper.title.startswith("Frequency of Hot Jupiters and Very Hot Jupiters")
    assert paper.authors == ("Andrew Gould", "Susan Dorsher", "B. Scott Gaudi", "Andrzej Udalski")
    assert paper.arxiv == "astro-ph/0601001"
    assert paper.arxiv_version == 1
    assert paper.arxiv_id == ArxivId("astro-ph/0601001", 1)
    assert paper.year == 2006
    assert paper.abstract == old_form.abstract
    # The links name the paper, so they follow it to its latest revision.
    assert paper.links == Links(
        arxiv="https://arxiv.org/abs/astro-ph/0601001", pdf="https://arxiv.org/pdf/astro-ph/0601001"
    )
    assert paper.sources == (
        Source(url="https://arxiv.org/abs/astro-ph/0601001", document="arXiv API"),
    )
    assert paper.doi is None


def test_doi_and_a_title_of_ones_own(with_doi: ArxivEntry) -> None:
    paper = paper_from_arxiv(with_doi, title="Testing DL Models")
    assert paper.doi == "10.1109/icstw55395.2022.00035"
    assert paper.title == "Testing DL Models"
    assert paper.year is None


def test_lacks_names_what_enrich_can_fill() -> None:
    bare = Paper(title="T", arxiv="1605.08386")
    assert lacks(bare) == ("abstract", "authors", "links.arxiv", "links.pdf")
    full = Paper(
        title="T",
        authors=("A",),
        abstract="An abstract.",
        links=Links(
            arxiv="https://arxiv.org/abs/1605.08386", pdf="https://arxiv.org/pdf/1605.08386"
        ),
    )
    assert lacks(full) == ()


def test_missing_from_keeps_only_the_gaps(old_form: ArxivEntry) -> None:
    stored = Paper(
        title="Hot Jupiters from OGLE-III",  # ours, not arXiv's: kept
        authors=("A. Gould", "S. Dorsher"),  # spelt otherwise: kept, and not given again
        arxiv="astro-ph/0601001",
        abstract="Our own abstract.",
        links=Links(arxiv="https://arxiv.org/abs/astro-ph/0601001"),
    )
    found = missing_from(stored, old_form)
    assert found is not None
    paper, fields = found
    assert fields == ("links.pdf",)
    assert paper.title == stored.title
    assert paper.authors == ()
    assert paper.abstract is None
    assert paper.links == Links(pdf="https://arxiv.org/pdf/astro-ph/0601001")
    assert paper.sources[0].covers == ("links.pdf",)
    assert paper.arxiv_version == 1


def test_missing_from_a_bare_paper_fills_everything(with_doi: ArxivEntry) -> None:
    found = missing_from(Paper(title="Testing", arxiv="2202.12139"), with_doi)
    assert found is not None
    paper, fields = found
    assert fields == ("abstract", "authors", "doi", "links.arxiv", "links.pdf")
    assert paper.authors == ("Mohit Kumar Ahuja", "Arnaud Gotlieb", "Helge Spieker")
    assert paper.doi == "10.1109/icstw55395.2022.00035"


def test_nothing_missing_is_none_and_a_newer_version_alone_is_no_field(
    old_form: ArxivEntry,
) -> None:
    complete = paper_from_arxiv(old_form)
    assert missing_from(complete, old_form) is None
    older = complete.model_copy(update={"arxiv_version": None})
    found = missing_from(older, old_form)
    assert found is not None
    assert found[1] == ()
    assert found[0].arxiv_version == 1


def test_a_huge_collaboration_is_cut_to_what_the_catalogue_holds(old_form: ArxivEntry) -> None:
    names = tuple(f"Physicist {n}" for n in range(3_500))
    paper = paper_from_arxiv(old_form.model_copy(update={"authors": names}))
    assert paper.authors == names[:3_000]


@pytest.mark.parametrize(
    ("ours", "theirs", "same"),
    [
        ("Danilo Rezende", "Danilo Jimenez Rezende", True),
        ("D. Rezende", "Danilo Jimenez Rezende", True),
        ("andrew gould", "Andrew Gould", True),
        ("Aurora Ramirez", "Aurora Ramírez", True),
        ("Andrew Gould", "Susan Dorsher", False),
        ("A. Gould", "B. Gould", False),
    ],
)
def test_same_person_tolerates_initials_accents_and_middle_names(
    ours: str, theirs: str, same: bool
) -> None:
    assert same_person(ours, theirs) is same


def test_a_cut_short_list_is_completed_only_by_one_that_extends_it(old_form: ArxivEntry) -> None:
    cut = Paper(title="Hot Jupiters", authors=("A. Gould", "S. Dorsher"), authors_incomplete=True)
    found = missing_from(cut, old_form)
    assert found is not None
    assert found[0].authors == old_form.authors
    assert "authors" in found[1]
    assert "authors" in lacks(cut)
    # Complete, or not a beginning of arXiv's list: never replaced.
    whole = cut.model_copy(update={"authors_incomplete": False})
    other = cut.model_copy(update={"authors": ("Susan Dorsher", "Andrew Gould")})
    for paper in (whole, other):
        found = missing_from(paper, old_form)
        assert found is not None
        assert "authors" not in found[1]
    assert not completes(cut, old_form.authors[:1])  # shorter than ours: not the whole
