"""A paper's research area and its cut-short author list, through every way in and out; and how
a later source's links, summaries and values meet the stored ones (kept, filled, or kept aside as
alternatives with their source)."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from bot.catalog.document import read_document, write_document
from bot.domain.areas import RESEARCH_AREAS, ResearchArea
from bot.domain.models import Paper, Source
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.awards import award, batch


def test_the_ten_areas_of_the_taxonomy() -> None:
    assert len(RESEARCH_AREAS) == 10
    assert Paper(title="X", area="Computer Vision").area is ResearchArea.COMPUTER_VISION
    with pytest.raises(ValidationError, match="area"):
        Paper(title="X", area="Vision")


async def test_round_trip_through_the_store(db: Database, catalog: CatalogRepository) -> None:
    given = award(
        "Segment Anything", authors=["A. Kirillov"], authors_incomplete=True, area="Computer Vision"
    )
    plan = await catalog.apply(batch(given, award("Other")), actor="t", policy="update")
    assert plan.rejected == []
    papers = PaperRepository(db)
    stored = [p.paper for p in await papers.awarded_at("icml", 2025)]
    assert [(p.area, p.authors_incomplete) for p in stored] == [
        (ResearchArea.COMPUTER_VISION, True),
        (None, False),
    ]
    row = await db.fetchone("SELECT authors_incomplete FROM papers WHERE area IS NULL")
    assert row is not None
    assert row[0] == 0
    exported = await catalog.export()
    assert {a.paper.title: a.paper for a in exported.awards}["Segment Anything"] == given.paper


async def test_the_flag_follows_the_author_list_it_describes(
    db: Database, catalog: CatalogRepository
) -> None:
    full = ["A. One", "B. Two", "C. Three"]
    await catalog.apply(batch(award("P", authors=full)), actor="t", policy="update")
    # A source with a cut-short list neither shortens the list nor marks it incomplete.
    await catalog.apply(
        batch(award("P", authors=["A. One"], authors_incomplete=True)), actor="t", policy="fill"
    )
    paper = (await PaperRepository(db).awarded_at("icml", 2025))[0].paper
    assert (list(paper.authors), paper.authors_incomplete) == (full, False)
    # Filling an empty list takes the flag with it.
    await catalog.apply(
        batch(award("Q", authors=["A. One"], authors_incomplete=True)), actor="t", policy="fill"
    )
    await catalog.apply(batch(award("Q", authors=full)), actor="t", policy="update")
    papers = {p.paper.title: p.paper for p in await PaperRepository(db).awarded_at("icml", 2025)}
    assert (list(papers["Q"].authors), papers["Q"].authors_incomplete) == (full, False)


async def test_a_differing_area_from_a_foreign_source_is_kept_as_an_alternative(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(batch(award("P", area="Computer Vision")), actor="t", policy="update")
    await catalog.apply(batch(award("P", area="NLP & Language")), actor="t", policy="fill")
    paper = (await PaperRepository(db).awarded_at("icml", 2025))[0].paper
    assert paper.area is ResearchArea.COMPUTER_VISION
    assert [(a.field, a.value) for a in paper.alternatives] == [("area", "NLP & Language")]


async def test_a_curators_edit_sets_and_clears_them(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(award("P", authors=["A"], authors_incomplete=True, area="Speech & Audio")),
        actor="t",
        policy="update",
    )
    papers = PaperRepository(db)
    stored = (await papers.awarded_at("icml", 2025))[0]
    plan = await catalog.replace_paper(
        stored.id, Paper(title="P", authors=("A", "B")), actor="curator"
    )
    assert plan.rejected == []
    after = await papers.get(stored.id)
    assert after is not None
    assert (after.paper.area, after.paper.authors_incomplete) == (None, False)
    change = await db.fetchone("SELECT id FROM audit WHERE actor = 'curator'")
    assert change is not None
    await catalog.revert(int(change[0]), actor="curator")
    back = await papers.get(stored.id)
    assert back is not None
    assert (back.paper.area, back.paper.authors_incomplete) == (ResearchArea.SPEECH_AUDIO, True)


def test_document_round_trip() -> None:
    text = """
[[awards]]
venue = "acl"
year = 2023
name = "Best Paper"
kind = "best"
  [awards.paper]
  title = "Do Androids Laugh at Electric Sheep?"
  authors = ["Jack Hessel"]
  authors_incomplete = true
  area = "NLP & Language"
