"""The `bundle` policy on both backends: a new release's bundled catalogue meets what curators
did, which the audit says (bot/store/curated.py reads it, with JSON functions each engine spells
its own way)."""

from __future__ import annotations

from bot.domain.models import AwardKind, Paper
from bot.store.catalog import CatalogRepository
from bot.store.database import Database
from bot.store.papers import PaperRepository
from tests.store.conftest import award, batch

BUNDLED = "bundled data"


async def test_a_title_a_curator_changed_stays_theirs_and_the_paper_is_found_by_its_old_one(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(batch(award("Gated Attention")), actor=BUNDLED, policy="update")
    papers = PaperRepository(db)
    (stored,) = await papers.awarded_at("icml", 2025)
    renamed = stored.paper.model_copy(update={"title": "Gated Attention for LLMs"})
    await catalog.replace_paper(stored.id, renamed, actor="discord:1")
    # The next release still says the old title, and now has an abstract.
    plan = await catalog.apply(
        batch(award("Gated Attention", abstract="We gate attention.")),
        actor=BUNDLED,
        policy="bundle",
    )
    assert plan.count("add", "paper") == 0  # the renamed paper, found by its former title
    (after,) = await papers.awarded_at("icml", 2025)
    assert after.id == stored.id
    assert after.paper.title == "Gated Attention for LLMs"  # the curator's
    assert after.paper.abstract == "We gate attention."  # the release's, where nobody wrote


async def test_fields_a_curator_set_stay_and_what_they_removed_stays_removed(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(award("Kept", arxiv="2101.00001"), award("Removed", arxiv="2101.00002")),
        actor=BUNDLED,
        policy="update",
    )
    papers = PaperRepository(db)
    kept = await papers.by_arxiv("2101.00001")
    removed = await papers.by_arxiv("2101.00002")
    assert kept is not None
    assert removed is not None
    await catalog.replace_paper(
        kept.id, Paper(title="Kept", arxiv="2101.00001", abstract="A curator's."), actor="d:1"
    )
    await catalog.remove("paper", removed.id, actor="d:1")
    plan = await catalog.apply(
        batch(
            award("Kept", arxiv="2101.00001", abstract="The release's.", year=2025),
            award("Removed", arxiv="2101.00002", abstract="Back?"),
        ),
        actor=BUNDLED,
        policy="bundle",
    )
    assert plan.rejected == []
    assert [c.action for c in plan.changes if c.entity == "award"] == ["unchanged", "unchanged"]
    after = await papers.get(kept.id)
    assert after is not None
    assert after.paper.abstract == "A curator's."
    assert await papers.get(removed.id) is None


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


async def test_a_curators_summary_stays_per_language_and_a_new_release_fills_the_others(
    db: Database, catalog: CatalogRepository
) -> None:
    first = {"en": "The release's.", "zh-TW": "發行版的。"}
    await catalog.apply(
        batch(award("Kept", arxiv="2101.00001", summaries=first, area="Computer Vision")),
        actor=BUNDLED,
        policy="update",
    )
    papers = PaperRepository(db)
    stored = await papers.by_arxiv("2101.00001")
    assert stored is not None
    edited = stored.paper.model_copy(
        update={"summaries": {"en": "A curator's."}, "area": "NLP & Language"}
    )  # en rewritten, zh-TW cleared, the area changed
    await catalog.replace_paper(stored.id, edited, actor="discord:1")
    later = {"en": "The next release's.", "zh-TW": "下一版的。", "zh-CN": "下一版的。"}
    await catalog.apply(
        batch(award("Kept", arxiv="2101.00001", summaries=later, area="Computer Vision")),
        actor=BUNDLED,
        policy="bundle",
    )
    after = await papers.get(stored.id)
    assert after is not None
    assert after.paper.summaries == {"en": "A curator's.", "zh-CN": "下一版的。"}
    assert after.paper.area == "NLP & Language"
