"""Curators' edits through CatalogRepository, on SQLite and on PostgreSQL: what an undo of an
edition says, an undo of an undo, an edit that changes nothing, and the policy an award edit
writes with. Found by mutation testing of bot/store/catalog_edits.py (docs/mutation.md).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.domain.models import Award, AwardKind, CatalogBatch, Edition, Paper
from bot.store.audit import AuditRepository
from bot.store.catalog import CatalogRepository
from bot.store.database import Database
from bot.store.papers import PaperRepository
from tests.store.conftest import award, batch
from tests.support.searching import Searching


@pytest.fixture
async def searching(db: Database) -> AsyncIterator[Searching]:
    """Search on either engine (tests/support/searching.py)."""
    async with Searching(db) as found:
        yield found


async def _paper(catalog: CatalogRepository, papers: PaperRepository) -> int:
    await catalog.apply(
        batch(award("Gated Attention", arxiv="2505.06708", authors=["A. One"])),
        actor="discord:1",
        policy="update",
    )
    stored = await papers.by_arxiv("2505.06708")
    assert stored is not None
    return stored.id


async def test_undoing_an_edition_change_is_labelled_by_venue_and_year(
    db: Database, catalog: CatalogRepository
) -> None:
    for submissions in (100, 200):
        edition = Edition(venue="icml", year=2025, submissions=submissions)
        await catalog.apply(CatalogBatch(editions=(edition,)), actor="a", policy="update")
    entries, _ = await AuditRepository(db).history(limit=1)
    (change,) = entries
    assert (change.entity, change.action) == ("edition", "change")
    undone = await catalog.revert(change.id, actor="b")
    assert [(c.action, c.entity, c.label, c.fields) for c in undone.changes] == [
        ("change", "edition", "icml 2025", ("submissions",))
    ]
    row = await db.fetchone("SELECT submissions FROM editions WHERE venue = 'icml'")
    assert row is not None
    assert row["submissions"] == 100


async def test_undoing_the_undo_of_a_removal_removes_the_paper_again(
    db: Database, catalog: CatalogRepository
) -> None:
    papers, audit = PaperRepository(db), AuditRepository(db)
    paper_id = await _paper(catalog, papers)
    await catalog.remove("paper", paper_id, actor="a")
    removal = (await audit.history(limit=1))[0][0]
    restored = await catalog.revert(removal.id, actor="a")
    assert [(c.action, c.entity) for c in restored.changes] == [("change", "paper")]
    assert await papers.get(paper_id) is not None
    restoring = (await audit.history(limit=1))[0][0]
    again = await catalog.revert(restoring.id, actor="a")
    assert [(c.action, c.entity) for c in again.changes] == [("remove", "paper")]
    assert await papers.get(paper_id) is None
    newest = (await audit.history(limit=1))[0][0]
    assert newest.action == "remove"
    assert newest.after is not None
    assert newest.after["removed_at"] is not None


async def test_an_edit_to_what_is_stored_changes_nothing_and_audits_nothing(
    db: Database, catalog: CatalogRepository
) -> None:
    papers, audit = PaperRepository(db), AuditRepository(db)
    paper_id = await _paper(catalog, papers)
    stored = await papers.get(paper_id)
    assert stored is not None
    _, before = await audit.history(limit=1)
    # Fields never filled in (lists and mappings left empty) are the same as absent ones.
    same = stored.paper.model_copy(update={"affiliations": (), "links": None})
    plan = await catalog.replace_paper(paper_id, same, actor="a")
    assert [(c.action, c.entity, c.fields) for c in plan.changes] == [("unchanged", "paper", ())]
    assert not plan.changes_anything
    _, after = await audit.history(limit=1)
    assert after == before


async def test_an_award_given_again_by_a_curator_takes_the_new_values(
    db: Database, catalog: CatalogRepository
) -> None:
    papers = PaperRepository(db)
    paper_id = await _paper(catalog, papers)
    renamed = Award(
        venue="icml",
        year=2025,
        name="Outstanding Paper Award (renamed)",
        kind=AwardKind.OUTSTANDING,
        paper=Paper(title="anything"),
    )
    plan = await catalog.add_award(paper_id, renamed, actor="a")
    assert [(c.action, c.entity, c.fields) for c in plan.changes] == [
        ("change", "award", ("name",))
    ]
    stored = await papers.get(paper_id)
    assert stored is not None
    assert [a.name for a in stored.awards] == ["Outstanding Paper Award (renamed)"]
    # An award a curator removed is refused, saying how to bring it back, not kept silently.
    row = await db.fetchone("SELECT id FROM awards WHERE paper_id = ?", (paper_id,))
    assert row is not None
    await catalog.remove("award", int(row["id"]), actor="a")
    again = await catalog.add_award(paper_id, renamed, actor="a")
    assert [r.key for r in again.rejected] == ["award-removed"]
    assert again.changes == []


async def test_an_edit_of_what_is_not_in_the_catalogue_is_refused_naming_it(
    db: Database, catalog: CatalogRepository
) -> None:
    papers = PaperRepository(db)
    paper_id = await _paper(catalog, papers)
    await catalog.remove("paper", paper_id, actor="a")
    stored = Paper(title="Gated Attention")
    for plan in (
        await catalog.remove("paper", paper_id, actor="a"),
        await catalog.replace_paper(paper_id, stored, actor="a"),
    ):
        assert [(r.key, r.params) for r in plan.rejected] == [("missing-paper", {"id": paper_id})]
        assert [r.reason for r in plan.rejected] == [f"paper #{paper_id} is not in the catalogue"]
        assert plan.changes == []
    gone = await catalog.remove("award", 424_242, actor="a")
    assert [(r.key, r.params) for r in gone.rejected] == [("missing-award", {"id": 424_242})]


async def test_a_removed_paper_takes_no_place_in_a_page_of_search_results(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    papers = await searching.papers()
    await catalog.apply(
        batch(
            award("Gated Attention Gated Attention", arxiv="2505.00001"),
            award("Gated Attention", arxiv="2505.00002"),
        ),
        actor="a",
        policy="update",
    )
    (best, other) = [p.id for p in await papers.search("gated attention", limit=2)]
    # Removed, it leaves the search index too: a page of one is the other paper, not empty.
    await catalog.remove("paper", best, actor="a")
    assert [p.id for p in await papers.search("gated attention", limit=1)] == [other]


async def test_an_edited_title_is_how_a_later_import_finds_the_paper(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    papers = await searching.papers()
    await catalog.apply(batch(award("Gated Attention")), actor="a", policy="update")
    (found,) = await papers.search("gated attention")
    await catalog.replace_paper(
        found.id, found.paper.model_copy(update={"title": "Gated Attention for LLMs"}), actor="a"
    )
    # The same edition's award under the corrected title, no arXiv id or DOI: the same paper.
    plan = await catalog.apply(
        batch(award("Gated Attention for LLMs", abstract="We gate attention.")),
        actor="a",
        policy="update",
    )
    assert plan.count("add", "paper") == 0
    stored = await papers.get(found.id)
    assert stored is not None
    assert stored.paper.abstract == "We gate attention."


async def test_an_edited_paper_is_found_by_its_new_title_among_others(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    papers = await searching.papers()
    await catalog.apply(
        batch(award("Gated Attention", arxiv="2505.00001"), award("Sparse Mixtures")),
        actor="a",
        policy="update",
    )
    (first,) = await papers.search("gated attention")
    await catalog.replace_paper(
        first.id, first.paper.model_copy(update={"title": "Gated Linear Units"}), actor="a"
    )
    assert [p.id for p in await papers.search("linear units")] == [first.id]
