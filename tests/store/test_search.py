from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.domain.institutions import Institution, InstitutionAliases, load_institutions
from bot.domain.models import AwardKind
from bot.store import migrations
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.search.index import SearchIndex
from bot.store.search.store import store_of
from bot.store.search.text import match_query, parse, prefixes, tokens
from tests.support.awards import award, batch

Engine = Callable[[], Awaitable[PaperRepository]]


# Every search test, with FTS5 and with the derived index on SQLite (which must behave alike),
# and with the derived index on PostgreSQL, which has no FTS5.
ENGINES = pytest.mark.parametrize(
    ("backend", "engine"),
    [("sqlite", "fts5"), ("sqlite", "tantivy"), ("postgresql", "tantivy")],
    indirect=["engine"],
)


@pytest.fixture
async def engine(request: pytest.FixtureRequest, db: Database) -> AsyncIterator[Engine]:
    made: list[SearchIndex] = []

    async def make() -> PaperRepository:
        if request.param == "fts5":
            return PaperRepository(db)
        index = SearchIndex(store_of(db), None)
        made.append(index)
        await index.start()
        db.on_catalog_write(index.catch_up)
        return PaperRepository(db, index=index)

    yield make
    for index in made:
        await index.close()


NASTY = [
    '"',
    '"unbalanced',
    "(((",
    "a AND OR NOT b",
    "NEAR(a b, 3)",
    "title:foo",
    "*",
    "^start",
    "-minus +plus",
    "😀🎉",
    "x" * 10_000,
    "\x00\u202e\u200b",
    "注意力機制",
    "'; DROP TABLE papers; --",
    "",
    "   ",
]


@pytest.fixture(scope="module")
def fts() -> Iterator[sqlite3.Connection]:
    """The real schema in memory, with a few rows, for fuzzing queries against FTS5 itself."""
    conn = sqlite3.connect(":memory:")
    for migration in migrations.available():
        conn.executescript(migration.sql)
    conn.execute(
        "INSERT INTO paper_search (rowid, title, authors, affiliations, summaries, abstract) "
        "VALUES (1, 'gated attention', 'a b', 'c', '注 意 力', 'x')"
    )
    yield conn
    conn.close()


@settings(max_examples=400, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=300))
@example("AND")
@example('a"b')
@example("NOT")
def test_any_text_makes_a_query_fts5_accepts(fts: sqlite3.Connection, text: str) -> None:
    query = match_query(text)
    if query is None:
        return
    fts.execute("SELECT rowid FROM paper_search WHERE paper_search MATCH ?", (query,)).fetchall()


@pytest.mark.parametrize("text", NASTY)
def test_nasty_text_makes_a_valid_query_or_none(fts: sqlite3.Connection, text: str) -> None:
    query = match_query(text)
    if query is not None:
        fts.execute("SELECT rowid FROM paper_search WHERE paper_search MATCH ?", (query,))


def test_text_without_words_is_no_query() -> None:
    assert match_query("😀 (( ** ^") is None


async def _seed(catalog: CatalogRepository) -> None:
    await catalog.apply(
        batch(
            award(
                "Gated Attention for Large Language Models",
                arxiv="2505.06708",
                summaries={"zh-TW": "在注意力後加入門控", "zh-CN": "在注意力后加入门控"},
            ),
            award("Roll the dice", abstract="We compare attention to diffusion.", year=2024),
            award("Scaling laws", authors=["Jürgen Müller"], venue="neurips"),
        ),
        actor="t",
        policy="update",
    )


@pytest.mark.parametrize("text", NASTY)
@ENGINES
async def test_search_never_raises(
    db: Database, catalog: CatalogRepository, text: str, engine: Engine
) -> None:
    await _seed(catalog)
    result = await (await engine()).search(text)
    assert isinstance(result, list)


@ENGINES
async def test_title_match_ranks_above_abstract_match(
    db: Database, catalog: CatalogRepository, engine: Engine
) -> None:
    await _seed(catalog)
    titles = [p.paper.title for p in await (await engine()).search("attention")]
    assert titles == ["Gated Attention for Large Language Models", "Roll the dice"]


