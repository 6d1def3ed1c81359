"""Ranking that finds the paper meant (issue 27): own names, the field's vocabulary, area names
in three languages, stems, one edit on longer words, an exact title never buried, the prior,
how many matched. The derived index, on SQLite and on PostgreSQL."""

from __future__ import annotations

import tomllib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import cast

import pytest

from bot.domain.models import Award, AwardKind, Paper
from bot.domain.vocabulary import load_vocabulary, name_key
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.search import documents, readings
from bot.store.search import query as search_query
from bot.store.search.index import SearchIndex
from bot.store.search.store import store_of
from bot.store.search.text import parse
from bot.store.sql import Row
from tests.support.awards import award, batch


def _award(title: str, *, year: int = 2025, kind: AwardKind = AwardKind.OUTSTANDING,
           name: str = "Outstanding Paper", **paper: object) -> Award:  # fmt: skip
    return Award(
        venue="icml", year=year, name=name, kind=kind,
        paper=Paper.model_validate({"title": title, **paper}),
    )  # fmt: skip


CATALOGUE = (
    award("BERT: Pre-training of Deep Bidirectional Transformers", year=2019),
    award("Segment Anything", year=2023),
    award("Planning-Oriented Autonomous Driving", year=2023),
    award("Dueling Network Architectures for Deep Reinforcement Learning", year=2016),
    award("Deep Learning for Detecting Robotic Grasps", year=2015),
    award(
        "Trust Region Policy Optimization",
        year=2025,
        abstract="We describe trust region policy optimization (TRPO), an iterative procedure.",
    ),
    award(
        "Proportional Aggregation of Preferences", area="Reinforcement Learning & Decision Making"
    ),
    award("Gated Attention for Large Language Models"),
    award("RAFT-Stereo: Multilevel Recurrent Field Transforms for Stereo Matching"),
)


@pytest.fixture
async def papers(db: Database, catalog: CatalogRepository) -> AsyncIterator[PaperRepository]:
    await catalog.apply(batch(*CATALOGUE), actor="t", policy="update")
    index = SearchIndex(store_of(db), None)
    await index.start()
    db.on_catalog_write(index.catch_up)
    yield PaperRepository(db, index=index)
    await index.close()


async def _titles(papers: PaperRepository, text: str) -> list[str]:
    return [p.paper.title for p in await papers.search(text)]


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        ("QT", None),  # no such paper: nothing, not everything
        ("BERT", "BERT: Pre-training of Deep Bidirectional Transformers"),
        ("TRPO", "Trust Region Policy Optimization"),  # parenthesised in its own abstract
        ("self-driving", "Planning-Oriented Autonomous Driving"),  # the field's vocabulary
        ("立體匹配", "RAFT-Stereo: Multilevel Recurrent Field Transforms for Stereo Matching"),
        ("立体匹配", "RAFT-Stereo: Multilevel Recurrent Field Transforms for Stereo Matching"),
        ("RL dueling", "Dueling Network Architectures for Deep Reinforcement Learning"),
        ("強化學習與決策", "Proportional Aggregation of Preferences"),  # its area, in zh-TW
        ("强化学习与决策", "Proportional Aggregation of Preferences"),  # in zh-CN
        ("robot grasping", "Deep Learning for Detecting Robotic Grasps"),  # stems
        ("Segment Anyting", "Segment Anything"),  # one edit, the word still being typed
        ("reinforcment learning", "Dueling Network Architectures for Deep Reinforcement Learning"),
        (
            "Dueling Netwrok Architectures",
            "Dueling Network Architectures for Deep Reinforcement Learning",
        ),
    ],
)
async def test_the_paper_meant_comes_first(
    papers: PaperRepository, typed: str, meant: str | None
) -> None:
    found = await _titles(papers, typed)
    assert (found[0] if found else None) == meant


async def test_a_short_word_is_not_matched_within_one_edit(papers: PaperRepository) -> None:
    assert await _titles(papers, "gatd") == []  # "gated" is one edit away, but "gatd" is short


