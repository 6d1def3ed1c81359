"""What the paper of the day picks from (issue 27): by default the main paper awards (best,
outstanding, runner-up, honorable mention, test of time); a student abstract, a demo or a
presentation award only when a subscription asks for that kind."""

from __future__ import annotations

from bot.domain.awards import is_main_award
from bot.domain.models import Award, AwardKind, Paper
from bot.domain.subscriptions import DigestFilter
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.digest_content import DigestContentRepository
from tests.support.awards import batch


def _award(title: str, name: str, kind: AwardKind) -> Award:
    return Award(
        venue="icml", year=2025, name=name, kind=kind, paper=Paper.model_validate({"title": title})
    )


async def _seed(db: Database, catalog: CatalogRepository) -> dict[str, int]:
    await catalog.apply(
        batch(
            _award("A best paper", "Best Paper", AwardKind.BEST),
            _award("A runner-up", "Outstanding Paper Runner Up", AwardKind.RUNNER_UP),
            _award("A classic", "Test of Time Award", AwardKind.TEST_OF_TIME),
            _award("A volleyball machine demo", "Best Demo Paper", AwardKind.BEST),
            _award("A talk", "Best 3-Minute Presentation", AwardKind.BEST),
            _award("An abstract", "Best Student Abstract", AwardKind.STUDENT),
        ),
        actor="t",
        policy="update",
    )
    papers = await PaperRepository(db).by_ids(await PaperRepository(db).ids())
    return {p.paper.title: p.id for p in papers}


async def test_the_default_is_the_main_paper_awards(
    db: Database, catalog: CatalogRepository
) -> None:
    ids = await _seed(db, catalog)
    main = {ids["A best paper"], ids["A runner-up"], ids["A classic"]}
    assert set(await DigestContentRepository(db).paper_ids(DigestFilter())) == main
    assert set(await PaperRepository(db).main_award_ids()) == main


async def test_a_kind_asked_for_brings_its_awards(db: Database, catalog: CatalogRepository) -> None:
    ids = await _seed(db, catalog)
    content = DigestContentRepository(db)
    students = await content.paper_ids(DigestFilter(kind=AwardKind.STUDENT))
    assert students == [ids["An abstract"]]
    best = set(await content.paper_ids(DigestFilter(kind=AwardKind.BEST)))
    assert ids["A volleyball machine demo"] in best


def test_what_counts_as_a_main_award() -> None:
    assert is_main_award(AwardKind.HONORABLE_MENTION, "Best Paper Honorable Mention")
    assert not is_main_award(AwardKind.BEST, "Best System Demonstration Paper")
    assert not is_main_award(AwardKind.DISTINGUISHED, "Distinguished Paper")