@ENGINES
async def test_prefix_chinese_and_diacritics(
    db: Database, catalog: CatalogRepository, engine: Engine
) -> None:
    await _seed(catalog)
    papers = await engine()
    assert [p.paper.title for p in await papers.search("gat")] == [
        "Gated Attention for Large Language Models"
    ]
    assert len(await papers.search("注意力")) == 1
    assert len(await papers.search("门控")) == 1  # the Simplified summary is indexed too
    assert [p.paper.title for p in await papers.search("jurgen muller")] == ["Scaling laws"]


@ENGINES
async def test_filters_by_venue_year_and_kind(
    db: Database, catalog: CatalogRepository, engine: Engine
) -> None:
    await _seed(catalog)
    papers = await engine()
    assert len(await papers.search("attention", year=2024)) == 1
    assert len(await papers.search("attention", venue="neurips")) == 0
    assert len(await papers.search("scaling", venue="neurips")) == 1
    assert len(await papers.search("attention", kind=AwardKind.BEST)) == 0
    (hit,) = await papers.search("gated", kind=AwardKind.OUTSTANDING)
    assert hit.awards[0].venue_name == "ICML"


@ENGINES
async def test_pagination(db: Database, catalog: CatalogRepository, engine: Engine) -> None:
    await catalog.apply(
        batch(*(award(f"Graph paper {i}") for i in range(15))), actor="t", policy="update"
    )
    papers = await engine()
    first = await papers.search("graph", limit=10)
    second = await papers.search("graph", limit=10, offset=10)
    assert len(first) == 10
    assert len(second) == 5
    assert not {p.id for p in first} & {p.id for p in second}


async def _seed_institutions(catalog: CatalogRepository) -> None:
    await catalog.apply(
        batch(
            award("Sparse routing", affiliations=["Tsinghua University"]),
            award("Dense routing", affiliations=["清華大學"], year=2024),
            award("Unrelated work", affiliations=["Stanford University"]),
            award("Thu and the weekday effect", affiliations=["Princeton University"]),
        ),
        actor="t",
        policy="update",
    )


@pytest.mark.parametrize(
    "typed", ["清华", "清華", "清華大學", "Tsinghua", "THU", "tsinghua university"]
)
@ENGINES
async def test_any_name_of_an_institution_finds_its_papers(
    db: Database, catalog: CatalogRepository, typed: str, engine: Engine
) -> None:
    await _seed_institutions(catalog)
    titles = {p.paper.title for p in await (await engine()).search(typed)}
    assert {"Sparse routing", "Dense routing"} <= titles
    assert "Unrelated work" not in titles


@ENGINES
async def test_naming_an_institution_only_adds_results(
    db: Database, catalog: CatalogRepository, engine: Engine
) -> None:
    await _seed_institutions(catalog)
    titles = {p.paper.title for p in await (await engine()).search("thu")}
    assert "Thu and the weekday effect" in titles  # the word itself still matches anywhere


@ENGINES
async def test_an_institution_and_a_word_narrow_together(
    db: Database, catalog: CatalogRepository, engine: Engine
) -> None:
    await _seed_institutions(catalog)
    titles = [p.paper.title for p in await (await engine()).search("清华 sparse")]
    assert titles == ["Sparse routing"]


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=120))
@example("清华 THU (MIT")
@example('Tsinghua"')
def test_any_text_with_institutions_makes_a_query_fts5_accepts(
    fts: sqlite3.Connection, text: str
) -> None:
    query = match_query("MIT " + text + " 清華", load_institutions())
    assert query is not None
    fts.execute("SELECT rowid FROM paper_search WHERE paper_search MATCH ?", (query,)).fetchall()


# -- the query, exactly (survivors of mutation testing: docs/mutation.md) --------------------
@pytest.mark.parametrize(
    ("text", "query"),
    [
        ("graph neural", '"graph" "neural"*'),
        ("attention注意力", '"attention" "注 意 力"*'),
        ("注意力attention", '"注 意 力" "attention"*'),
        ("深度 li", '"深 度" "li"'),  # a short last word is matched whole, not as a prefix
        ('"NEAR(a b)" OR *x', '"NEAR" "a" "b" "OR" "x"'),
    ],
)
def test_words_are_quoted_in_order_and_the_last_is_a_prefix(text: str, query: str) -> None:
    assert match_query(text) == query


