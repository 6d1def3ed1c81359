"""Curators' writes on a real SQLite file: exact edits, soft removal, undo, and the history."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.domain.audit import UndoRefused
from bot.domain.models import Award, AwardKind, CatalogBatch, Edition, Links, Paper
from bot.store.catalog.audit import AuditRepository
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.edits import standing_changes, undo_batch, undone
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.sql import Connection, integrity_errors
from tests.support.awards import award, batch
from tests.support.searching import Searching


@pytest.fixture
async def searching(db: Database) -> AsyncIterator[Searching]:
    """Search on either engine (tests/support/searching.py)."""
    async with Searching(db) as found:
        yield found


async def _paper_row(db: Database, paper_id: int) -> dict[str, object]:
    def read(conn: Connection) -> dict[str, object]:
        row = dict(conn.execute("SELECT * FROM papers WHERE id = ?", (paper_id,)).fetchone())
        row["authors"] = [
            r[0]
            for r in conn.execute(
                "SELECT name FROM paper_authors WHERE paper_id = ? ORDER BY position", (paper_id,)
            )
        ]
        if conn.dialect == "sqlite":  # FTS5's row (PostgreSQL's search: the derived index)
            row["indexed"] = [
                tuple(r)
                for r in conn.execute("SELECT title FROM paper_search WHERE rowid = ?", (paper_id,))
            ]
        return row

    return await db.snapshot(read)


async def _added(catalog: CatalogRepository, papers: PaperRepository) -> int:
    await catalog.apply(
        batch(
            award(
                "Gated Attention",
                arxiv="2505.06708",
                authors=["A. One", "B. Two"],
                abstract="We gate attention.",
                links={"code": "https://example.org/code"},
            )
        ),
        actor="discord:1",
        policy="update",
    )
    stored = await papers.by_arxiv("2505.06708")
    assert stored is not None
    return stored.id


async def test_edit_then_undo_restores_the_exact_row(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    papers, audit = await searching.papers(), AuditRepository(db)
    paper_id = await _added(catalog, papers)
    original = await _paper_row(db, paper_id)
    stored = await papers.get(paper_id)
    assert stored is not None
    edited = stored.paper.model_copy(
        update={
            "title": "Gated Attention, Revised",
            "authors": ("C. Three",),
            "abstract": None,
            "links": Links(),
        }
    )
    plan = await catalog.replace_paper(paper_id, edited, actor="discord:2")
    assert [c.action for c in plan.changes] == ["change"]
    row = await _paper_row(db, paper_id)
    assert (row["title"], row["abstract"], row["authors"]) == (
        "Gated Attention, Revised", None, ["C. Three"]
    )  # fmt: skip
    assert row["links"] == "{}"  # cleared, which a merging batch cannot do
    assert (await papers.search("revised"))[0].id == paper_id

    entries, total = await audit.history(paper_id=paper_id)
    assert total == 3  # add paper, add award, change paper
    change = entries[0]
    assert (change.actor, change.action, change.entity) == ("discord:2", "change", "paper")
    assert set(change.fields) >= {"title", "authors", "abstract", "links"}

    await catalog.revert(change.id, actor="discord:3")
    assert await _paper_row(db, paper_id) == original
    entries, total = await audit.history(paper_id=paper_id)
    assert (total, entries[0].actor, entries[0].action) == (4, "discord:3", "change")
    assert await papers.search("revised") == []


async def test_remove_hides_a_paper_and_its_awards_and_undo_brings_them_back(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    papers, editions = await searching.papers(), EditionRepository(db)
    paper_id = await _added(catalog, papers)
    plan = await catalog.remove("paper", paper_id, actor="discord:2")
    assert [c.action for c in plan.changes] == ["remove"]
    assert await papers.get(paper_id) is None
    assert await papers.ids() == []
    assert await papers.search("gated") == []
    assert [c.awards for c in await editions.coverage()] == [0]
    assert (await catalog.export()).awards == ()
    # a later import of the same paper does not bring it back behind the curator's back
    again = await catalog.apply(
        batch(award("Gated Attention", arxiv="2505.06708")), actor="import", policy="fill"
    )
    assert "removed by a curator" in again.rejected[0].reason

    (removal,), _ = await AuditRepository(db).history(paper_id=paper_id, limit=1)
    await catalog.revert(removal.id, actor="discord:3")
    restored = await papers.get(paper_id)
    assert restored is not None
    assert len(restored.awards) == 1
    assert [p.id for p in await papers.search("gated")] == [paper_id]


async def test_undo_is_refused_when_a_later_change_touched_the_record(
    db: Database, catalog: CatalogRepository
) -> None:
    papers = PaperRepository(db)
    paper_id = await _added(catalog, papers)
    stored = await papers.get(paper_id)
    assert stored is not None
    first = await catalog.replace_paper(
        paper_id, stored.paper.model_copy(update={"title": "One"}), actor="a"
    )
    await catalog.replace_paper(
        paper_id, stored.paper.model_copy(update={"title": "Two"}), actor="a"
    )
    entries, _ = await AuditRepository(db).history(paper_id=paper_id)
    older = next(e for e in entries if e.after and e.after["title"] == "One")
    with pytest.raises(UndoRefused) as refused:
        await catalog.revert(older.id, actor="b")
    assert refused.value.reason == "later"
    assert refused.value.params["later"] == entries[0].id
    assert first.changes_anything
    row = await _paper_row(db, paper_id)
    assert row["title"] == "Two"  # nothing written


async def test_undo_of_an_edition_addition_is_refused_and_of_an_unknown_change_too(
    db: Database, catalog: CatalogRepository
) -> None:
    await _added(catalog, PaperRepository(db))
    entries, _ = await AuditRepository(db).history(limit=50)
    edition_add = next(e for e in entries if e.entity == "edition" and e.action == "add")
    with pytest.raises(UndoRefused) as refused:
        await catalog.revert(edition_add.id, actor="b")
    assert refused.value.reason == "addition"
    with pytest.raises(UndoRefused) as unknown:
        await catalog.revert(99_999, actor="b")
    assert unknown.value.reason == "unknown"


async def test_award_add_to_a_stored_paper_and_its_removal(
    db: Database, catalog: CatalogRepository
) -> None:
    papers = PaperRepository(db)
    paper_id = await _added(catalog, papers)
    # No arXiv id, no DOI and another edition: a batch would have made a second paper.
    prize = Award(
        venue="neurips",
        year=2024,
        name="Test of Time",
        kind=AwardKind.TEST_OF_TIME,
        paper=Paper(title="anything"),
    )
    plan = await catalog.add_award(paper_id, prize, actor="discord:2")
    assert plan.count("add", "award") == 1
    assert plan.count("add", "paper") == 0
    stored = await papers.get(paper_id)
    assert stored is not None
    assert {a.venue for a in stored.awards} == {"icml", "neurips"}
    row = await db.fetchone("SELECT id FROM awards WHERE kind = 'test-of-time'")
    assert row is not None
    await catalog.remove("award", int(row["id"]), actor="discord:2")
    stored = await papers.get(paper_id)
    assert stored is not None
    assert {a.venue for a in stored.awards} == {"icml"}
    twice = await catalog.remove("award", int(row["id"]), actor="discord:2")
    assert twice.rejected
    assert not twice.changes_anything


async def test_the_audit_log_cannot_be_rewritten(db: Database, catalog: CatalogRepository) -> None:
    await _added(catalog, PaperRepository(db))
    with pytest.raises(integrity_errors(), match="append-only"):
        await db.write(lambda conn: conn.execute("DELETE FROM audit"))


# -- reading the log (survivors of mutation testing: docs/mutation.md) -------------------------
async def test_one_write_is_read_back_by_id_and_by_batch_field_by_field(
    db: Database, catalog: CatalogRepository
) -> None:
    audit = AuditRepository(db)
    papers = PaperRepository(db)
    paper_id = await _added(catalog, papers)
    newest, total = await audit.history(paper_id=paper_id)
    assert total == 2  # the paper and its award
    paper_row = next(e for e in newest if e.entity == "paper")
    assert paper_row.entity_id == str(paper_id)
    assert paper_row.actor == "discord:1"
    assert paper_row.at.startswith("20")  # an ISO timestamp
    assert paper_row.before is None
    assert paper_row.after is not None
    assert paper_row.after["title"] == "Gated Attention"
    assert await audit.get(paper_row.id) == paper_row
    assert await audit.get(paper_row.id + 1000) is None
    written = await audit.in_batch(paper_row.batch)
    assert {e.id for e in newest} <= {e.id for e in written}  # (an edition row may join)
    assert [e.id for e in written] == sorted(e.id for e in written)  # in the order written
    assert {e.batch for e in written} == {paper_row.batch}
    assert await audit.in_batch("no-such-batch") == []


async def test_a_page_of_history_is_five_rows_by_default_and_counts_them_all(
    db: Database, catalog: CatalogRepository
) -> None:
    audit = AuditRepository(db)
    nothing, none_at_all = await audit.history(paper_id=999_999)
    assert (nothing, none_at_all) == ([], 0)
    for n in range(4):  # a paper and an award each: eight rows
        await catalog.apply(
            batch(award(f"Paper number {n}", arxiv=f"2505.0670{n}")),
            actor="test",
            policy="update",
        )
    page, total = await audit.history()
    everything, _ = await audit.history(limit=100)
    assert len(page) == 5
    assert total == len(everything) >= 8
    assert [e.id for e in page] == [e.id for e in everything[:5]]  # newest first


async def test_a_history_up_to_a_change_keeps_its_pages_when_later_changes_come(
    db: Database, catalog: CatalogRepository
) -> None:
    audit = AuditRepository(db)
    for n in range(3):
        await catalog.apply(
            batch(award(f"Paper number {n}", arxiv=f"2505.0671{n}")), actor="test", policy="update"
        )
    (newest,), total = await audit.history(limit=1)
    second, _ = await audit.history(limit=2, offset=2, upto=newest.id)
    await catalog.apply(
        batch(award("A later paper", arxiv="2505.06719")), actor="test", policy="update"
    )
    again, counted = await audit.history(limit=2, offset=2, upto=newest.id)
    assert [e.id for e in again] == [e.id for e in second]
    assert counted == total
    _, now = await audit.history()
    assert now > total


async def test_undoing_an_addition_removes_what_was_added_and_audits_the_removal(
    db: Database, catalog: CatalogRepository
) -> None:
    papers, audit = PaperRepository(db), AuditRepository(db)
    paper_id = await _added(catalog, papers)
    entries, _ = await audit.history(paper_id=paper_id)
    award_add = next(e for e in entries if e.entity == "award" and e.action == "add")
    await catalog.revert(award_add.id, actor="discord:4")
    row = await db.fetchone(
        "SELECT removed_at FROM awards WHERE id = ?", (int(award_add.entity_id),)
    )
    assert row is not None
    assert row["removed_at"] is not None
    newest = (await audit.history(limit=1))[0][0]
    assert (newest.action, newest.entity, newest.entity_id, newest.actor) == (
        "remove",
        "award",
        award_add.entity_id,
        "discord:4",
    )
    assert newest.before is not None
    assert newest.after is not None
    assert newest.before["removed_at"] is None
    assert newest.after["removed_at"] is not None
    stored = await papers.get(paper_id)
    assert stored is not None
    assert stored.awards == ()


async def test_a_refused_undo_names_the_change_and_what_stands_in_its_way(
    db: Database, catalog: CatalogRepository
) -> None:
    papers, audit = PaperRepository(db), AuditRepository(db)
    paper_id = await _added(catalog, papers)
    stored = await papers.get(paper_id)
    assert stored is not None
    await catalog.replace_paper(
        paper_id, stored.paper.model_copy(update={"title": "One"}), actor="a"
    )
    await catalog.replace_paper(
        paper_id, stored.paper.model_copy(update={"title": "Two"}), actor="a"
    )
    entries, _ = await audit.history(limit=50)
    changes = [e for e in entries if e.entity == "paper" and e.action == "change"]
    newer, older = changes[0], changes[1]
    with pytest.raises(UndoRefused) as later:
        await catalog.revert(older.id, actor="b")
    assert (later.value.reason, later.value.params) == (
        "later",
        {"change": older.id, "later": newer.id},
    )
    edition_add = next(e for e in entries if e.entity == "edition" and e.action == "add")
    with pytest.raises(UndoRefused) as addition:
        await catalog.revert(edition_add.id, actor="b")
    assert (addition.value.reason, addition.value.params) == (
        "addition",
        {"change": edition_add.id, "entity": "edition"},
    )
    assert str(addition.value) == "addition"
    with pytest.raises(UndoRefused) as unknown:
        await catalog.revert(99_999, actor="b")
    assert (unknown.value.reason, unknown.value.params) == ("unknown", {"change": 99_999})


async def test_an_edit_is_labelled_for_the_curator_and_a_removed_paper_leaves_search(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    papers = await searching.papers()
    paper_id = await _added(catalog, papers)
    stored = await papers.get(paper_id)
    assert stored is not None
    long_title = "Gated Attention " + "x" * 80
    edited = await catalog.replace_paper(
        paper_id, stored.paper.model_copy(update={"title": long_title}), actor="a"
    )
    assert [c.label for c in edited.changes] == [f"“{long_title[:60]}”"]
    assert [p.id for p in await papers.search("gated")] == [paper_id]
    row = await db.fetchone("SELECT id FROM awards WHERE paper_id = ?", (paper_id,))
    assert row is not None
    award_id = int(row["id"])
    removed_award = await catalog.remove("award", award_id, actor="a")
    assert [c.label for c in removed_award.changes] == [f"award #{award_id}: Outstanding Paper"]
    removed = await catalog.remove("paper", paper_id, actor="a")
    assert [(c.action, c.entity) for c in removed.changes] == [("remove", "paper")]
    assert await papers.search("gated") == []


async def test_the_history_as_writes_puts_curators_first_and_folds_each_load(
    db: Database, catalog: CatalogRepository
) -> None:
    """`/curate history` reads writes, not rows (issue 25, item 12): one group a batch, curators'
    own first, each side newest first, with its rows' ids, count and adds and removes."""
    audit = AuditRepository(db)
    await catalog.apply(
        batch(
            award("Bundled one", arxiv="2505.06801"),
            award("Bundled two", arxiv="2505.06802"),
            award("Bundled three", arxiv="2505.06805"),
        ),
        actor="bundled",
        policy="update",
    )
    await catalog.apply(
        batch(award("Curated", arxiv="2505.06803")), actor="discord:7", policy="update"
    )
    await catalog.apply(batch(award("Imported", arxiv="2505.06804")), actor="import", policy="fill")
    (curated,) = [p for p in (await catalog.export()).awards if p.paper.title == "Curated"]
    curated_id = await db.fetchone("SELECT id FROM papers WHERE title = 'Curated'")
    assert curated_id is not None
    await catalog.remove("paper", int(curated_id[0]), actor="discord:7")

    groups, total = await audit.writes(limit=10)
    assert total == 5  # the fixture's own write ("test") comes first of all
    assert [g.actor for g in groups] == ["discord:7", "discord:7", "import", "bundled", "test"]
    removal, addition, imported, bundled, _ = groups
    assert (removal.adds, removal.removes, removal.count) == (0, 1, 1)
    assert removal.first == removal.last > addition.last  # newest first among curators'
    assert addition.adds == addition.count >= 2  # a paper, an award
    assert addition.removes == 0
    assert imported.last > bundled.last  # then the others, newest first
    assert bundled.adds == bundled.count >= 7
    assert bundled.first < bundled.last
    first_row = await audit.get(bundled.first)
    assert first_row is not None
    assert bundled.at == first_row.at  # when its first row was written
    assert removal.by_curator
    assert not bundled.by_curator

    page, counted = await audit.writes(limit=2, offset=1)
    assert [g.batch for g in page] == [addition.batch, imported.batch]
    assert counted == 5
    earlier, upto = await audit.writes(limit=3, upto=imported.last)
    assert [g.batch for g in earlier] == [addition.batch, imported.batch, bundled.batch]
    assert upto == 4

    of_curated, one = await audit.writes(paper_id=int(curated_id[0]), limit=10)
    assert [g.batch for g in of_curated] == [removal.batch, addition.batch]
    assert one == 2
    assert len((await audit.writes(limit=1))[0]) == 1
    assert len((await audit.writes(limit=0))[0]) == 1  # never an empty page
    await catalog.apply(batch(award("Later", arxiv="2505.06806")), actor="import", policy="fill")
    default, six = await audit.writes()
    assert (len(default), six) == (5, 6)  # five writes a page by default
    assert len(await audit.of_write(bundled.batch)) == 6  # six rows of a write by default
    whole = await audit.of_write(bundled.batch, limit=100)
    one_id = await db.fetchone("SELECT id FROM papers WHERE title = 'Bundled one'")
    assert one_id is not None
    of_one = await audit.of_write(bundled.batch, paper_id=int(one_id[0]), limit=100)
    assert 0 < len(of_one) < len(whole)  # one paper's rows of a write that holds three
    rows = await audit.of_write(bundled.batch, limit=3)
    assert [r.id for r in rows] == sorted(r.id for r in rows)
    assert len(rows) == 3
    assert rows[0].id == bundled.first
    only = await audit.of_write(addition.batch, paper_id=int(curated_id[0]))
    assert {r.batch for r in only} == {addition.batch}
    assert curated.paper.title == "Curated"