async def test_an_exact_title_is_never_buried_by_the_prior(
    db: Database, catalog: CatalogRepository, papers: PaperRepository
) -> None:
    await catalog.apply(
        batch(
            _award("Attention", year=2011, kind=AwardKind.STUDENT, name="Best Student Abstract"),
            _award(
                "Attention Attention Attention", year=2025, kind=AwardKind.BEST, name="Best Paper"
            ),
        ),
        actor="t",
        policy="update",
    )
    assert (await _titles(papers, "attention"))[0] == "Attention"


async def test_the_prior_puts_a_recent_best_paper_above_an_old_demo_of_the_same_match(
    db: Database, catalog: CatalogRepository, papers: PaperRepository
) -> None:
    await catalog.apply(
        batch(
            _award("Swimming robots", year=2015, kind=AwardKind.BEST, name="Best Demo Paper"),
            _award("Swimming robots!", year=2025, kind=AwardKind.BEST, name="Best Paper"),
        ),
        actor="t",
        policy="update",
    )
    ranked = [p.paper.title for p in await papers.search("swimming robots", limit=2)]
    assert ranked == ["Swimming robots!", "Swimming robots"]


async def test_how_many_matched_and_every_page(
    db: Database, catalog: CatalogRepository, papers: PaperRepository
) -> None:
    await catalog.apply(
        batch(*(award(f"Graph paper number {n}", year=2000 + n) for n in range(12))),
        actor="t",
        policy="update",
    )
    pages = [(await papers.search_page("graph paper", limit=5, offset=o))[:2] for o in (0, 5, 10)]
    assert [total for _, total in pages] == [12, 12, 12]
    seen = [p.id for found, _ in pages for p in found]
    assert len(seen) == len(set(seen)) == 12


async def test_no_paper_with_every_word_gives_those_with_some(papers: PaperRepository) -> None:
    found, total, _ = await papers.search_page("segment anything zebra")
    assert [p.paper.title for p in found] == ["Segment Anything"]
    assert total == 1
    # A command naming one paper (the resolver of /paper show, /curate …) never falls back.
    assert await papers.search("segment anything zebra", every_word=True) == []
    named = await papers.search("segment anything", every_word=True)
    assert [p.paper.title for p in named] == ["Segment Anything"]


def test_no_name_of_the_vocabulary_is_in_two_rings() -> None:
    """A name in two rings would silently mean only the first (`Vocabulary` keeps the first)."""
    text = (Path(__file__).parents[2] / "bot" / "domain" / "vocabulary.toml").read_text("utf-8")
    rings = [{name_key(n) for n in ring["names"]} for ring in tomllib.loads(text)["topics"]]
    names = [name for ring in rings for name in ring]
    assert sorted(n for n in set(names) if names.count(n) > 1) == []


def test_the_vocabulary_reads_hyphens_and_case_alike() -> None:
    parsed = parse("Self driving", vocabulary=load_vocabulary())
    assert parsed is not None
    assert parsed.terms == ()
    assert ("autonomous", "driving") in parsed.topics[0]


@pytest.mark.sqlite_only("FTS5 is SQLite's own search")
async def test_fts5_finds_a_paper_by_the_name_it_gives_itself_and_by_the_vocabulary(
    db: Database, catalog: CatalogRepository
) -> None:
    """FTS5, SQLite's fallback while the index is rebuilt, answers sensibly too."""
    await catalog.apply(batch(*CATALOGUE), actor="t", policy="update")
    fts5 = PaperRepository(db)
    assert (await _titles(fts5, "TRPO"))[0] == "Trust Region Policy Optimization"
    assert await _titles(fts5, "self-driving") == ["Planning-Oriented Autonomous Driving"]
    found, total, _ = await fts5.search_page("deep", limit=1)
    assert len(found) == 1
    assert total == 3


