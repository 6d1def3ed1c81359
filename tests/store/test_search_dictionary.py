"""Chinese read through a dictionary (issue 27): CC-CEDICT's one-word senses as English stems,
a run cut into the fewest known words, and search finding an English-only paper by them. The
entries' parsing on lines in the dictionary's own format; the installed dictionary; the index
on SQLite and on PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.search.dictionary import load_dictionary, read_cedict, senses
from bot.store.search.glossary import Glossary, load_glossary
from bot.store.search.index import SearchIndex
from bot.store.search.store import store_of
from tests.support.awards import award, batch

LINES = [
    "# CC-CEDICT",
    "#! version=1",
    "充氣 充气 [chong1 qi4] /to inflate/",
    "估計 估计 [gu1 ji4] /to estimate/to reckon/CL:個|个[ge4]/(coll.) to suppose/",
    "無人機 无人机 [wu2 ren2 ji1] /drone; unmanned aerial vehicle/",
    "張 张 [Zhang1] /surname Zhang/",
    "跟蹤 跟踪 [gen1 zong1] /to follow sb's tracks/to tail/to shadow/tracking/",
    "變形 变形 [bian4 xing2] /to become deformed; to change shape; to morph/",
    "變形 变形 [bian4 xing2] /(old) transformation/",
    "一石二鳥的故事 一石二鸟的故事 [x] /story/",
]


def test_a_sense_counts_when_it_is_one_english_word() -> None:
    assert list(senses("to estimate/to reckon/CL:個|个[ge4]/(coll.) to suppose")) == [
        "estimate",
        "reckon",
        "suppose",
    ]
    assert list(senses("drone; unmanned aerial vehicle")) == ["drone"]  # not aerial alone
    assert list(senses("surname Zhang/see 張|张[zhang1]/variant of 丈")) == []
    assert list(senses("to follow sb's tracks/tracking")) == ["tracking"]


def test_entries_give_both_scripts_their_first_stems_merged_in_order() -> None:
    table = read_cedict(LINES)
    assert table["充氣"] == table["充气"] == ("inflat",)
    assert table["估計"] == ("estim", "reckon", "suppos")  # the classifier is no sense
    assert table["无人机"] == ("drone",)
    assert table["跟踪"] == ("tail", "shadow", "track")
    assert table["變形"] == ("morph", "transform")  # a second entry adds its senses
    assert "張" not in table
    assert "张" not in table
    assert "一石二鳥的故事" not in table  # longer than a query types a word


def test_the_installed_dictionary_reads_both_scripts() -> None:
    dictionary = load_dictionary()
    assert dictionary["無人機"][0] == dictionary["无人机"][0] == "drone"
    assert dictionary["充氣"] == ("inflat",)
    assert len(dictionary) > 50_000


def test_a_run_is_cut_into_the_fewest_known_words() -> None:
    glossary = Glossary({"強化": ["reinforc"], "化學": ["chemistri"]}, read_cedict(LINES))
    assert glossary.words("強化學習無人機") == ["強化", "無人機"]  # 學, 習: no word, left out
    assert glossary.words("可充氣的無人機") == ["充氣", "無人機"]
    assert glossary.read("充氣無人機") == (("inflat",), ("drone",))
    assert glossary.read("強化") == (("reinforc",),)  # the learned table's stems first


def test_a_run_mostly_of_no_known_word_has_no_reading() -> None:
    glossary = Glossary({}, read_cedict(LINES))
    assert glossary.read("充氣球場") == ()  # 充氣 covers half of it: not what it says
    assert glossary.read("充氣球") != ()
    assert Glossary({}).read("充氣") == ()


def test_the_shipped_glossary_reads_words_no_summary_has() -> None:
    glossary = load_glossary().with_dictionary(load_dictionary())
    assert glossary.read("充氣機器人") == (("inflat",), ("robot", "android"))
    assert load_glossary().read("充氣機器人") == ()  # the learned table alone: no such words


CATALOGUE = (
    award("An Inflatable Continuum Arm", abstract="A soft robot arm that grows by inflating."),
    award("Quadrotor Swarms Indoors", summaries={"zh-TW": "一群無人機。", "en": "A swarm."}),
)


@pytest.fixture
async def index(db: Database, catalog: CatalogRepository) -> AsyncIterator[SearchIndex]:
    await catalog.apply(batch(*CATALOGUE), actor="t", policy="update")
    found = SearchIndex(store_of(db), None)
    await found.start()
    yield found
    await found.close()


async def test_a_word_no_summary_has_finds_the_english_paper(
    db: Database, index: SearchIndex
) -> None:
    papers = PaperRepository(db, index=index, glossary=Glossary({}, read_cedict(LINES)))
    assert [p.paper.title for p in await papers.search("充氣")] == ["An Inflatable Continuum Arm"]
    without = PaperRepository(db, index=index, glossary=Glossary({}))
    assert await without.search("充氣") == []
