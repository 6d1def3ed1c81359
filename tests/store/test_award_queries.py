"""The queries behind /awards: awards per edition and kind, and papers holding a kind of award."""

from __future__ import annotations

from bot.domain.models import Award, AwardKind, Paper
from bot.store.catalog.editions import AwardTally, EditionRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.awards import award, batch


def _award(title: str, kind: AwardKind, *, venue: str = "icml", year: int = 2025) -> Award:
    return Award(
        venue=venue, year=year, name=kind.value, kind=kind, paper=Paper(title=title, year=2015)
    )


async def _fill(catalog: CatalogRepository) -> None:
    await catalog.apply(
        batch(
            award("One"),
            award("Two"),
            _award("Old classic", AwardKind.TEST_OF_TIME),
            _award("Older classic", AwardKind.TEST_OF_TIME, year=2023),
            _award("Elsewhere", AwardKind.TEST_OF_TIME, venue="neurips", year=2024),
            _award("Mentioned", AwardKind.HONORABLE_MENTION, year=2023),
        ),
        actor="test",
        policy="update",
    )


async def test_award_tallies_count_each_kind_per_year_newest_first(
    db: Database, catalog: CatalogRepository
) -> None:
    await _fill(catalog)
    tallies = await EditionRepository(db).award_tallies("icml")
    assert tallies == [
        AwardTally(2025, AwardKind.OUTSTANDING, 2),
        AwardTally(2025, AwardKind.TEST_OF_TIME, 1),
        AwardTally(2023, AwardKind.HONORABLE_MENTION, 1),
        AwardTally(2023, AwardKind.TEST_OF_TIME, 1),
    ]
    assert await EditionRepository(db).award_tallies("nowhere") == []


async def test_with_award_finds_the_papers_of_a_kind_latest_first(
    db: Database, catalog: CatalogRepository
) -> None:
    await _fill(catalog)
    papers = PaperRepository(db)
    everywhere = await papers.with_award(AwardKind.TEST_OF_TIME)
    assert [p.paper.title for p in everywhere] == ["Old classic", "Elsewhere", "Older classic"]
    at_icml = await papers.with_award(AwardKind.TEST_OF_TIME, venue="icml")
    assert [p.paper.title for p in at_icml] == ["Old classic", "Older classic"]
    assert [a.kind for a in at_icml[0].awards] == [AwardKind.TEST_OF_TIME]
    assert await papers.with_award(AwardKind.CLASSIC) == []
    assert len(await papers.with_award(AwardKind.TEST_OF_TIME, limit=1)) == 1


async def test_test_of_time_includes_the_runners_up_and_mentions_named_beside_it(
    db: Database, catalog: CatalogRepository
) -> None:
    await _fill(catalog)  # "Mentioned" is a plain honorable mention: not test of time
    mention = _award("Beside it", AwardKind.HONORABLE_MENTION, year=2024)
    runner_up = _award("Close second", AwardKind.RUNNER_UP, venue="neurips", year=2024)
    await catalog.apply(
        batch(
            mention.model_copy(update={"name": "Honorable Mention", "track": "Test of Time"}),
            runner_up.model_copy(update={"name": "Test of Time Award Runner-Up"}),
        ),
        actor="test",
        policy="update",
    )
    papers = PaperRepository(db)
    found = [p.paper.title for p in await papers.test_of_time()]
    assert found == ["Old classic", "Elsewhere", "Beside it", "Close second", "Older classic"]
    at_icml = [p.paper.title for p in await papers.test_of_time(venue="icml")]
    assert at_icml == ["Old classic", "Beside it", "Older classic"]
