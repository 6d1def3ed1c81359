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
from bot.store.search import dictionary
from bot.store.search.dictionary import load_dictionary, read_cedict, senses
from bot.store.search.glossary import Glossary, load_glossary
from bot.store.search.index import SearchIndex
from bot.store.search.store import store_of
from tests.support.awards import award, batch

# Entries in CC-CEDICT's format, written for these tests (not the dictionary's own text).
LINES = [
    "# a comment, as the file's header has",
    "#! version=1",
    "充氣 充气 [chong1 qi4] /to inflate/",
    "估計 估计 [gu1 ji4] /to estimate/to guess/CL:個|个[ge4]/(coll.) to figure/",
    "無人機 无人机 [wu2 ren2 ji1] /drone; pilotless flying machine/",
    "張 张 [Zhang1] /surname Zhang/",
    "跟蹤 跟踪 [gen1 zong1] /to walk behind sb/to trail/tracking/",
    "變形 变形 [bian4 xing2] /to change shape; to morph/",
    "變形 变形 [bian4 xing2] /(Tw) transformation/",
    "程式 程式 [cheng2 shi4] /see 程序[cheng2 xu4]/(Tw) program/",
    "神經 神经 [shen2 jing1] /nerve/",
    "網路 网路 [wang3 lu4] /network/",
    "一石二鳥之計 一石二鸟之计 [x] /one plan, two ends/",
]


def test_a_sense_counts_when_it_is_one_english_word() -> None:
    assert list(senses("to estimate/to guess/CL:個|个[ge4]/(coll.) to figure")) == [
        "estimate",
        "guess",
        "figure",
    ]
    assert list(senses("drone; pilotless flying machine")) == ["drone"]  # not flying alone
    assert list(senses("surname Zhang/see 張|张[zhang1]/variant of 丈")) == []
    assert list(senses("to walk behind sb/tracking.")) == ["tracking"]
    assert list(senses("(Tw) program")) == ["program"]  # Taiwan's usage is a sense


def test_entries_give_both_scripts_their_first_stems_merged_in_order() -> None:
    table = read_cedict(LINES)
    assert table.get("充氣") == table.get("充气") == ("inflat",)
    assert table.get("估計") == ("estim", "guess", "figur")  # the classifier is no sense
    assert table.get("无人机") == ("drone",)
    assert table.get("跟踪") == ("trail", "track")
    assert table.get("變形") == ("morph", "transform")  # a second entry adds its senses
    assert table.get("程式") == ("program",)
    assert "張" not in table
    assert "张" not in table  # one character, and a surname only
    assert "一石二鳥之計" not in table  # no one-word sense
    assert table.get("的") == ()


def test_a_word_of_several_entries_reads_them_in_the_files_order() -> None:
    """干燥 is written in three entries, each of its other script once: its senses are all
    three's in order, the others' their own, and it counts once."""
    table = read_cedict(
        [
            "乾燥 干燥 [gan1 zao4] /dry/",
            "幹燥 干燥 [gan4 zao4] /arid/",
            "干燥 干燥 [gan1 zao4] /parched/\r\n",
        ]
    )
    assert table.get("干燥") == ("dri", "arid", "parch")
    assert table.get("乾燥") == ("dri",)
    assert table.get("幹燥") == ("arid",)
    assert len(table) == 3


def test_a_word_without_an_entry_has_no_stems() -> None:
    table = read_cedict([*LINES, "卡拉OK 卡拉OK [ka3 la1 O K] /karaoke/"])
    assert len(table) == 17  # 一石二鳥之計 has no stem but an entry; 變形 counts once
    # before the first word, after the last, one that starts a word, lengths no entry has, and
    # one not all Han
    for word in ("一丁", "龜龜", "充氣機", "充", "網路網路網路網路", "卡拉OK"):
        assert table.get(word) == ()


def test_the_installed_dictionary_reads_both_scripts() -> None:
    dictionary = load_dictionary()
    assert dictionary.get("無人機")[0] == dictionary.get("无人机")[0] == "drone"
    assert dictionary.get("充氣") == ("inflat",)
    assert "interfac" in dictionary.get("介面")  # a Taiwan sense
    assert len(dictionary) > 50_000


def test_a_run_is_cut_into_the_fewest_known_words() -> None:
    glossary = Glossary({"強化": ["reinforc"], "化學": ["chemistri"]}, read_cedict(LINES))
    assert glossary.words("強化學習無人機") == ["強化", "無人機"]  # 學, 習: no word, left out
    assert glossary.words("可充氣的無人機") == ["充氣", "無人機"]
    assert glossary.read("充氣無人機") == (("inflat",), ("drone",))
    assert glossary.read("強化") == (("reinforc",),)  # the learned table's stems first


def test_a_cut_prefers_the_dictionary_words_to_the_tables_pairs() -> None:
    """The table learns every pair it sees, 經網 of 神經網路 too: 神 經網 路 and 神經 網路
    are both two words, and the dictionary's are the words."""
    glossary = Glossary({"經網": ["neural"]}, read_cedict(LINES))
    assert glossary.words("神經網路") == ["神經", "網路"]
    assert Glossary({"經網": ["neural"]}).words("神經網路") == ["經網"]


def test_a_run_mostly_of_no_known_word_is_read_by_the_tables_pairs() -> None:
    glossary = Glossary({"氣球": ["balloon"]}, read_cedict(LINES))
    assert glossary.words("充氣球場") == ["充氣"]  # half of it
    assert glossary.read("充氣球場") == ((), ("balloon",), ())  # the pairs' reading
    assert Glossary({}, read_cedict(LINES)).read("充氣球場") == ()  # no pair known either
    assert glossary.read("充氣球") == (("inflat",),)
    assert Glossary({}).read("充氣") == ()


def test_the_shipped_glossary_reads_words_no_summary_has() -> None:
    glossary = load_glossary().with_dictionary(load_dictionary())
    assert glossary.read("充氣機器人") == (("inflat",), ("robot", "android"))
    alone = load_glossary().read("充氣機器人")  # the learned table alone: its pairs, no 充氣
    assert not any("inflat" in stems for stems in alone)


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


def test_the_stems_kept_once_read_are_bounded_and_still_answer(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(dictionary, "REMEMBERED", 3)
    words = read_cedict(LINES)
    first = words.get("充氣")
    assert first
    for piece in ("無人", "人機", "無人機", "機器", "器人"):  # pieces of queries, most unknown
        words.get(piece)
    assert len(words._stems) == 3  # the oldest let go
    assert "充氣" not in words._stems
    assert words.get("充氣") == first  # read again, the same
