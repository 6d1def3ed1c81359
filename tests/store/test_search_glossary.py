"""Chinese read as English (issue 27): the glossary learned from the catalogue's parallel
summaries, and search reading a Chinese run by its glosses when no paper has it as typed. The
derived index, on SQLite and on PostgreSQL; the learning rule and the table, pure."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.search.glossary import Glossary, bigrams, english_stems, learn, load_glossary
from bot.store.search.index import SearchIndex
from bot.store.search.store import store_of
from bot.store.search.text import parse
from tests.support.awards import award, batch
from tools import glossary as generator

# Four papers' (Chinese, English): 無人機 and drone go together in two; 攝影 is in one paper,
# whose English has no camera; every English text says "with", which no Chinese word goes with
# more than chance.
PAPERS = [
    ("無人機在室內飛行", "A drone flies indoors with cameras"),
    ("無人機的導航", "Drone navigation with a map"),
    ("機器人手臂與攝影", "A robot arm with a gripper"),
    ("機器人手臂", "Robot arms with hands, and cameras"),
]


def test_a_word_gets_the_stems_seen_with_it_in_two_papers_or_more() -> None:
    table = learn(PAPERS)
    assert table["無人"] == ("drone",)  # together in both its papers, nowhere else
    assert table["人機"] == ("drone",)
    assert table["手臂"] == ("arm", "robot")  # Dice 1.0 each: best first, ties by stem
    assert "攝影" not in table  # one paper, and never beside camera
    assert all("with" not in stems for stems in table.values())


def test_a_stem_every_text_holds_is_no_gloss_however_often_it_is_seen() -> None:
    """方法 (method) is in three of five summaries, and "the" in every English text: Dice
    2·3/(3+5) = 0.75 is near enough the best (method, 1.0), but together no more than chance."""
    papers = [
        ("本文方法一", "The method one"),
        ("本文方法二", "The method two"),
        ("本文方法三", "The method three"),
        ("另一篇", "The other"),
        ("第五篇", "The fifth"),
    ]
    assert learn(papers)["方法"] == ("method",)


def test_a_word_with_no_stem_near_enough_is_left_out() -> None:
    # 導航 once with "navig": seen in one paper; 室內 likewise: neither has a gloss
    table = learn(PAPERS)
    assert "導航" not in table
    assert "室內" not in table
    assert learn([]) == {}
    assert learn([("", "drone"), ("無人機", "")]) == {}  # a side empty teaches nothing


def test_bigrams_and_stems_are_what_the_index_holds() -> None:
    assert bigrams("用 無人機，拍攝") == {"無人", "人機", "拍攝"}  # runs apart, folded
    assert bigrams("drone 機") == set()
    assert english_stems("Drones flying 3 times, a UAV 無人機") == {"drone", "fli", "time", "uav"}


def test_a_run_is_read_per_word_of_the_table() -> None:
    glossary = Glossary({"無人": ["drone"], "拍攝": ["film", "shoot"]})
    assert glossary.read("無人拍攝") == (("drone",), ("film", "shoot"))
    assert glossary.read("無人機拍攝") == (("drone",), ("film", "shoot"))  # 機: no word
    assert glossary.read("無人機") == (("drone",),)  # 無人 is most of it
    assert glossary.read("無人機群") == (("drone",), (), ())  # not of this: its pairs
    assert glossary.read("機") == ()
    assert len(glossary) == 2


def test_parse_keeps_the_glosses_of_the_chinese_runs_that_have_some() -> None:
    glossary = Glossary({"無人": ["drone"], "航拍": ["aerial"]})
    parsed = parse("無人航拍 拍照 drone", glossary=glossary.read)
    assert parsed is not None
    assert parsed.glossed(("無", "人", "航", "拍")) == (("drone",), ("aerial",))
    assert parsed.glossed(("拍", "照")) == ()  # no gloss: not kept
    assert [run for run, _ in parsed.glosses] == [("無", "人", "航", "拍")]
    assert parse("無人航拍", glossary=None).glosses == ()  # type: ignore[union-attr]


def test_the_shipped_table_is_what_the_catalogue_teaches() -> None:
    assert generator.main(["--check"]) == 0, "rerun `python -m tools.glossary`"
    shipped = load_glossary()
    assert shipped.read("強化") == (("reinforc",),)
    assert shipped.read("强化") == (("reinforc",),)


CATALOGUE = (
    award("Localizing Sound Sources from a Drone", abstract="We localize sound sources."),
    award("A Swarm of Quadrotors", summaries={"zh-TW": "一群無人機。", "en": "A swarm."}),
    award("Deep Reinforcement Learning for Walking"),
)
GLOSSARY = Glossary(
    {"聲源": ["sound"], "源定": ["sound"], "定位": ["local"], "無人": ["drone"], "人機": ["drone"]}
)


@pytest.fixture
async def index(db: Database, catalog: CatalogRepository) -> AsyncIterator[SearchIndex]:
    await catalog.apply(batch(*CATALOGUE), actor="t", policy="update")
    found = SearchIndex(store_of(db), None)
    await found.start()
    yield found
    await found.close()


async def _titles(
    db: Database, index: SearchIndex, text: str, glossary: Glossary | None
) -> list[str]:
    parsed = parse(text, glossary=None if glossary is None else glossary.read)
    assert parsed is not None
    page = index.page_now(parsed)
    assert page is not None  # the index answered
    ids, _total = page
    papers = PaperRepository(db)
    return [found.paper.title for i in ids if (found := await papers.get(i))]


async def test_a_run_no_paper_has_as_typed_is_found_by_its_glosses(
    db: Database, index: SearchIndex
) -> None:
    assert await _titles(db, index, "聲源定位", None) == []
    assert await _titles(db, index, "聲源定位", GLOSSARY) == [
        "Localizing Sound Sources from a Drone"
    ]


async def test_autocomplete_never_reads_glosses(db: Database, index: SearchIndex) -> None:
    """Naming one paper as one types reads what names it, not what a common word's gloss
    (模型: model) would make match most titles."""
    parsed = parse("聲源定位", glossary=GLOSSARY.read)
    assert parsed is not None
    assert index.page_now(parsed, naming=True) == ([], 0)
    assert index.page_now(parsed) is not None
    assert index.page_now(parsed)[0] != []  # type: ignore[index]  # a member's search reads them


async def test_a_run_some_paper_has_as_typed_is_answered_by_those_alone(
    db: Database, index: SearchIndex
) -> None:
    # 無人機 is in one summary: the English-only paper saying "drone" is not added to it
    assert await _titles(db, index, "無人機", GLOSSARY) == ["A Swarm of Quadrotors"]


async def test_a_run_with_too_few_glossed_words_is_not_read_in_english(
    db: Database, index: SearchIndex
) -> None:
    # of 聲源定位's three two-character words, one has a gloss: under half, no English reading
    assert await _titles(db, index, "聲源定位", Glossary({"聲源": ["sound"]})) == []


async def test_a_member_search_reads_chinese_by_the_shipped_glossary(
    db: Database, index: SearchIndex
) -> None:
    papers = PaperRepository(db, index=index)
    assert [p.paper.title for p in await papers.search("强化")] == [
        "Deep Reinforcement Learning for Walking"
    ]