async def _titled(
    db: Database, catalog: CatalogRepository, paper_id: int, *titles: str
) -> list[int]:
    """Retitle paper `paper_id` once per title; the audit ids of those changes, oldest first."""
    stored = await PaperRepository(db).get(paper_id)
    assert stored is not None
    for title in titles:
        await catalog.replace_paper(
            paper_id, stored.paper.model_copy(update={"title": title}), actor="a"
        )
    entries, _ = await AuditRepository(db).history(paper_id=paper_id, limit=50)
    changes = [e for e in entries if e.action == "change" and e.after]
    return [e.id for e in reversed(changes) if e.after and e.after["title"] in titles]


async def test_a_change_undone_once_is_refused_a_second_time_naming_the_undo(
    db: Database, catalog: CatalogRepository
) -> None:
    papers, audit = PaperRepository(db), AuditRepository(db)
    paper_id = await _added(catalog, papers)
    (change,) = await _titled(db, catalog, paper_id, "One")
    first = await catalog.revert(change, actor="b")
    assert first.batch.startswith(f"undo-{change}-")
    undo = (await audit.history(limit=1))[0][0]
    assert undo.batch == first.batch
    with pytest.raises(UndoRefused) as again:
        await catalog.revert(change, actor="b")
    assert (again.value.reason, again.value.params) == ("undone", {"change": change, "by": undo.id})
    row = await _paper_row(db, paper_id)
    assert row["title"] == "Gated Attention"  # the refusal wrote nothing
    assert (await audit.history(limit=1))[0][0].id == undo.id