async def test_pages_with_the_prior_are_the_pages_of_one_whole_ranking(
    db: Database, catalog: CatalogRepository, papers: PaperRepository
) -> None:
    """The prior is added after the search: paging must still cut one ranking into pages."""
    kinds = [(AwardKind.BEST, "Best Paper"), (AwardKind.STUDENT, "Best Student Paper")]
    await catalog.apply(
        batch(
            *(
                _award(f"Graph {'paper ' * (n % 3)}{n}", year=2010 + n % 16, kind=k, name=name)
                for n in range(30)
                for k, name in [kinds[n % 2]]
            )
        ),
        actor="t",
        policy="update",
    )
    whole = [p.id for p in await papers.search("graph", limit=30)]
    pages = [p.id for o in range(0, 30, 4) for p in await papers.search("graph", limit=4, offset=o)]
    assert len(whole) == 30
    assert pages == whole


async def test_a_short_word_no_paper_holds_costs_one_search_not_three(
    papers: PaperRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27: "Deep Le", a word still being typed, failed the search of every word and the
    one within one edit before the any-word search answered (autocomplete p99 at 100k
    papers); the papers with the other words answer at once, and a
    command naming one paper (every word) still finds none."""
    built: list[bool] = []
    build = search_query.build_query

    def counting(*args: object, **kwargs: object) -> object:
        built.append(bool(kwargs.get("relaxed")))
        return build(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(readings, "build_query", counting)  # as readings.py calls it
    with_fragment = await _titles(papers, "deep le")
    assert built == [False]
    assert sorted(with_fragment) == sorted(await _titles(papers, "deep"))  # "deep": a prefix
    assert len(with_fragment) == 3
    assert await papers.search("deep le", every_word=True) == []


async def test_a_papers_task_is_searched_as_its_area_is(
    db: Database, catalog: CatalogRepository, papers: PaperRepository
) -> None:
    """Issue 27: the taxonomy's task filed a paper under "Interpretability & Explainability",
    and search read only its area."""
    await catalog.apply(
        batch(
            award("Probing Hidden Units", task="Interpretability & Explainability"),
            award("Hidden Units Grow Sparse", task="Model Efficiency & Architecture"),
        ),
        actor="t",
        policy="update",
    )
    assert await _titles(papers, "explainability hidden") == ["Probing Hidden Units"]


async def test_a_curated_alias_finds_the_paper_in_the_index_and_in_fts5(
    db: Database, catalog: CatalogRepository, papers: PaperRepository
) -> None:
    """Issue 27: 'AlexNet' found nothing, the title never saying it."""
    title = "ImageNet Classification with Deep Convolutional Neural Networks"
    await catalog.apply(batch(award(title, aliases=["AlexNet"])), actor="t", policy="update")
    assert (await _titles(papers, "alexnet"))[:1] == [title]
    assert (await _titles(papers, "AlexNet"))[:1] == [title]
    if db.dialect == "sqlite":  # FTS5, while the index is rebuilt
        assert [p.paper.title for p in await PaperRepository(db).search("alexnet")] == [title]


MORE = (
    award(
        "Visual Autoregressive Modeling: Scalable Image Generation",
        summaries={
            "en": "VAR predicts the next, finer scale of an image.",
            "zh-TW": "影像",
            "zh-CN": "图像",
        },
    ),
    award("Variational Inference with Normalizing Flows"),
    award("Variance-based Regularization with Convex Objectives"),
    award("SinGAN: Learning a Generative Model from a Single Natural Image"),
    award("Clustering with Outliers"),
    award("Approximating Nash Equilibria in Normal-Form Games"),
    award(
        "Faster Cascades via Speculative Decoding",
        summaries={
            "en": "Cascades and speculative decoding.",
            "zh-TW": "級聯與推測解碼",
            "zh-CN": "级联与推测解码",
        },
    ),
)


@pytest.mark.parametrize(
    ("typed", "meant"),
    [
        # An acronym typed in capitals is a whole word, not the start of "variational".
        ("VAR", "Visual Autoregressive Modeling: Scalable Image Generation"),
        ("GAN", "SinGAN: Learning a Generative Model from a Single Natural Image"),  # a part
        ("outliers clustered", "Clustering with Outliers"),  # the last word's stem
        ("nash equilibrium", "Approximating Nash Equilibria in Normal-Form Games"),  # ending
        ("推測式解碼", "Faster Cascades via Speculative Decoding"),  # most of its 2-char words
    ],
)
async def test_acronyms_joined_names_endings_and_cjk_wording(
    catalog: CatalogRepository, papers: PaperRepository, typed: str, meant: str
) -> None:
    await catalog.apply(batch(*MORE), actor="t", policy="update")
    assert (await _titles(papers, typed))[0] == meant


async def test_a_word_typed_in_small_letters_is_still_a_prefix(
    catalog: CatalogRepository, papers: PaperRepository
) -> None:
    await catalog.apply(batch(*MORE), actor="t", policy="update")
    assert (await _titles(papers, "var"))[0].startswith("Varia")  # variational, variance


async def test_a_name_of_the_vocabulary_in_an_abstract_is_its_words_side_by_side(
    db: Database, catalog: CatalogRepository, papers: PaperRepository
) -> None:
    # In summaries and abstracts a name of several words is read as its adjacent pairs of
    # stems (documents' text_pairs), not as a phrase: the same papers, in either engine.
    await catalog.apply(
        batch(
            award("Quokka Census One", abstract="We apply graph neural networks to quokkas."),
            award("Quokka Census Two", abstract="A neural graph of networks of quokkas."),
            award("Quokka Census Three", abstract="Graph neural network training for quokkas."),
            # Each pair of the name's words, but never the three side by side.
            award("Quokka Census Four", abstract="Graph neural models beat neural networks."),
        ),
        actor="t",
        policy="update",
    )
    found = set(await _titles(papers, "graph neural network quokka"))
    assert found == {"Quokka Census One", "Quokka Census Three"}  # its words side by side
    found = set(await _titles(papers, "graph neural network"))  # the name alone
    assert found == {"Quokka Census One", "Quokka Census Three"}
    if db.dialect == "sqlite":  # SQLite's own phrase search agrees
        fts5 = PaperRepository(db)
        assert {p.paper.title for p in await fts5.search("graph neural network")} == found


def test_a_summary_and_an_abstract_hold_their_adjacent_stems_as_pairs() -> None:
    row = {
        "id": 1, "title": "T", "aliases": "[]", "authors": "[]", "affiliations": "[]",
        "summaries": '{"en": "Graph networks."}',
        "abstract": "Neural machine translation.", "area": None, "task": None, "awards": "[]",
    }  # fmt: skip
    pairs = documents._document(cast("Row", row), {}).fields["text_pairs"].split()
    # Each text's own pairs, never one across the two (network_neural).
    assert pairs == ["graph_network", "neural_machin", "machin_translat"]
    row["summaries"] = '{"zh-CN": "图神经网络"}'
    pairs = documents._document(cast("Row", row), {}).fields["text_pairs"].split()
    assert pairs == ["neural_machin", "machin_translat"]  # none of Chinese characters


async def test_no_paper_with_every_word_puts_the_rare_word_typed_first(
    catalog: CatalogRepository, papers: PaperRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Of the papers with some of the words, the one with the rare word typed (in its
    summary) above those with the common ones (in their titles), which the field weights
    alone put first (query.RARITY)."""
    await catalog.apply(
        batch(
            award(
                "Open-Ended Agents at Internet Scale",
                summaries={"en": "Agents learn hundreds of Minecraft tasks from videos."},
            ),
            *(award(f"A Research Environment for Robots {n}", year=2020) for n in range(40)),
        ),
        actor="t",
        policy="update",
    )
    query = "minecraft research environment"  # no paper has all three
    assert (await _titles(papers, query))[0] == "Open-Ended Agents at Internet Scale"
    monkeypatch.setattr(search_query, "RARITY", 0.0)
    assert (await _titles(papers, query))[0] != "Open-Ended Agents at Internet Scale"
