from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from bot.domain.clock import SystemClock
from bot.domain.models import Award, AwardKind, CatalogBatch, Edition, Paper, Source, Venue
from bot.domain.writes import Policy
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


async def _count(db: Database, table: str) -> int:
    row = await db.fetchone(f"SELECT count(*) FROM {table}")
    assert row is not None
    return int(row[0])


async def test_new_award_adds_edition_paper_award_and_audit(
    db: Database, catalog: CatalogRepository
) -> None:
    plan = await catalog.apply(
        batch(award("Gated Attention", arxiv="2505.06708", authors=["A. One", "B. Two"])),
        actor="alice",
        policy="update",
    )
    assert (plan.count("add", "edition"), plan.count("add", "paper")) == (1, 1)
    assert plan.count("add", "award") == 1
    audit = await db.fetchall("SELECT actor, action, entity FROM audit WHERE actor = 'alice'")
    assert sorted((r["action"], r["entity"]) for r in audit) == [
        ("add", "award"), ("add", "edition"), ("add", "paper"),
    ]  # fmt: skip
    authors = await db.fetchall("SELECT name FROM paper_authors ORDER BY position")
    assert [r["name"] for r in authors] == ["A. One", "B. Two"]


async def test_another_arxiv_version_is_the_same_paper(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(batch(award("Paper", arxiv="2502.06768v1")), actor="t", policy="update")
    plan = await catalog.apply(
        batch(award("Paper, revised title", arxiv="2502.06768v3", venue="neurips")),
        actor="t",
        policy="update",
    )
    assert plan.count("merge", "paper") == 1
    assert await _count(db, "papers") == 1
    row = await db.fetchone("SELECT arxiv, arxiv_version, title FROM papers")
    assert row is not None
    assert (row["arxiv"], row["arxiv_version"]) == ("2502.06768", 3)
    assert row["title"] == "Paper, revised title"
    assert await _count(db, "awards") == 2


async def test_doi_in_another_case_is_the_same_paper(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(batch(award("X", doi="10.1145/ABC.Def")), actor="t", policy="update")
    await catalog.apply(
        batch(award("X", doi="https://doi.org/10.1145/abc.DEF", year=2024)),
        actor="t",
        policy="update",
    )
    assert await _count(db, "papers") == 1


async def test_same_title_in_same_edition_merges_but_not_across_editions(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(award("Deep Residual Learning!"), award("deep residual  learning")),
        actor="t",
        policy="update",
    )
    assert await _count(db, "papers") == 1
    await catalog.apply(
        batch(award("Deep Residual Learning", year=2016)), actor="t", policy="update"
    )
    assert await _count(db, "papers") == 2


async def test_same_title_with_different_arxiv_ids_stays_two_papers(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(award("Attention", arxiv="1706.03762"), award("Attention", arxiv="2001.00001")),
        actor="t",
        policy="update",
    )
    assert await _count(db, "papers") == 2


async def test_conflicting_identifiers_reject_the_record_and_leave_nothing(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(award("One", arxiv="2101.00001"), award("Two", doi="10.1000/two")),
        actor="t",
        policy="update",
    )
    audit_before = await _count(db, "audit")
    plan = await catalog.apply(
        CatalogBatch(
            editions=(Edition(venue="icml", year=2022),),
            awards=(award("Both", arxiv="2101.00001", doi="10.1000/two", year=2023),),
        ),
        actor="t",
        policy="update",
    )
    (rejected,) = plan.rejected
    assert rejected.reason == "arXiv:2101.00001 is paper #1 but DOI 10.1000/two is paper #2"
    assert (rejected.key, rejected.params) == ("identifiers", {"arxiv": 1, "doi": 2})
    # Neither the 2023 edition made on the way nor its audit row survives the rejection, nor
    # does the plan report it as added; the 2022 edition before it in the batch stays.
    assert await db.fetchall("SELECT * FROM editions WHERE year = 2023") == []
    assert [(c.action, c.entity, c.label) for c in plan.changes] == [
        ("add", "edition", "icml 2022")
    ]
    assert await _count(db, "audit") == audit_before + 1


async def test_unknown_venue_is_rejected_with_the_known_ones(
    db: Database, catalog: CatalogRepository
) -> None:
    plan = await catalog.apply(batch(award("X", venue="cvpr")), actor="t", policy="update")
    assert plan.count("add") == 0
    assert "unknown venue 'cvpr' (known: icml, neurips)" in plan.rejected[0].reason
    await db.write(lambda conn: conn.execute("DELETE FROM venues"))
    empty = await catalog.apply(batch(award("X")), actor="t", policy="update")
    assert [r.reason for r in empty.rejected] == ["unknown venue 'icml' (known: none yet)"]


async def test_a_paper_written_twice_in_one_batch_is_found_by_its_last_version(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    papers = await searching.papers()
    await catalog.apply(
        batch(
            award("Preprint Wording", arxiv="2101.00001v1"),
            award("Published Wording", arxiv="2101.00001v2", venue="neurips"),
            award("Another Paper", abstract="Unrelated."),
        ),
        actor="t",
        policy="update",
    )
    (found,) = await papers.search("published wording")
    assert found.paper.arxiv == "2101.00001"
    assert await papers.search("preprint") == []
    assert [p.paper.title for p in await papers.search("unrelated")] == ["Another Paper"]


async def test_fill_policy_keeps_stored_values_and_records_the_other_as_alternative(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    await catalog.apply(
        batch(award("Paper", arxiv="2101.00001", authors=["Ada Lovelace"])),
        actor="t",
        policy="update",
    )
    foreign = award(
        "Paper",
        arxiv="2101.00001",
        authors=["A. Lovelace"],
        abstract="Now with an abstract.",
        sources=[Source(url="https://example.org/list")],
    )
    plan = await catalog.apply(batch(foreign), actor="import", policy="fill")
    assert plan.count("merge", "paper") == 1
    (paper,) = await (await searching.papers()).search("Paper")
    assert paper.paper.authors == ("Ada Lovelace",)
    assert paper.paper.abstract == "Now with an abstract."  # a gap is filled
    (alternative,) = paper.paper.alternatives
    assert (alternative.field, alternative.value) == ("authors", ["A. Lovelace"])
    assert alternative.source.url == "https://example.org/list"


async def test_update_policy_replaces_given_values_and_keeps_the_rest(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    await catalog.apply(
        batch(award("Paper", arxiv="2101.00001", abstract="Kept.", authors=["A"])),
        actor="t",
        policy="update",
    )
    await catalog.apply(
        batch(award("Paper", arxiv="2101.00001", authors=["A", "B"])), actor="t", policy="update"
    )
    (paper,) = await (await searching.papers()).search("Paper")
    assert paper.paper.authors == ("A", "B")
    assert paper.paper.abstract == "Kept."


async def test_new_affiliations_beside_the_same_authors_are_written(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    first = award("Paper", arxiv="2101.00001", authors=["A"], affiliations=["X"])
    await catalog.apply(batch(first), actor="t", policy="update")
    more = award("Paper", arxiv="2101.00001", authors=["A"], affiliations=["X", "Y"])
    plan = await catalog.apply(batch(more), actor="t", policy="update")
    assert [c.fields for c in plan.changes if c.entity == "paper"] == [("affiliations",)]
    (paper,) = await (await searching.papers()).search("Paper")
    assert (paper.paper.authors, paper.paper.affiliations) == (("A",), ("X", "Y"))


async def test_second_identical_write_changes_nothing(
    db: Database, catalog: CatalogRepository
) -> None:
    edition = Edition(venue="icml", year=2025, submissions=12107, accepted=3260)
    records = CatalogBatch(editions=(edition,), awards=(award("P", arxiv="2101.00001"),))
    await catalog.apply(records, actor="t", policy="update")
    audit_before = await _count(db, "audit")
    plan = await catalog.apply(records, actor="t", policy="update")
    assert not plan.changes_anything
    assert await _count(db, "audit") == audit_before


async def test_dry_run_reports_the_same_plan_and_writes_nothing(
    db: Database, catalog: CatalogRepository
) -> None:
    records = batch(award("P", arxiv="2101.00001"), award("Q"), award("P", arxiv="2101.00001v2"))
    audit_before = await _count(db, "audit")
    rehearsal = await catalog.apply(records, actor="t", policy="update", dry_run=True)
    assert await _count(db, "papers") == 0
    assert await _count(db, "audit") == audit_before
    real = await catalog.apply(records, actor="t", policy="update")
    assert rehearsal.changes == real.changes
    assert real.count("add", "paper") == 2
    assert real.count("merge", "paper") == 1


async def test_audit_keeps_before_and_after(db: Database, catalog: CatalogRepository) -> None:
    edition = Edition(venue="icml", year=2024, submissions=9473)
    await catalog.apply(CatalogBatch(editions=(edition,)), actor="t", policy="update")
    corrected = Edition(venue="icml", year=2024, submissions=9653)
    await catalog.apply(CatalogBatch(editions=(corrected,)), actor="curator", policy="update")
    row = await db.fetchone("SELECT before, after FROM audit WHERE actor = 'curator'")
    assert row is not None
    assert json.loads(row["before"])["submissions"] == 9473
    assert json.loads(row["after"])["submissions"] == 9653


async def test_export_then_apply_changes_nothing(db: Database, catalog: CatalogRepository) -> None:
    await catalog.apply(
        CatalogBatch(
            editions=(Edition(venue="icml", year=2025, city="Vancouver", submissions=12107),),
            awards=(
                award(
                    "P", arxiv="2101.00001v2", summaries={"en": "e", "zh-TW": "繁", "zh-CN": "简"}
                ),
                award("P", arxiv="2101.00001", venue="neurips"),
                award("Q", links={"code": "https://example.org/q"}),
            ),
        ),
        actor="t",
        policy="update",
    )
    exported = await catalog.export()
    plan = await catalog.apply(exported, actor="t", policy="update")
    assert not plan.changes_anything
    assert len(exported.awards) == 3


def _release(
    names: tuple[str, str],
    city: str,
    submissions: int,
    award_name: str,
    abstract: str,
    *authors: str,
) -> CatalogBatch:
    """The bundled catalogue of one release: a venue, an edition, an award and its paper."""
    paper = Paper(title="Gated Attention", arxiv="2505.06708", abstract=abstract, authors=authors)
    return CatalogBatch(
        venues=(Venue(key="icml", name=names[0], full_name=names[1]),),
        editions=(Edition(venue="icml", year=2025, city=city, submissions=submissions),),
        awards=(
            Award(
                venue="icml", year=2025, name=award_name, kind=AwardKind.OUTSTANDING, paper=paper
            ),
        ),
    )


async def test_a_bundle_write_leaves_what_anyone_else_set_on_every_kind_of_record(
    db: Database,
) -> None:
    catalog = CatalogRepository(db, SystemClock())
    await catalog.apply(
        _release(("ICML", "ICML in full"), "Vancouver", 100, "Outstanding", "Ours.", "A"),
        actor="bundled",
        policy="update",
    )
    await catalog.apply(
        _release(
            ("ICML (curated)", "ICML in full"),
            "Seoul",
            100,
            "Outstanding (curated)",
            "Curated.",
            "A",
        ),
        actor="curator:1",
        policy="update",
    )
    plan = await catalog.apply(
        _release(("ICML 2", "ICML 2 in full"), "Paris", 200, "Outstanding 2", "Newer.", "A", "B"),
        actor="bundled",
        policy="bundle",
    )
    assert [(c.action, c.entity, c.label, c.fields) for c in plan.changes] == [
        ("change", "venue", "ICML 2", ("full_name",)),
        ("change", "edition", "icml 2025", ("submissions",)),
        ("merge", "paper", "“Gated Attention” arXiv:2505.06708", ("authors",)),
        ("unchanged", "award", "icml 2025 outstanding: Gated Attention", ()),
    ]
    venue = await db.fetchone("SELECT name, full_name FROM venues WHERE key = 'icml'")
    edition = await db.fetchone("SELECT city, submissions FROM editions")
    assert venue is not None
    assert edition is not None
    assert (venue["name"], venue["full_name"]) == ("ICML (curated)", "ICML 2 in full")
    assert (edition["city"], edition["submissions"]) == ("Seoul", 200)
    stored = await PaperRepository(db).by_arxiv("2505.06708")
    assert stored is not None
    assert (stored.paper.abstract, stored.paper.authors) == ("Curated.", ("A", "B"))
    assert [a.name for a in stored.awards] == ["Outstanding (curated)"]


async def test_under_update_the_same_release_takes_every_value(db: Database) -> None:
    catalog = CatalogRepository(db, SystemClock())
    await catalog.apply(
        _release(
            ("ICML (curated)", "ICML in full"),
            "Seoul",
            100,
            "Outstanding (curated)",
            "Curated.",
            "A",
        ),
        actor="curator:1",
        policy="update",
    )
    await catalog.apply(
        _release(("ICML 2", "ICML 2 in full"), "Paris", 200, "Outstanding 2", "Newer.", "A", "B"),
        actor="bundled",
        policy="update",
    )
    stored = await PaperRepository(db).by_arxiv("2505.06708")
    assert stored is not None
    assert stored.paper.abstract == "Newer."
    assert [a.name for a in stored.awards] == ["Outstanding 2"]


async def test_a_confirmed_addition_of_a_stored_paper_is_refused_naming_it(
    catalog: CatalogRepository,
) -> None:
    title = "A Paper Whose Title Runs Well Past Sixty Characters, So Labels Cut It Short"
    first = await catalog.apply(
        batch(award(title, arxiv="2101.00001v2")), actor="t", policy="update"
    )
    assert [c.label for c in first.changes if c.entity == "paper"] == [
        f"“{title[:60]}” arXiv:2101.00001"
    ]
    plan = await catalog.apply(
        batch(award(title, arxiv="2101.00001", year=2024), award("Untitled Elsewhere")),
        actor="discord:1",
        policy="update",
        new_papers_only=True,
    )
    (refused,) = plan.rejected
    assert (refused.key, refused.params) == ("duplicate-paper", {"id": 1})
    assert refused.reason == "the catalogue already has this paper as paper #1"
    assert [(c.action, c.entity, c.label) for c in plan.changes if c.entity == "paper"] == [
        ("add", "paper", "“Untitled Elsewhere”")
    ]


async def test_a_title_a_merge_changes_is_how_the_paper_is_found_and_searched_after(
    db: Database, catalog: CatalogRepository, searching: Searching
) -> None:
    papers = await searching.papers()
    await catalog.apply(batch(award("Old Name", arxiv="2101.00001v3")), actor="t", policy="update")
    plan = await catalog.apply(
        batch(award("Brand New Name", arxiv="2101.00001v1")), actor="t", policy="update"
    )
    assert [(c.action, c.entity, c.label, c.fields) for c in plan.changes] == [
        ("merge", "paper", "“Brand New Name” arXiv:2101.00001", ("title",)),
        ("unchanged", "award", "icml 2025 outstanding: Brand New Name", ()),
    ]
    stored = await papers.by_arxiv("2101.00001")
    assert stored is not None
    assert stored.paper.arxiv_version == 3  # an older version does not take the place of v3
    merged = await db.fetchone("SELECT entity_id FROM audit WHERE action = 'merge'")
    assert merged is not None
    assert merged["entity_id"] == str(stored.id)
    assert [p.id for p in await papers.search("brand new")] == [stored.id]
    again = await catalog.apply(
        batch(award("Brand New Name", abstract="A.")), actor="t", policy="update"
    )
    assert (again.count("add", "paper"), again.count("merge", "paper")) == (0, 1)


async def test_one_title_in_an_edition_with_two_dois_is_two_papers(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(
            award("Same Title", doi="10.1145/1111111"),
            award("Same Title", doi="10.1145/2222222"),
            award("Same Title"),
        ),
        actor="t",
        policy="update",
    )
    row = await db.fetchone("SELECT count(*) FROM papers")
    assert row is not None
    assert row[0] == 2


async def test_each_record_added_is_labelled_and_audited_as_written(
    db: Database, catalog: CatalogRepository
) -> None:
    title = "A Paper Whose Title Runs Well Past Sixty Characters, So Labels Cut It Short"
    plan = await catalog.apply(
        CatalogBatch(
            editions=(Edition(venue="icml", year=2025, city="Vancouver"),),
            awards=(award(title),),
        ),
        actor="t",
        policy="update",
    )
    assert [(c.action, c.entity, c.label, c.fields) for c in plan.changes] == [
        ("add", "edition", "icml 2025", ()),
        ("add", "paper", f"“{title[:60]}”", ()),
        ("add", "award", f"icml 2025 outstanding: {title[:60]}", ()),
    ]
    entries = await AuditRepository(db).in_batch(plan.batch)
    edition, paper, added = entries
    assert (edition.entity, edition.entity_id, edition.before) == ("edition", "1", None)
    assert edition.after is not None
    assert edition.after["city"] == "Vancouver"
    assert added.after is not None
    identity = {k: added.after[k] for k in ("edition_id", "paper_id", "kind", "name")}
    assert identity == {
        "edition_id": 1, "paper_id": int(paper.entity_id), "kind": "outstanding",
        "name": "Outstanding Paper",
    }  # fmt: skip
    changed = await catalog.apply(
        CatalogBatch(editions=(Edition(venue="icml", year=2025, city="Seoul"),)),
        actor="t",
        policy="update",
    )
    assert [(c.action, c.entity, c.label) for c in changed.changes] == [
        ("change", "edition", "icml 2025")
    ]


async def test_the_audit_keeps_text_as_written_not_escaped(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(batch(award("门控注意力", abstract="旧")), actor="t", policy="update")
    await catalog.apply(batch(award("门控注意力", abstract="新")), actor="t", policy="update")
    row = await db.fetchone("SELECT before, after FROM audit WHERE action = 'merge'")
    assert row is not None
    assert '"abstract": "旧"' in row["before"]
    assert '"abstract": "新"' in row["after"]


async def test_fill_keeps_an_editions_and_an_awards_disagreement_with_their_source(
    db: Database, catalog: CatalogRepository
) -> None:
    edition = Edition(venue="icml", year=2025, city="Vancouver")
    await catalog.apply(
        CatalogBatch(editions=(edition,), awards=(award("P"),)), actor="t", policy="update"
    )
    source = Source(url="https://list.example/awards")
    other = Award(
        venue="icml", year=2025, name="Best Paper", kind=AwardKind.OUTSTANDING,
        paper=Paper(title="P"), sources=(source,),
    )  # fmt: skip
    theirs = Edition(venue="icml", year=2025, city="Seoul", sources=(source,))
    await catalog.apply(
        CatalogBatch(editions=(theirs,), awards=(other,)), actor="imp", policy="fill"
    )
    for table, field, value in (("editions", "city", "Seoul"), ("awards", "name", "Best Paper")):
        row = await db.fetchone(f"SELECT alternatives FROM {table}")
        assert row is not None
        (alternative,) = json.loads(row["alternatives"])
        assert (alternative["field"], alternative["value"]) == (field, value)
        assert alternative["source"]["url"] == "https://list.example/awards"


async def test_progress_hears_of_venues_and_editions_then_each_hundred_awards_then_the_rest(
    catalog: CatalogRepository,
) -> None:
    for count, expected in ((100, [1, 100]), (199, [1, 100, 99])):
        heard: list[int] = []
        records = CatalogBatch(
            editions=(Edition(venue="icml", year=1900 + count),),
            awards=tuple(award(f"Paper {count} {i}", year=1900 + count) for i in range(count)),
        )
        plan = await catalog.apply(records, actor="t", policy="update", progress=heard.append)
        assert plan.count("add", "award") == count
        assert heard == expected


async def test_a_rejected_record_says_where_it_was_in_the_batch(
    catalog: CatalogRepository,
) -> None:
    title = "An Award Title That Goes On and On, Well Past the Eighty Characters Kept in a Label"
    plan = await catalog.apply(
        CatalogBatch(
            editions=(Edition(venue="cvpr", year=2025),),
            awards=(award(title, venue="cvpr"),),
        ),
        actor="t",
        policy="update",
    )
    assert [(r.where, r.key, r.params) for r in plan.rejected] == [
        ("edition cvpr 2025", "unknown-venue", {"venue": "cvpr"}),
        (f"award cvpr 2025 “{title[:80]}”", "unknown-venue", {"venue": "cvpr"}),
    ]


async def test_a_venue_added_is_labelled_by_its_name_and_audited_whole(db: Database) -> None:
    plan = await CatalogRepository(db, SystemClock()).apply(
        CatalogBatch(
            venues=(Venue(key="iclr", name="ICLR", full_name="Learning Representations"),)
        ),
        actor="t",
        policy="update",
    )
    assert [(c.action, c.entity, c.label) for c in plan.changes] == [("add", "venue", "ICLR")]
    (entry,) = await AuditRepository(db).in_batch(plan.batch)
    assert (entry.entity_id, entry.after) == (
        "iclr",
        {"name": "ICLR", "full_name": "Learning Representations", "url": None, "aliases": []},
    )


# -- a new release (`bundle`) meeting what curators removed: bot/store/catalog/curated.py -----

RELEASE = "laurel bundled catalogue"  # the actor the bundled data writes as


def _kinded(title: str, kind: AwardKind) -> Award:
    return award(title, arxiv="2501.00001").model_copy(
        update={"kind": kind, "name": kind.value.title()}
    )


async def _runner_up_removed(
    db: Database, catalog: CatalogRepository, title: str, *, actor: str, policy: Policy
) -> int:
    """`title`'s runner-up award, written by `actor` under `policy`, then removed by a
    curator: its id."""
    await catalog.apply(batch(_kinded(title, AwardKind.RUNNER_UP)), actor=actor, policy=policy)
    row = await db.fetchone("SELECT id FROM awards WHERE kind = 'runner-up'")
    assert row is not None
    await catalog.remove("award", int(row[0]), actor="discord:1")
    return int(row[0])


async def _live_kinds(db: Database, title: str) -> list[str]:
    rows = await db.fetchall(
        "SELECT a.kind FROM live_awards AS a JOIN papers AS p ON p.id = a.paper_id"
        " WHERE p.title = ? ORDER BY a.kind",
        (title,),
    )
    return [str(r[0]) for r in rows]


async def test_a_release_that_rekinds_an_award_a_curator_removed_keeps_it_removed(
    db: Database, catalog: CatalogRepository
) -> None:
    title = "Gated Attention"
    removed = await _runner_up_removed(db, catalog, title, actor=RELEASE, policy="bundle")
    plan = await catalog.apply(
        batch(_kinded(title, AwardKind.BEST)), actor=RELEASE, policy="bundle"
    )
    assert plan.rejected == []
    assert plan.count("add", "award") == 0
    kept = [c.label for c in plan.changes if c.entity == "award" and c.action == "unchanged"]
    assert kept == [
        f"award icml 2025 “{title}”: award #{removed} was removed by a curator; kept removed"
    ]
    assert await _live_kinds(db, title) == []


async def test_a_release_adds_a_new_kind_beside_a_removed_award_it_still_carries(
    db: Database, catalog: CatalogRepository
) -> None:
    title = "Gated Attention"
    await _runner_up_removed(db, catalog, title, actor=RELEASE, policy="bundle")
    both = batch(_kinded(title, AwardKind.RUNNER_UP), _kinded(title, AwardKind.BEST))
    plan = await catalog.apply(both, actor=RELEASE, policy="bundle")
    assert plan.rejected == []
    assert plan.count("add", "award") == 1  # the new kind; the removed one stays removed
    assert await _live_kinds(db, title) == ["best"]


async def test_only_the_release_that_added_an_award_rekinds_it_and_an_update_adds_it(
    db: Database, catalog: CatalogRepository
) -> None:
    title = "Gated Attention"
    await _runner_up_removed(db, catalog, title, actor="discord:2", policy="update")
    plan = await catalog.apply(
        batch(_kinded(title, AwardKind.BEST)), actor=RELEASE, policy="bundle"
    )
    assert plan.count("add", "award") == 1  # a curator's award is not the release's to carry
    assert await _live_kinds(db, title) == ["best"]


async def test_a_release_that_corrects_a_title_a_curator_removed_adds_no_paper(
    db: Database, catalog: CatalogRepository
) -> None:
    typo, corrected = "Online Bosting", "Online Boosting"
    await catalog.apply(batch(award(typo)), actor=RELEASE, policy="bundle")
    row = await db.fetchone("SELECT id FROM papers WHERE title = ?", (typo,))
    assert row is not None
    await catalog.remove("paper", int(row[0]), actor="discord:1")
    plan = await catalog.apply(batch(award(corrected)), actor=RELEASE, policy="bundle")
    assert plan.rejected == []
    assert (plan.count("add", "paper"), plan.count("add", "award")) == (0, 0)
    assert await db.fetchall("SELECT id FROM live_papers") == []
    # A title far from every removed one is a new paper.
    other = await catalog.apply(batch(award("Gated Attention")), actor=RELEASE, policy="bundle")
    assert other.count("add", "paper") == 1


async def test_outside_a_release_a_new_kind_is_added_beside_a_removed_one(
    db: Database, catalog: CatalogRepository
) -> None:
    title = "Gated Attention"
    await _runner_up_removed(db, catalog, title, actor="import", policy="update")
    # Only a release (`bundle`) reads a removed award of its own as the one it re-kinds.
    plan = await catalog.apply(
        batch(_kinded(title, AwardKind.BEST)), actor="import", policy="update"
    )
    assert plan.count("add", "award") == 1
    assert await _live_kinds(db, title) == ["best"]