async def test_a_change_is_undone_once_the_later_change_in_its_way_was_undone(
    db: Database, catalog: CatalogRepository
) -> None:
    papers = PaperRepository(db)
    paper_id = await _added(catalog, papers)
    older, newer = await _titled(db, catalog, paper_id, "One", "Two")
    with pytest.raises(UndoRefused) as blocked:
        await catalog.revert(older, actor="b")
    assert blocked.value.params == {"change": older, "later": newer}
    await catalog.revert(newer, actor="b")  # back to "One": the older change stands alone
    assert (await _paper_row(db, paper_id))["title"] == "One"
    undone = await catalog.revert(older, actor="b")
    assert [(c.action, c.entity) for c in undone.changes] == [("change", "paper")]
    assert (await _paper_row(db, paper_id))["title"] == "Gated Attention"


async def test_after_an_undo_is_itself_undone_the_change_stands_and_only_the_newest_undo_undoes(
    db: Database, catalog: CatalogRepository
) -> None:
    papers, audit = PaperRepository(db), AuditRepository(db)
    paper_id = await _added(catalog, papers)
    (change,) = await _titled(db, catalog, paper_id, "One")
    await catalog.revert(change, actor="b")
    undo = (await audit.history(limit=1))[0][0]
    await catalog.revert(undo.id, actor="b")  # puts "One" back
    redo = (await audit.history(limit=1))[0][0]
    assert (await _paper_row(db, paper_id))["title"] == "One"
    with pytest.raises(UndoRefused) as refused:  # the first undo was itself undone
        await catalog.revert(undo.id, actor="b")
    assert (refused.value.reason, refused.value.params) == (
        "undone",
        {"change": undo.id, "by": redo.id},
    )
    with pytest.raises(UndoRefused) as original:  # the change's own undo still names it
        await catalog.revert(change, actor="b")
    assert original.value.params == {"change": change, "by": undo.id}
    await catalog.revert(redo.id, actor="b")
    assert (await _paper_row(db, paper_id))["title"] == "Gated Attention"