def test_at_most_twelve_terms_and_two_thousand_characters_are_read() -> None:
    words = [f"w{i:02d}" for i in range(20)]
    assert match_query(" ".join(words)) == " ".join(f'"{w}"' for w in words[:12]) + "*"
    long_word = "x" * 1999
    assert match_query(f"{long_word} yz") == f'"{"x" * 64}"*'


TSINGHUA = InstitutionAliases(
    [Institution(name="Tsinghua University", aliases=("THU",), zh_tw="清華大學")]
)


TWELVE = [f"w{i:02d}" for i in range(12)]
# Thirteen institutions, every one named in THIRTEEN_NAMED, then a word.
MANY = InstitutionAliases([Institution(name=f"Institute {c}{c}") for c in "abcdefghijklm"])
THIRTEEN_NAMED = " ".join(f"institute {c}{c}" for c in "abcdefghijklm") + " routing"


def test_an_institution_is_matched_by_each_of_its_names_as_one_phrase() -> None:
    assert match_query("THU graph", TSINGHUA) == (
        '("thu" OR affiliations : "Tsinghua University" OR affiliations : "THU"'
        ' OR affiliations : "清 華 大 學") AND "graph"*'
    )


def test_an_institution_takes_one_of_the_twelve_terms() -> None:
    query = match_query("THU " + " ".join(TWELVE), TSINGHUA)
    assert query is not None
    assert query.endswith(' AND "w10"')  # the last word dropped, so none is a prefix
    assert "w11" not in query
    # Twelve institutions leave no room for a word at all.
    query = match_query(THIRTEEN_NAMED, MANY)
    assert query is not None
    assert query.count("affiliations") == 12
    assert "routing" not in query


# -- the derived index's query (bot/store/search/index.py reads it) --------------------------
def test_the_index_reads_twelve_terms_in_all_institutions_first() -> None:
    words = TWELVE
    alone = parse(" ".join(words))
    assert alone is not None
    assert (alone.terms, alone.prefix) == (tuple((w,) for w in words[:11]), "w11")
    # An institution takes one of the twelve: the last word is dropped, so none is a prefix.
    with_one = parse("THU " + " ".join(words), TSINGHUA)
    assert with_one is not None
    assert (with_one.terms, with_one.prefix) == (tuple((w,) for w in words[:11]), None)
    assert [typed for typed, _ in with_one.institutions] == [("thu",)]
    # Twelve institutions leave no room for a word at all.
    named = parse(THIRTEEN_NAMED, MANY)
    assert named is not None
    assert (named.terms, named.prefix, len(named.institutions)) == ((), None, 12)


def test_the_index_reads_two_thousand_characters() -> None:
    parsed = parse(" " * 1996 + "abcdefg")
    assert parsed is not None
    assert parsed.prefix == "abcd"


def test_prefixes_are_three_to_sixteen_letters_of_each_distinct_word() -> None:
    words = ["abc", "ab", "abcd", "abc", "abcdefghijklmnopqrstu"]
    longest = "abcdefghijklmnopqrstu"
    assert prefixes(words) == " ".join(["abc", "abc", "abcd"] + [longest[:n] for n in range(3, 17)])


def test_prefixes_remembers_each_words_grams_in_the_memo_and_reuses_them() -> None:
    memo: dict[str, str] = {}
    assert prefixes(["attention"], memo) == "att atte atten attent attenti attentio attention"
    assert memo == {"attention": "att atte atten attent attenti attentio attention"}
    assert prefixes(["attention", "graph"], {"attention": "kept"}) == "kept gra grap graph"


def test_the_index_cuts_a_long_word_to_sixty_four_letters_as_queries_do() -> None:
    assert tokens("X" * 70 + " Ab 注意") == ["x" * 64, "ab", "注", "意"]
