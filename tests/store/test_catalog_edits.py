"""Curators' edits through CatalogRepository, on SQLite and on PostgreSQL: what an undo of an
edition says, an undo of an undo, an edit that changes nothing, and the policy an award edit
writes with. Found by mutation testing of bot/store/catalog/edits.py (docs/mutation.md).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.domain.models import Award, AwardKind, CatalogBatch, Edition, Paper
from bot.store.catalog.audit import AuditRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.awards import award, batch
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


async def test_what_a_curator_removed_stays_removed_under_bundle_and_is_refused_otherwise(
    db: Database, catalog: CatalogRepository
) -> None:
    papers = PaperRepository(db)
    records = batch(
        award("Removed Paper", arxiv="2101.00001"), award("Lost Award", doi="10.1145/1234567")
    )
    await catalog.apply(records, actor="bundled", policy="update")
    removed = await papers.by_arxiv("2101.00001")
    assert removed is not None
    await catalog.remove("paper", removed.id, actor="curator:1")
    row = await db.fetchone(
        "SELECT a.id FROM awards AS a JOIN papers AS p ON p.id = a.paper_id"
        " WHERE p.doi = '10.1145/1234567'"
    )
    assert row is not None
    await catalog.remove("award", int(row["id"]), actor="curator:1")
    kept = await catalog.apply(records, actor="bundled", policy="bundle")
    assert kept.rejected == []
    assert [
        (c.action, c.entity, c.label)
        for c in kept.changes
        if c.action != "unchanged" or c.entity == "award"
    ] == [
        (
            "unchanged",
            "award",
            f"award icml 2025 “Removed Paper”: paper #{removed.id} was removed by a curator;"
            " kept removed",
        ),
        (
            "unchanged",
            "award",
            f"award icml 2025 “Lost Award”: award #{row['id']} was removed by a curator;"
            " kept removed",
        ),
    ]
    refused = await catalog.apply(records, actor="importer", policy="update")
    assert [(r.key, r.params) for r in refused.rejected] == [
        ("paper-removed", {"id": removed.id}),
        ("award-removed", {"id": row["id"]}),
    ]
    assert [r.reason for r in refused.rejected] == [
        f"paper #{removed.id} was removed by a curator; undo the removal",
        f"award #{row['id']} was removed by a curator; undo the removal",
    ]
    assert await papers.get(removed.id) is None


async def test_a_bundle_write_finds_a_paper_a_curator_renamed_by_its_former_title(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    papers = await searching.papers()
    await catalog.apply(batch(award("Old Title")), actor="bundled", policy="update")
    (found,) = await papers.search("old title")
    renamed = found.paper.model_copy(update={"title": "New Title"})
    await catalog.replace_paper(found.id, renamed, actor="curator:1")
    plan = await catalog.apply(
        batch(
            award("Old Title", abstract="Now with an abstract."),
            award("Old Title", year=2024),  # another edition: another paper
            award("Fresh Paper"),
        ),
        actor="bundled",
        policy="bundle",
    )
    assert plan.count("merge", "paper") == 1
    assert plan.count("add", "paper") == 2
    stored = await papers.get(found.id)
    assert stored is not None
    assert (stored.paper.title, stored.paper.abstract) == ("New Title", "Now with an abstract.")
    # Under `update` the former title is not looked for: an import adds a paper of that title.
    again = await catalog.apply(batch(award("Old Title")), actor="bundled", policy="update")
    assert again.count("add", "paper") == 1


async def test_under_bundle_a_curators_word_on_a_complete_author_list_stays(
    db: Database, catalog: CatalogRepository
) -> None:
    papers = PaperRepository(db)
    cut_short = award("P", arxiv="2101.00001", authors=["A. One"], authors_incomplete=True)
    await catalog.apply(batch(cut_short), actor="bundled", policy="update")
    stored = await papers.by_arxiv("2101.00001")
    assert stored is not None
    whole = stored.paper.model_copy(update={"authors_incomplete": False})
    await catalog.replace_paper(stored.id, whole, actor="curator:1")
    await catalog.apply(batch(cut_short), actor="bundled", policy="bundle")
    again = await papers.by_arxiv("2101.00001")
    assert again is not None
    assert (again.paper.authors, again.paper.authors_incomplete) == (("A. One",), False)


async def test_an_edit_that_takes_another_papers_arxiv_id_is_refused_and_leaves_nothing(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    papers, audit = await searching.papers(), AuditRepository(db)
    await catalog.apply(
        batch(award("First", arxiv="2101.00001"), award("Second", arxiv="2101.00002")),
        actor="a",
        policy="update",
    )
    second = await papers.by_arxiv("2101.00002")
    assert second is not None
    _, before = await audit.history(limit=1)
    taken = Paper(title="Conflicting Title", arxiv="2101.00001")
    plan = await catalog.replace_paper(second.id, taken, actor="a")
    assert [(r.where, r.key, r.params) for r in plan.rejected] == [
        (f"paper #{second.id}", "conflict", {})
    ]
    assert plan.changes == []
    _, after = await audit.history(limit=1)
    assert after == before
    assert await papers.search("conflicting") == []  # nor is it indexed as it would have been
    assert [p.id for p in await papers.search("second")] == [second.id]