async def test_an_undo_of_a_change_whose_record_is_gone_is_refused_as_unknown(
    db: Database, catalog: CatalogRepository
) -> None:
    editions = (Edition(venue="icml", year=2025, submissions=n) for n in (100, 200))
    for edition in editions:
        await catalog.apply(CatalogBatch(editions=(edition,)), actor="a", policy="update")
    (change,), _ = await AuditRepository(db).history(limit=1)
    assert (change.entity, change.action) == ("edition", "change")
    # What a restore from an older backup, or a hand-made fix, can leave: the row is gone.
    await db.write(lambda conn: conn.execute("DELETE FROM editions WHERE venue = 'icml'"))
    with pytest.raises(UndoRefused) as refused:
        await catalog.revert(change.id, actor="b")
    assert (refused.value.reason, refused.value.params) == ("unknown", {"change": change.id})
    assert await db.fetchone("SELECT id FROM editions WHERE venue = 'icml'") is None
    (newest,), _ = await AuditRepository(db).history(limit=1)
    assert newest.id == change.id  # nothing audited


def test_an_undos_batch_names_the_change_it_undid_and_nothing_else_does() -> None:
    assert undo_batch(42, "ab12cd34") == "undo-42-ab12cd34"
    assert undone("undo-42-ab12cd34") == 42
    for other in ("3f2a9c1b7d4e", "undo-x-ab12", "undo-42", "undo-4-2-ab", "redo-42-ab12"):
        assert undone(other) is None, other


def test_standing_changes_pairs_each_undo_with_the_newest_change_still_standing() -> None:
    assert standing_changes(1, []) == [1]
    assert standing_changes(1, [(2, "b2")]) == [1, 2]
    assert standing_changes(1, [(2, "b2"), (3, "undo-2-x")]) == [1]
    assert standing_changes(1, [(2, "undo-1-x")]) == []
    assert standing_changes(1, [(2, "undo-1-x"), (3, "undo-2-y")]) == [3]
    # an undo of a change that is not the newest standing one is a write like any other
    assert standing_changes(1, [(2, "b2"), (3, "undo-1-x")]) == [1, 2, 3]


async def test_a_refused_undo_names_the_newest_change_in_its_way(
    db: Database, catalog: CatalogRepository
) -> None:
    paper_id = await _added(catalog, PaperRepository(db))
    first, second, third = await _titled(db, catalog, paper_id, "One", "Two", "Three")
    with pytest.raises(UndoRefused) as refused:
        await catalog.revert(first, actor="b")
    assert refused.value.params == {"change": first, "later": third}
    assert second not in refused.value.params.values()
