from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from bot.domain.models import CatalogBatch, Edition, Source
from bot.store.catalog import CatalogRepository
from bot.store.database import Database
from tests.store.conftest import award, batch
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
        batch(award("Both", arxiv="2101.00001", doi="10.1000/two", year=2023)),
        actor="t",
        policy="update",
    )
    assert len(plan.rejected) == 1
    assert "is paper #" in plan.rejected[0].reason
    # Neither the 2023 edition made on the way nor any audit row survives the rejection.
    assert await db.fetchall("SELECT * FROM editions WHERE year = 2023") == []
    assert await _count(db, "audit") == audit_before


async def test_unknown_venue_is_rejected_with_the_known_ones(catalog: CatalogRepository) -> None:
    plan = await catalog.apply(batch(award("X", venue="cvpr")), actor="t", policy="update")
    assert plan.count("add") == 0
    assert "unknown venue 'cvpr' (known: icml, neurips)" in plan.rejected[0].reason


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
