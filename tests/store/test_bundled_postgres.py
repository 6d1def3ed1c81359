"""The bundled catalogue on PostgreSQL (issue 15): loaded through the one write path, it is the
same catalogue as on SQLite row for row, every read of it answers as on SQLite, and the derived
index built from it ranks every query of the relevance set exactly as the one built from
SQLite."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest

from benchmarks.relevance import make_cases
from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.domain.areas import ResearchArea
from bot.domain.clock import SystemClock
from bot.domain.institutions import load_institutions
from bot.domain.models import AwardKind
from bot.domain.subscriptions import DigestFilter
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.enrichment import EnrichmentRepository
from bot.store.catalog.leaderboards import LeaderboardRepository
from bot.store.catalog.links import LinkRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.digest_content import DigestContentRepository
from bot.store.search.index import SearchIndex
from bot.store.search.semantic import load_embedder
from bot.store.search.store import store_of
from bot.store.search.text import parse
from tests.support.backends import open_postgres, open_sqlite
from tests.support.postgres import Copies, PostgresServer

# Every catalogue table, in an order that names each row once; the audit without its times
# and batch ids (each load stamps its own).
_TABLES = {
    "venues": "SELECT * FROM venues ORDER BY key",
    "editions": "SELECT * FROM editions ORDER BY id",
    "papers": "SELECT * FROM papers ORDER BY id",
    "paper_authors": "SELECT * FROM paper_authors ORDER BY paper_id, position",
    "paper_affiliations": "SELECT * FROM paper_affiliations ORDER BY paper_id, position",
    "awards": "SELECT * FROM awards ORDER BY id",
    "audit": """
        SELECT id, actor, action, entity, entity_id, before, after FROM audit ORDER BY id
    """,
}


def _copy(template: Path, folder: Path) -> Path:
    """The SQLite catalogue built once for the session, copied: this test's own to open."""
    copy = folder / "laurel.db"
    copy.write_bytes(template.read_bytes())
    return copy


@pytest.fixture(scope="module")
def bundled_postgres(postgres_server: PostgresServer, postgres_copies: Copies) -> Iterator[str]:
    """A PostgreSQL database the bundled catalogue was loaded into (once for this module)."""
    name = postgres_copies.take()

    async def load() -> None:
        async with await open_postgres(postgres_server.url(name)) as db:
            plan = await load_bundled_into(CatalogParts.over(db, SystemClock()))
            assert plan is not None
            assert plan.rejected == []

    asyncio.run(load())
    try:
        yield postgres_server.url(name)
    finally:
        postgres_server.drop_database(name)


async def test_the_bundled_catalogue_loads_into_postgresql_row_for_row_as_into_sqlite(
    bundled_postgres: str, template_db: Path, tmp_path: Path
) -> None:
    async with (
        await open_postgres(bundled_postgres) as postgresql,
        await open_sqlite(_copy(template_db, tmp_path), create=False) as sqlite,
    ):
        counts = [
            (await postgresql.fetchone(f"SELECT count(*) FROM {table}") or (0,))[0]
            for table in ("live_papers", "live_awards", "venues")
        ]
        assert counts == [870, 875, 20]  # issue 24: ICLR 2020 awards never given out, others in
        for table, sql in _TABLES.items():
            expected = [tuple(r) for r in await sqlite.fetchall(sql)]
            found = [tuple(r) for r in await postgresql.fetchall(sql)]
            assert found == expected, table


async def test_the_index_built_from_postgresql_ranks_every_query_as_from_sqlite(
    bundled_postgres: str, template_db: Path, tmp_path: Path
) -> None:
    institutions = load_institutions()
    async with (
        await open_postgres(bundled_postgres) as postgresql,
        await open_sqlite(_copy(template_db, tmp_path), create=False) as sqlite,
    ):
        cases = await sqlite.snapshot(make_cases)
        # with the meaning model: an answer no paper has every word of is ranked by it too
        indexes = [
            SearchIndex(store_of(db), None, embedder=load_embedder) for db in (sqlite, postgresql)
        ]
        for index in indexes:
            await index.start()
        try:
            for case in cases:
                parsed = parse(case.query, institutions)
                assert parsed is not None
                ranked = [index.page_now(parsed, limit=5) for index in indexes]
                assert ranked[1] == ranked[0], case
            parsed = parse("translating between languages with little parallel text")
            assert parsed is not None
            ranked = [index.page_now(parsed, limit=5) for index in indexes]
            assert ranked[1] == ranked[0]
            # And a page read through PostgreSQL is the page read through SQLite.
            pages = [
                await PaperRepository(db, institutions, index).search("learning", limit=10)
                for db, index in zip((sqlite, postgresql), indexes, strict=True)
            ]
            assert pages[1] == pages[0]
            assert len(pages[0]) == 10
        finally:
            for index in indexes:
                await index.close()