"""
    parsed = read_document(text, "t.toml")
    assert parsed.rejected == ()
    paper = parsed.awards[0].paper
    assert (paper.area, paper.authors_incomplete) == (ResearchArea.NLP_LANGUAGE, True)
    written = write_document(parsed)
    assert 'area = "NLP & Language"' in written
    assert "authors_incomplete = true" in written
    assert read_document(written, "again.toml") == parsed
    # Defaults stay out of the document.
    plain = read_document(text.replace("  authors_incomplete = true\n", ""), "t.toml")
    assert "authors_incomplete" not in write_document(plain)


def test_an_unknown_area_in_a_document_is_rejected_by_its_place() -> None:
    text = '[[awards]]\nvenue = "acl"\nyear = 2023\nname = "B"\nkind = "best"\n'
    text += '[awards.paper]\ntitle = "T"\narea = "Vision"\n'
    parsed = read_document(text, "t.toml")
    assert len(parsed.rejected) == 1
    assert "paper.area" in parsed.rejected[0].reason


async def test_fill_keeps_stored_links_adds_new_ones_and_keeps_each_disagreement_once(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(
            award(
                "P",
                arxiv="2101.00001",
                links={"code": "https://a.example/code"},
                summaries={"en": "Ours."},
            )
        ),
        actor="t",
        policy="update",
    )
    source = Source(url="https://list.example/awards")
    for links, summary in (
        ({"code": "https://b.example/code", "project": "https://b.example"}, "Theirs."),
        ({"code": "https://c.example/code"}, "Theirs."),
    ):
        await catalog.apply(
            batch(
                award(
                    "P",
                    arxiv="2101.00001",
                    links=links,
                    summaries={"en": summary, "zh-TW": "繁"},
                    sources=[source],
                )
            ),
            actor="importer",
            policy="fill",
        )
    row = await db.fetchone("SELECT links, summaries, alternatives FROM papers")
    assert row is not None
    assert json.loads(row["links"]) == {
        "code": "https://a.example/code",
        "project": "https://b.example",
    }
    assert json.loads(row["summaries"]) == {"en": "Ours.", "zh-TW": "繁"}
    reason = "given by a later import; the value already in the catalogue is kept"
    listed = {"url": "https://list.example/awards", "covers": []}
    assert json.loads(row["alternatives"]) == [
        {
            "field": "links.code",
            "value": "https://b.example/code",
            "source": listed,
            "reason": reason,
        },
        {"field": "summaries.en", "value": "Theirs.", "source": listed, "reason": reason},
        {
            "field": "links.code",
            "value": "https://c.example/code",
            "source": listed,
            "reason": reason,
        },
    ]


async def test_update_replaces_a_stored_link_and_summary(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(award("P", links={"code": "https://a.example/code"}, summaries={"en": "Old."})),
        actor="t",
        policy="update",
    )
    await catalog.apply(
        batch(award("P", links={"code": "https://b.example/code"}, summaries={"en": "New."})),
        actor="t",
        policy="update",
    )
    row = await db.fetchone("SELECT links, summaries, alternatives FROM papers")
    assert row is not None
    assert json.loads(row["links"]) == {"code": "https://b.example/code"}
    assert json.loads(row["summaries"]) == {"en": "New."}
    assert json.loads(row["alternatives"]) == []


async def test_an_alternative_without_a_source_names_the_importer(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(batch(award("P", abstract="Ours.")), actor="t", policy="update")
    await catalog.apply(batch(award("P", abstract="Theirs.")), actor="importer", policy="fill")
    row = await db.fetchone("SELECT abstract, alternatives FROM papers")
    assert row is not None
    assert row["abstract"] == "Ours."
    (alternative,) = json.loads(row["alternatives"])
    assert alternative["source"] == {"document": "import by importer", "covers": []}


async def test_a_mapping_disagreement_without_a_source_names_the_importer(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(batch(award("P", summaries={"en": "Ours."})), actor="t", policy="update")
    await catalog.apply(batch(award("P", summaries={"en": "Theirs."})), actor="imp", policy="fill")
    row = await db.fetchone("SELECT alternatives FROM papers")
    assert row is not None
    (alternative,) = json.loads(row["alternatives"])
    assert alternative["source"] == {"document": "import by imp", "covers": []}
