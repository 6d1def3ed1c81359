"""The bundled catalogue: valid, sourced, summarised, and every seed fact answerable."""

from __future__ import annotations

import asyncio
import shutil
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.catalog.bundled import documents, load_bundled
from bot.catalog.document import merge, read_document
from bot.domain.clock import SystemClock
from bot.domain.models import LANGUAGES, AwardKind, CatalogBatch
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.backends import open_sqlite

BUNDLED = load_bundled()
HAND_WRITTEN = merge(
    read_document(text, name) for name, text in documents() if name.startswith("20")
)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The whole catalogue, loaded once per module (about two seconds); tests read copies."""
    path = tmp_path_factory.mktemp("bundled") / "laurel.db"

    async def build() -> None:
        async with await open_sqlite(path) as db:
            plan = await CatalogRepository(db, SystemClock()).apply(
                BUNDLED, actor="bundled", policy="update"
            )
            assert plan.rejected == []

    asyncio.run(build())
    return path


@pytest.fixture
async def loaded(built: Path, tmp_path: Path) -> AsyncIterator[Database]:
    shutil.copy(built, tmp_path / "laurel.db")
    async with await open_sqlite(tmp_path / "laurel.db") as db:
        yield db


def test_every_record_has_a_source() -> None:
    batch: CatalogBatch = BUNDLED
    unsourced = [f"{e.venue} {e.year}" for e in batch.editions if not e.sources]
    unsourced += [a.paper.title for a in batch.awards if not a.sources or not a.paper.sources]
    assert unsourced == []


# Hand-written papers whose summary was removed because no readable page supports it (issue 23),
# with what was searched; a summary returns when a source is read (GxVAEs returned in issue 23,
# written from the authors' own README).
WITHOUT_SUMMARY = {
    # AAAI 2025: the abstract was found only on an aggregator (conftrace.com), not the proceedings.
    "Every Bit Helps: Achieving the Optimal Distortion with a Few Queries",
    # IJCAI 2025: searches for the title found other papers on compressing embodied models;
    # find_string (2026-12-01) only reading notes and AI digests of it.
    "Boost Embodied AI Models with Robust Compression Boundary",
    # (Beyond Weisfeiler-Lehman, Robust agents learn causal world models, LLMs Get Lost In
    # Multi-Turn Conversation and Artificial Hivemind now have summaries: their OpenReview or arXiv
    # pages, or reports on them, were found, issue 23. So has the Stochastic Taylor Derivative
    # Estimator, read on its NeurIPS 2024 page, issue 23.)
    # (ICLR 2024 Flow Matching on General Geometries, whose proxy-read summary was removed, has one
    # again: written from the authors' README and the paper's figure it shows, issue 23.)
}


def test_every_hand_written_paper_has_our_summary_in_three_languages() -> None:
    # The generated history (data/awards/) has no summaries of ours: enrich brings abstracts.
    missing = [
        (a.paper.title, lang)
        for a in HAND_WRITTEN.awards
        for lang in LANGUAGES
        if lang not in a.paper.summaries and a.paper.title not in WITHOUT_SUMMARY
    ]
    assert missing == []
    assert {a.paper.title for a in HAND_WRITTEN.awards if not a.paper.summaries} == WITHOUT_SUMMARY


def test_simplified_and_traditional_summaries_differ_where_chinese_is_written() -> None:
    # A zh-CN text identical to its zh-TW one would mean the conversion was skipped.
    same = [
        a.paper.title
        for a in HAND_WRITTEN.awards
        if a.paper.summaries and a.paper.summaries["zh-TW"] == a.paper.summaries["zh-CN"]
    ]
    assert same == []


@pytest.mark.parametrize(
    ("venue", "expected"),
    [
        ("icml", {"outstanding": 6, "position": 2, "test-of-time": 1, "honorable-mention": 2}),
        ("neurips", {"best": 3, "datasets-benchmarks": 1, "runner-up": 3, "test-of-time": 1}),
        ("iclr", {"outstanding": 3, "honorable-mention": 3, "test-of-time": 2}),
        ("aaai", {"best": 1, "outstanding": 3, "classic": 1}),
        ("ijcai", {"distinguished": 3}),
    ],
)
async def test_2025_awards_per_kind(loaded: Database, venue: str, expected: dict[str, int]) -> None:
    papers = await PaperRepository(loaded).awarded_at(venue, 2025)
    kinds = Counter(
        award.kind.value
        for paper in papers
        for award in paper.awards
        if award.venue == venue and award.year == 2025
    )
    assert dict(kinds) == expected


async def test_neurips_datasets_and_benchmarks_best_paper(loaded: Database) -> None:
    # The Datasets & Benchmarks track is a kind of its own, not among the best papers (issue 24).
    repository = PaperRepository(loaded)
    db = await repository.awarded_at("neurips", 2025, AwardKind.DATASETS_BENCHMARKS)
    assert [a.track for p in db for a in p.awards if a.year == 2025] == ["Datasets & Benchmarks"]
    best = await repository.awarded_at("neurips", 2025, AwardKind.BEST)
    tracks = Counter(a.track for p in best for a in p.awards if a.kind is AwardKind.BEST)
    assert sum(tracks.values()) == 3
    assert "Datasets & Benchmarks" not in tracks


async def test_aaai_aisi_track_outstanding_paper(loaded: Database) -> None:
    outstanding = await PaperRepository(loaded).awarded_at("aaai", 2025, AwardKind.OUTSTANDING)
    assert sum(1 for p in outstanding for a in p.awards if a.track and "AISI" in a.track) == 1


@pytest.mark.parametrize(
    ("venue", "year", "submissions", "accepted", "rate"),
    [
        ("neurips", 2025, 21_575, 5_290, "24.5%"),
        ("icml", 2025, 12_107, 3_260, "26.9%"),
        ("aaai", 2025, 12_957, 3_032, "23.4%"),
        ("ijcai", 2025, 5_806, 1_023, "17.6%"),
    ],
)
async def test_2025_statistics(
    loaded: Database, venue: str, year: int, submissions: int, accepted: int, rate: str
) -> None:
    edition = await EditionRepository(loaded).edition(venue, year)
    assert edition is not None
    assert (edition.submissions, edition.accepted) == (submissions, accepted)
    assert edition.acceptance_rate is not None
    assert f"{edition.acceptance_rate:.1%}" == rate


async def test_neurips_2025_reviewing_and_place(loaded: Database) -> None:
    edition = await EditionRepository(loaded).edition("neurips", 2025)
    assert edition is not None
    assert (edition.reviewers, edition.area_chairs, edition.senior_area_chairs) == (
        20_518,
        1_663,
        199,
    )
    assert edition.city == "San Diego"
    assert edition.month == 12


async def test_icml_2025_place_and_dates(loaded: Database) -> None:
    edition = await EditionRepository(loaded).edition("icml", 2025)
    assert edition is not None
    assert edition.city == "Vancouver"
    assert (str(edition.start_date), str(edition.end_date)) == ("2025-07-13", "2025-07-19")


@pytest.mark.parametrize(
    ("venue", "submissions"), [("icml", 9_473), ("neurips", 15_671), ("iclr", 7_262)]
)
async def test_2024_submissions(loaded: Database, venue: str, submissions: int) -> None:
    edition = await EditionRepository(loaded).edition(venue, 2024)
    assert edition is not None
    assert edition.submissions == submissions


async def test_icml_2024_disagreement_is_kept_with_a_reason(loaded: Database) -> None:
    edition = await EditionRepository(loaded).edition("icml", 2024)
    assert edition is not None
    (other,) = [a for a in edition.alternatives if a.field == "submissions"]
    assert other.value == 9_653
    assert other.reason


async def test_masked_diffusion_author_lists_both_kept(loaded: Database) -> None:
    paper = await PaperRepository(loaded).by_arxiv("2502.06768v2")
    assert paper is not None
    assert paper.paper.authors[:2] == ("Jaeyeon Kim", "Kulin Shah")
    assert len(paper.paper.authors) == 5
    assert any(a.field == "authors" for a in paper.paper.alternatives)


@pytest.mark.parametrize(
    "arxiv",
    [
        "2502.06768",
        "2501.19334",
        "2504.15266",
        "2502.00640",
        "2506.00557",
        "2505.04966",
        "2504.13959",
        "2502.13228",
    ],
)
async def test_every_arxiv_id_in_the_seeds_is_a_paper_with_links(
    loaded: Database, arxiv: str
) -> None:
    paper = await PaperRepository(loaded).by_arxiv(arxiv)
    assert paper is not None
    assert paper.paper.links.arxiv is not None
    assert arxiv in paper.paper.links.arxiv
    assert any(a.year == 2025 and a.venue == "icml" for a in paper.awards)


@pytest.mark.parametrize(
    ("query", "title_part"),
    [
        ("masked diffusion", "Masked Diffusions"),
        ("gated attention", "Gated Attention"),
        ("掩碼擴散", "Masked Diffusions"),
        ("CollabLLM", "CollabLLM"),
    ],
)
async def test_search_finds_seed_papers(loaded: Database, query: str, title_part: str) -> None:
    hits = await PaperRepository(loaded).search(query)
    assert hits, f"no result for {query!r}"
    assert title_part in hits[0].paper.title
