"""The queries behind /stats institutions and /stats authors, on real SQLite."""

from __future__ import annotations

import pytest

from bot.domain.institutions import InstitutionAliases, load_institutions
from bot.domain.leaderboards import AuthorAwards, InstitutionCredit
from bot.domain.models import Award, AwardKind, Paper
from bot.domain.people import People, Person
from bot.store.catalog.leaderboards import LeaderboardRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.awards import batch

TWICE = "2101.00001"


def _award(
    title: str,
    *,
    venue: str = "icml",
    year: int = 2025,
    kind: AwardKind = AwardKind.OUTSTANDING,
    affiliations: tuple[str, ...] = (),
    authors: tuple[str, ...] = (),
    arxiv: str | None = None,
) -> Award:
    paper = Paper(title=title, affiliations=affiliations, authors=authors, arxiv=arxiv)
    return Award(venue=venue, year=year, name=kind.value, kind=kind, paper=paper)


async def test_a_paper_splits_its_credit_among_its_institutions(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(
            _award("Three ways", affiliations=("Alpha", "Beta", "Gamma")),
            _award("Alone", affiliations=("Alpha",)),
            _award("Nobody", authors=("Ada Lovelace",)),
        ),
        actor="test",
        policy="update",
    )
    board = await LeaderboardRepository(db, load_institutions()).institution_credit()

    assert board.entries[0] == InstitutionCredit("Alpha", pytest.approx(4 / 3), 2)  # type: ignore[arg-type]
    assert [(e.name, round(e.credit, 4)) for e in board.entries[1:]] == [
        ("Beta", 0.3333),
        ("Gamma", 0.3333),
    ]
    assert board.ranked == 3
    assert board.papers == 2  # the paper without affiliations gives no credit
    assert sum(e.credit for e in board.entries) == pytest.approx(board.papers)


async def test_a_paper_counts_once_per_edition_that_awarded_it(
    db: Database, catalog: CatalogRepository
) -> None:
    alpha = ("Alpha",)
    await catalog.apply(
        batch(
            _award("Twice", affiliations=alpha, arxiv=TWICE),
            _award("Twice", affiliations=alpha, arxiv=TWICE, kind=AwardKind.STUDENT),
            _award(
                "Twice",
                affiliations=alpha,
                arxiv=TWICE,
                venue="neurips",
                year=2035,
                kind=AwardKind.TEST_OF_TIME,
            ),
        ),
        actor="test",
        policy="update",
    )
    boards = LeaderboardRepository(db, load_institutions())

    everything = await boards.institution_credit()
    assert everything.entries == (InstitutionCredit("Alpha", 2.0, 1),)
    assert everything.papers == 2  # the paper at two editions

    at_icml = await boards.institution_credit(venue="icml")
    assert at_icml.entries == (InstitutionCredit("Alpha", 1.0, 1),)
    later = await boards.institution_credit(first=2030)
    assert later.entries == (InstitutionCredit("Alpha", 1.0, 1),)
    assert (await boards.institution_credit(first=2026, last=2034)).entries == ()


async def test_institution_names_group_regardless_of_case_but_not_more(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(
            _award("One", affiliations=("MIT", "mit")),
            _award("Two", affiliations=("Mit",)),
            _award("Three", affiliations=("MIT CSAIL",)),
        ),
        actor="test",
        policy="update",
    )
    board = await LeaderboardRepository(db, InstitutionAliases([])).institution_credit()

    assert board.entries == (
        InstitutionCredit("MIT", 2.0, 2),  # "MIT" and "mit" on one paper are one institution
        InstitutionCredit("MIT CSAIL", 1.0, 1),
    )


async def test_the_leaderboard_is_cut_at_its_limit_but_counts_everyone(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(*(_award(f"Paper {i}", affiliations=(f"Lab {i}",)) for i in range(5))),
        actor="test",
        policy="update",
    )
    board = await LeaderboardRepository(db, load_institutions()).institution_credit(limit=2)
    assert [e.name for e in board.entries] == ["Lab 0", "Lab 1"]  # ties by name
    assert (board.ranked, board.papers) == (5, 5)


async def test_authors_by_distinct_awarded_papers_then_awards(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(
            _award("First", authors=("Ada Lovelace", "Alan Turing")),
            _award("First", authors=("Ada Lovelace", "Alan Turing"), kind=AwardKind.STUDENT),
            _award("Second", authors=("ada lovelace",), year=2024),
            _award("Third", authors=("Grace Hopper",), venue="neurips"),
        ),
        actor="test",
        policy="update",
    )
    boards = LeaderboardRepository(db, load_institutions())

    board = await boards.author_awards()
    assert board.entries == (
        AuthorAwards("Ada Lovelace", papers=2, awards=3),
        AuthorAwards("Alan Turing", papers=1, awards=2),
        AuthorAwards("Grace Hopper", papers=1, awards=1),
    )
    assert (board.ranked, board.papers) == (3, 3)

    in_2025_at_icml = await boards.author_awards(venue="icml", first=2025, last=2025)
    assert [(e.name, e.papers) for e in in_2025_at_icml.entries] == [
        ("Ada Lovelace", 1),
        ("Alan Turing", 1),
    ]
    assert (await boards.author_awards(last=2000)).entries == ()


async def test_one_persons_spellings_count_as_one_under_the_spelling_shown(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(
            _award("One", authors=("Alexander Rush", "Yoon Kim")),
            _award("Two", authors=("Alexander M. Rush",)),
            _award("Three", authors=("alexander rush", "Alexander M. Rush")),  # one paper once
            _award("Four", authors=("Alexander Rushmore",)),  # another person
        ),
        actor="test",
        policy="update",
    )
    people = People([Person("Alexander M. Rush", ("Alexander Rush",), "https://example.org/p")])
    board = await LeaderboardRepository(db, load_institutions(), people).author_awards()
    assert board.entries == (
        AuthorAwards("Alexander M. Rush", papers=3, awards=3),
        AuthorAwards("Alexander Rushmore", papers=1, awards=1),
        AuthorAwards("Yoon Kim", papers=1, awards=1),
    )
    assert (board.ranked, board.papers) == (3, 4)
    apart = await LeaderboardRepository(db, load_institutions(), People([])).author_awards()
    assert [(e.name, e.papers) for e in apart.entries[:2]] == [
        ("Alexander M. Rush", 2),
        ("Alexander Rush", 2),
    ]


async def test_an_institutions_names_count_as_one_under_its_english_name(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(
            _award("One", affiliations=("Tsinghua University",)),
            _award("Two", affiliations=("清華大學",)),
            _award("Three", affiliations=("清华大学", "tsinghua")),
            _award("Four", affiliations=("Peking University",)),
        ),
        actor="test",
        policy="update",
    )
    board = await LeaderboardRepository(db, load_institutions()).institution_credit()
    assert board.entries == (
        InstitutionCredit("Tsinghua University", 3.0, 3),
        InstitutionCredit("Peking University", 1.0, 1),
    )
    assert board.ranked == 2
