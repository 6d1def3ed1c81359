"""The `bundle` policy on both backends: a new release's bundled catalogue meets what curators
did, which the audit says (bot/store/catalog/curated.py reads it, with JSON functions each
engine spells its own way)."""

from __future__ import annotations

from bot.domain.areas import ResearchArea
from bot.domain.models import Paper
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.awards import award, batch

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
        update={"summaries": {"en": "A curator's."}, "area": ResearchArea.NLP_LANGUAGE}
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