_FILTER = DigestFilter(venue="icml", year_from=2010, year_to=2024)


# Every read of the catalogue the commands, digests and CLI make, with and without filters.
def _boards(db: Database) -> LeaderboardRepository:
    return LeaderboardRepository(db, load_institutions())


_READS: list[tuple[str, Callable[[Database], Awaitable[object]]]] = [
    ("paper", lambda db: PaperRepository(db).get(5)),
    ("by arXiv", lambda db: PaperRepository(db).by_arxiv("2309.07906")),
    ("holder", lambda db: PaperRepository(db).holder(arxiv="2309.07906")),
    ("awarded at", lambda db: PaperRepository(db).awarded_at("neurips", 2023)),
    (
        "awarded kind",
        lambda db: PaperRepository(db).awarded_at("iclr", 2024, AwardKind.OUTSTANDING),
    ),
    ("with award", lambda db: PaperRepository(db).with_award(AwardKind.BEST, venue="aaai")),
    ("test of time", lambda db: PaperRepository(db).test_of_time()),
    ("test of time at", lambda db: PaperRepository(db).test_of_time(venue="icml")),
    ("ids", lambda db: PaperRepository(db).ids()),
    ("ids filtered", lambda db: PaperRepository(db).ids(venue="icml", first=2015, last=2024)),
    (
        "ids of an area",
        lambda db: PaperRepository(db).ids(area=ResearchArea.REINFORCEMENT_LEARNING),
    ),
    ("by ids", lambda db: PaperRepository(db).by_ids([7, 3, 99, 5000])),
    ("awards of", lambda db: PaperRepository(db).awards_of([1, 2, 3, 50])),
    ("count", lambda db: PaperRepository(db).count()),
    ("institutions", lambda db: _boards(db).institution_credit(limit=100)),
    ("institutions at", lambda db: _boards(db).institution_credit(venue="neurips")),
    ("authors", lambda db: _boards(db).author_awards(limit=100)),
    ("authors in years", lambda db: _boards(db).author_awards(first=2010, last=2020)),
    ("venues", lambda db: EditionRepository(db).venues()),
    ("coverage", lambda db: EditionRepository(db).coverage()),
    ("editions", lambda db: EditionRepository(db).editions("icml")),
    ("editions in a year", lambda db: EditionRepository(db).editions_in_year(2024)),
    ("award tallies", lambda db: EditionRepository(db).award_tallies("neurips")),
    ("incomplete", lambda db: EnrichmentRepository(db).incomplete()),
    ("incomplete, 3", lambda db: EnrichmentRepository(db).incomplete(limit=3)),
    ("without arXiv", lambda db: EnrichmentRepository(db).without_arxiv()),
    ("link coverage", lambda db: LinkRepository(db).coverage()),
    ("digest papers", lambda db: DigestContentRepository(db).paper_ids(DigestFilter())),
    ("digest papers filtered", lambda db: DigestContentRepository(db).paper_ids(_FILTER)),
    ("digest editions", lambda db: DigestContentRepository(db).award_edition_ids(_FILTER)),
    ("statistics", lambda db: DigestContentRepository(db).statistics_edition_ids(DigestFilter())),
    ("new awards", lambda db: DigestContentRepository(db).added_awards(1000, DigestFilter())),
    ("export", lambda db: CatalogRepository(db, SystemClock()).export()),
]


async def test_every_catalogue_read_answers_on_postgresql_as_on_sqlite(
    bundled_postgres: str, template_db: Path, tmp_path: Path
) -> None:
    async with (
        await open_postgres(bundled_postgres) as postgresql,
        await open_sqlite(_copy(template_db, tmp_path), create=False) as sqlite,
    ):
        for name, read in _READS:
            expected = await read(sqlite)
            assert expected, name  # a read that finds nothing would prove nothing
            assert await read(postgresql) == expected, name
