"""The `bundle` policy meets a release that corrects what an earlier one said (issue 22): a
title's typo fixed, an award's kind changed. What a curator removed stays removed; a live
paper is corrected in place (bot/store/catalog/curated.py: a record's identity across releases)."""

from __future__ import annotations

from bot.domain.models import AwardKind
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.awards import award, batch

BUNDLED = "bundled data"


async def test_a_release_fixing_a_removed_papers_title_typo_keeps_it_removed(
    db: Database, catalog: CatalogRepository
) -> None:
    """Issue 22: the typo fix brought the removed paper back as a new one with a live award."""
    typo = "Optimal and Adaptive Algorithms for Online Bosting"
    await catalog.apply(
        batch(award(typo), award("Another paper of the edition")), actor=BUNDLED, policy="update"
    )
    papers = PaperRepository(db)
    (removed,) = [p for p in await papers.awarded_at("icml", 2025) if p.paper.title == typo]
    await catalog.remove("paper", removed.id, actor="discord:1")
    plan = await catalog.apply(
        batch(
            award("Optimal and Adaptive Algorithms for Online Boosting"),
            award("Another paper of the edition"),
            award("A paper new in this release"),
        ),
        actor=BUNDLED,
        policy="bundle",
    )
    assert plan.rejected == []
    assert plan.count("add", "paper") == 1  # only the new one
    titles = sorted(p.paper.title for p in await papers.awarded_at("icml", 2025))
    assert titles == ["A paper new in this release", "Another paper of the edition"]
    assert await db.fetchall("SELECT id FROM live_papers WHERE title LIKE '%Boost%'") == []
    assert await db.fetchall("SELECT id FROM live_awards WHERE paper_id = ?", (removed.id,)) == []


async def test_a_release_fixing_a_live_papers_title_typo_corrects_it_in_place(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(award("Gaussian Processes for Big Dta")), actor=BUNDLED, policy="update"
    )
    papers = PaperRepository(db)
    (before,) = await papers.awarded_at("icml", 2025)
    await catalog.apply(
        batch(award("Gaussian Processes for Big Data")), actor=BUNDLED, policy="bundle"
    )
    (after,) = await papers.awarded_at("icml", 2025)
    assert (after.id, after.paper.title) == (before.id, "Gaussian Processes for Big Data")


async def test_a_release_changing_a_removed_awards_kind_keeps_it_removed(
    db: Database, catalog: CatalogRepository
) -> None:
    """Issue 22: a changed kind made the removed award a new one."""
    await catalog.apply(
        batch(award("Kinds change"), award("Kept as it was")), actor=BUNDLED, policy="update"
    )
    papers = PaperRepository(db)
    (paper,) = [p for p in await papers.awarded_at("icml", 2025) if p.paper.title == "Kinds change"]
    (award_id,) = [
        r[0] for r in await db.fetchall("SELECT id FROM awards WHERE paper_id = ?", (paper.id,))
    ]
    await catalog.remove("award", int(award_id), actor="discord:1")
    best = award("Kinds change").model_copy(update={"kind": AwardKind.BEST, "name": "Best Paper"})
    plan = await catalog.apply(batch(best, award("Kept as it was")), actor=BUNDLED, policy="bundle")
    assert plan.rejected == []
    assert plan.count("add", "award") == 0
    assert [p.paper.title for p in await papers.awarded_at("icml", 2025)] == ["Kept as it was"]
    assert await papers.awarded_at("icml", 2025, AwardKind.BEST) == []


async def test_a_second_award_of_a_paper_is_still_added_when_another_was_removed(
    db: Database, catalog: CatalogRepository
) -> None:
    """The removed award is still in the release as it was: a new kind is a new award."""
    await catalog.apply(batch(award("Two awards")), actor=BUNDLED, policy="update")
    (row,) = await db.fetchall("SELECT id FROM awards")
    await catalog.remove("award", int(row[0]), actor="discord:1")
    best = award("Two awards").model_copy(update={"kind": AwardKind.BEST, "name": "Best Paper"})
    plan = await catalog.apply(batch(award("Two awards"), best), actor=BUNDLED, policy="bundle")
    assert plan.count("add", "award") == 1
    papers = PaperRepository(db)
    (only,) = await papers.awarded_at("icml", 2025)
    assert [a.kind for a in only.awards] == [AwardKind.BEST]
