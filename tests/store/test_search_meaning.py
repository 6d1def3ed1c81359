"""Ranking by meaning (issue 27, bot/store/search/semantic.py): when no paper has every word
typed, the papers with some of them are ranked by meaning too; nowhere else. The model here is
a fake at the edge (a vector from the words a text holds), so that what is asserted is the
plumbing: which answers are ranked again, the fusion, the pages, the index's vectors kept and
rebuilt. One test runs the packaged model on the bundled catalogue."""

from __future__ import annotations

import hashlib
import sqlite3
import sys
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

import numpy as np
import pytest

from bot.domain.models import StoredPaper
from bot.domain.vocabulary import load_vocabulary
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.search import semantic
from bot.store.search.files import read_generation
from bot.store.search.glossary import Glossary
from bot.store.search.index import SearchIndex
from bot.store.search.readings import in_english
from bot.store.search.semantic import Embedder, by_meaning
from bot.store.search.store import store_of
from bot.store.search.text import parse
from tests.support.awards import award, batch

# What each axis of the fake's vectors stands for: a text holding any of an axis's words.
AXES = (("burrow", "tunnel", "digging", "warren"), ("desert", "sand", "dune"), ("ocean", "reef"))


class WordsModel:
    """WordLlama's `embed`, faked: a unit vector of the AXES a text holds (and a little of
    everything, so that no vector is zero); counts what it embedded."""

    def __init__(self) -> None:
        self.embedded: list[str] = []

    def embed(self, texts: list[str], norm: bool = True, batch_size: int = 64) -> np.ndarray:
        self.embedded += texts
        rows = []
        for text in texts:
            low = text.lower()
            row = [0.01 + sum(word in low for word in axis) for axis in AXES]
            rows.append(np.array(row, dtype=np.float32) / np.linalg.norm(row))
        return np.array(rows)


CATALOGUE = (
    # Every word of "quokka burrows" is found in one paper; of "quokka warrens" in none. By
    # words, the short papers on "quokka" rank first; by meaning, those on digging.
    award("Quokka Counting", abstract="A quokka census."),
    award("Quokka Diets", abstract="What the quokka eats in the sand of the desert."),
    award(
        "Quokka Burrows in the Scrub of Rottnest Island",
        abstract="Where, and how deep, the quokka digs its burrow among the roots of the scrub.",
    ),
    award(
        "Quokka Habitat and Its Seasonal Shelters",
        abstract="Tunnel networks dug by the quokka under the scrub, mapped over a whole year.",
    ),
    award("Wombat Tunnels", abstract="Digging behaviour of wombats."),
)


DIGGING = {
    "Quokka Burrows in the Scrub of Rottnest Island",
    "Quokka Habitat and Its Seasonal Shelters",
}


@asynccontextmanager
async def _searched(
    db: Database, glossary: Glossary | None = None
) -> AsyncIterator[tuple[PaperRepository, PaperRepository]]:
    """The store searched with the (fake) model, and by words alone."""
    meaning = SearchIndex(store_of(db), None, embedder=lambda: Embedder(WordsModel()))
    words = SearchIndex(store_of(db), None)
    for index in (meaning, words):
        await index.start()
    try:
        yield (
            PaperRepository(db, index=meaning, glossary=glossary),
            PaperRepository(db, index=words, glossary=glossary),
        )
    finally:
        for index in (meaning, words):
            await index.close()


@pytest.fixture
async def both(
    db: Database, catalog: CatalogRepository
) -> AsyncIterator[tuple[PaperRepository, PaperRepository]]:
    """The catalogue searched with the (fake) model, and by words alone."""
    await catalog.apply(batch(*CATALOGUE), actor="t", policy="update")
    async with _searched(db) as repositories:
        yield repositories


def _titles(found: Sequence[StoredPaper]) -> list[str]:
    return [p.paper.title for p in found]


def test_the_fusion_lifts_what_is_closest_in_meaning_and_keeps_the_words_share() -> None:
    query = np.array([1.0, 0.0], dtype=np.float32)
    vectors = [np.array(v, dtype=np.float16).tobytes() for v in ([0, 1], [0.6, 0.8], [1, 0])]
    assert by_meaning([10, 20, 30], [*vectors], query) == [30, 20, 10]
    # Without a vector a paper keeps its words' rank share only: below the same rank with one.
    assert by_meaning([10, 20, 30], [vectors[0], None, vectors[2]], query) == [30, 10, 20]
    # Vectors of another model's width count as none.
    assert by_meaning([10, 20], [b"\x00" * 6, b"\x00" * 6], query) == [10, 20]


async def test_when_no_paper_has_every_word_meaning_reranks_the_papers_with_some(
    both: tuple[PaperRepository, PaperRepository],
) -> None:
    meaning, words = both
    found, total, _ = await meaning.search_page("quokka warrens", limit=5)
    alone, total_alone, _ = await words.search_page("quokka warrens", limit=5)
    assert total == total_alone == 4  # no paper has "warrens": those with "quokka" answer
    # The papers about digging (a burrow, a tunnel) move up, one to the top.
    assert _titles(alone)[0] not in DIGGING  # by words, the shortest paper on "quokka"
    assert _titles(found)[0] in DIGGING
    for title in DIGGING:  # each moves up: the fusion weighs meaning twice the words
        assert _titles(found).index(title) < _titles(alone).index(title)


async def test_a_chinese_query_is_read_by_meaning_in_its_glosses_english(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(batch(*CATALOGUE), actor="t", policy="update")
    glossary = Glossary({"洞穴": ["warren"]})  # a word no paper holds, about digging
    async with _searched(db, glossary) as (meaning, words):
        found, total, _ = await meaning.search_page("quokka 洞穴", limit=5)
        alone, total_alone, _ = await words.search_page("quokka 洞穴", limit=5)
        assert total == total_alone == 4  # those with "quokka" answer
        assert _titles(alone)[0] not in DIGGING
        assert _titles(found)[0] in DIGGING  # "quokka warren", read by the model


def test_what_the_model_reads_of_a_query() -> None:
    glossary = Glossary({"洞穴": ["warren"], "隧道": ["tunnel", "burrow"]})
    vocabulary = load_vocabulary()

    def english(text: str) -> str:
        parsed = parse(text, None, vocabulary, glossary.read)
        assert parsed is not None
        return in_english(parsed)

    assert english("Quokka Warrens") == "quokka warrens"  # English: as typed
    assert english("quokka 洞穴 隧道") == "quokka warren tunnel burrow"
    assert english("強化學習 洞穴") == "warren reinforcement learning"  # a vocabulary name
    assert english("quokka 沙漠") == ""  # nothing of its Chinese read: the words alone


async def test_a_query_naming_a_person_is_ranked_by_words_alone(
    db: Database, catalog: CatalogRepository
) -> None:
    """Who wrote a paper is nothing the model reads: a name typed keeps the words' order."""
    await catalog.apply(
        batch(
            award("Quokka Counting", abstract="A quokka census.", authors=["Ada Fielding"]),
            award("Quokka Diets", abstract="The quokka in the sand.", authors=["Ada Fielding"]),
            *(
                award(title, abstract=f"{abstract} of the quokka.", authors=[author])
                for title, abstract, author in (
                    ("Quokka Burrows", "The burrow", "Bo Lin"),
                    ("Quokka Shelters", "Tunnel digging", "Cy Moor"),
                    ("Quokka Warrens Mapped", "Each tunnel", "Di Heath"),
                )
            ),
        ),
        actor="t",
        policy="update",
    )
    async with _searched(db) as (meaning, words):
        typed = "ada fielding burrows"  # no paper has all three: those with some answer
        found = _titles((await meaning.search_page(typed, limit=5))[0])
        assert found == _titles((await words.search_page(typed, limit=5))[0])
        assert set(found[:2]) == {"Quokka Counting", "Quokka Diets"}  # hers, first


async def test_every_word_found_an_exact_title_and_chinese_stay_as_words_rank_them(
    both: tuple[PaperRepository, PaperRepository],
) -> None:
    meaning, words = both
    # 隧道 is not in the learned table: nothing of this query's Chinese is read in English.
    for text in ("quokka burrows", "Wombat Tunnels", "quokka 隧道 reef"):
        assert await meaning.search_page(text, limit=5) == await words.search_page(text, limit=5)
    found, total, _ = await meaning.search_page("quokka burrows", limit=5)
    assert (_titles(found), total) == (["Quokka Burrows in the Scrub of Rottnest Island"], 1)


async def test_pages_of_an_answer_ranked_by_meaning_neither_repeat_nor_skip(
    db: Database, catalog: CatalogRepository
) -> None:
    """Past semantic.RERANK (200) the words' order goes on: the papers ranked by meaning are
    exactly the first 200 the words rank (by score and the prior for recency, not the
    index's own order), so no page repeats one or leaves one out, a page across 200 too."""
    many = [
        award(
            f"Quokka Study {n}",
            year=2012 if n < 180 else 2025,
            abstract="sand" if n % 3 else "reef",
        )
        for n in range(230)
    ]
    await catalog.apply(batch(*CATALOGUE, *many), actor="t", policy="update")
    index = SearchIndex(store_of(db), None, embedder=lambda: Embedder(WordsModel()))
    await index.start()
    try:
        papers = PaperRepository(db, index=index)
        for limit in (30, 70):  # 180-210 and 140-210: pages across 200
            pages, total = [], 0
            for offset in range(0, 240, limit):
                found, total, _ = await papers.search_page(
                    "quokka reef lagoon", limit=limit, offset=offset
                )
                pages += [p.id for p in found]
            assert total == 234  # no paper has "lagoon": every quokka paper has a word of it
            assert len(pages) == len(set(pages)) == total, limit
        first, _, _ = await papers.search_page("quokka reef lagoon", limit=40)
        halves = [
            await papers.search_page("quokka reef lagoon", limit=20, offset=o) for o in (0, 20)
        ]
        assert [p.id for p in first] == [p.id for half, _, _ in halves for p in half]
        # The recent papers, first by the prior, are among those ranked again: on page one.
        assert any(p.paper.title.startswith("Quokka Study 2") for p in first)
    finally:
        await index.close()


async def test_the_index_keeps_its_vectors_and_is_rebuilt_for_another_model(
    db: Database, catalog: CatalogRepository, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await catalog.apply(batch(*CATALOGUE), actor="t", policy="update")
    model = WordsModel()
    where = tmp_path / "index"
    index = SearchIndex(store_of(db), where, embedder=lambda: Embedder(model))
    await index.start()
    await index.close()
    assert len(model.embedded) == len(CATALOGUE)
    assert read_generation(where)["model"] == semantic.MODEL
    again = SearchIndex(store_of(db), where, embedder=lambda: Embedder(model))
    await again.start()  # the same model: opened as kept, nothing embedded again
    await again.close()
    assert len(model.embedded) == len(CATALOGUE)
    words = SearchIndex(store_of(db), where)  # no model: rebuilt without vectors
    await words.start()
    await words.close()
    assert read_generation(where)["model"] is None
    monkeypatch.setattr(semantic, "MODEL", "another recipe")
    other = SearchIndex(store_of(db), where, embedder=lambda: Embedder(WordsModel()))
    await other.start()
    try:  # rebuilt with vectors, and they rank: kept on disk, read back
        assert read_generation(where)["model"] == "another recipe"
        found, _, _ = await PaperRepository(db, index=other).search_page("quokka warrens", limit=5)
        assert found[0].paper.title in DIGGING
    finally:
        await other.close()


def test_the_embedder_remembers_vectors_by_text_and_forgets_the_oldest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(semantic, "REMEMBERED", 2)
    model = WordsModel()
    embedder = Embedder(model)
    first = embedder.papers(["sand", "reef"])
    assert embedder.papers(["reef", "sand"]) == first[::-1]
    assert model.embedded == ["sand", "reef"]
    embedder.papers(["tunnel"])  # "reef" was asked for before "sand": forgotten
    embedder.papers(["sand", "reef"])
    assert model.embedded == ["sand", "reef", "tunnel", "reef"]
    key = hashlib.blake2b(b"tunnel", digest_size=16).digest()
    assert key not in embedder._remembered


def test_papers_of_the_same_text_share_one_vector_and_the_rest_keep_theirs() -> None:
    model = WordsModel()
    sand, twice, reef = Embedder(model).papers(["sand", "sand", "reef"])
    assert sand == twice != reef
    assert model.embedded == ["sand", "reef"]
    assert reef == Embedder(WordsModel()).papers(["reef"])[0]


def test_a_model_that_cannot_load_leaves_the_words_to_rank(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setitem(sys.modules, "wordllama", None)  # importing it fails
    assert semantic.load_embedder.__wrapped__() is None
    assert "words alone rank" in caplog.text


async def test_the_packaged_model_finds_a_paper_described_in_other_words(
    template_db: Path,
) -> None:
    """The real model on the bundled catalogue: a member describing unsupervised translation
    without its words finds it on the first page, above where the words alone put it (fifth,
    below papers that merely translate, since the rarest words typed weigh most)."""
    meant = "Phrase-Based & Neural Unsupervised Machine Translation"
    text = "translating between languages with little parallel text"
    parsed = parse(text)
    assert parsed is not None
    ranked = {}
    for name, embedder in (("meaning", semantic.load_embedder), ("words", None)):
        index = SearchIndex(template_db, None, embedder=embedder)
        await index.start()
        try:
            found = index.page_now(parsed, limit=5)
            assert found is not None
            ranked[name] = found[0]
        finally:
            await index.close()
    conn = sqlite3.connect(template_db)
    try:
        (paper,) = conn.execute("SELECT id FROM live_papers WHERE title = ?", (meant,)).fetchone()
    finally:
        conn.close()
    assert paper in ranked["meaning"]
    by_words = ranked["words"].index(paper) if paper in ranked["words"] else len(ranked["words"])
    assert ranked["meaning"].index(paper) < by_words


# Similar (search/similar.py): beside the papers whose words score at least FLOOR of the
# paper's own, those of the words' first POOL whose vectors are close (MEANING_FLOOR); each
# must still share the words `alike` asks for.
SIMILAR = (
    award(
        "Quokka Burrows in the Scrub of Rottnest Island",
        abstract="Where, and how deep, the quokka digs its burrow among the roots of the scrub.",
        authors=["Ada Fielding"],
    ),
    # About digging too, in other words: two title words shared (island, scrub), little else.
    award(
        "Seasonal Warrens of Island Marsupials in Coastal Scrub",
        abstract="A census of tunnel entrances kept by bettongs over four wet seasons.",
        authors=["Bea Marsh"],
        year=2024,
    ),
    # About digging, but one word shared only (island): not `alike`, however close its vector.
    award(
        "Wombat Tunnels of King Island",
        abstract="Digging behaviour of wombats.",
        authors=["Cy Moor"],
    ),
    # Many of the words, and about digging too: shown either way.
    award(
        "Quokka Burrow Entrances on Rottnest Island",
        abstract="The tunnel entrances the quokka digs among the roots of the scrub, counted.",
        authors=["Di Heath"],
    ),
    # Many of the words, about sand dunes: the words alone show it, their meaning does not.
    award(
        "Quokka Scrub Diets on Rottnest Island",
        abstract="What the quokka eats among the roots of the scrub on the sand of the dunes.",
        authors=["Ed Dunn"],
    ),
    # No summary nor abstract: its vector, of the title alone, overrules no word.
    award("Quokka Scrub Dunes of Rottnest Island", authors=["Flo Sands"]),
    *(award(f"Island Scrub Survey {n}", abstract="Plants counted.") for n in range(6)),
)


async def test_similar_adds_papers_close_in_meaning_that_share_words_enough(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(batch(*SIMILAR), actor="t", policy="update")
    async with _searched(db) as (by_meaning, by_words):
        (burrows,) = await by_words.search("Quokka Burrows Rottnest", limit=1)
        found = _titles(await by_meaning.similar(burrows.id))
        alone = _titles(await by_words.similar(burrows.id))
        warrens = "Seasonal Warrens of Island Marsupials in Coastal Scrub"
        assert warrens not in alone  # its words score too little
        assert warrens in found  # its vector is close, and it shares two title words
        assert "Wombat Tunnels of King Island" not in found + alone  # close, but one word
        entrances, diets = (
            "Quokka Burrow Entrances on Rottnest Island",
            "Quokka Scrub Diets on Rottnest Island",
        )
        assert entrances in alone
        assert diets in alone
        assert entrances in found  # the words' papers near by meaning stay
        assert diets not in found  # the words in common mean other things
        # In the words' order: the papers they found first keep their places.
        assert [t for t in found if t in alone] == [t for t in alone if t != diets]
        assert burrows.paper.title not in found  # never the paper itself, closest of all
        (dunes,) = await by_words.search("Quokka Scrub Dunes", limit=1)
        words_of_dunes = _titles(await by_words.similar(dunes.id))
        assert entrances in words_of_dunes  # far from the dunes by meaning, yet shown:
        assert set(words_of_dunes) <= set(_titles(await by_meaning.similar(dunes.id)))
        # Within the filters given, as the words' papers are: another year's is left out.
        assert warrens not in _titles(await by_meaning.similar(burrows.id, year=2025))
        assert warrens in _titles(await by_meaning.similar(burrows.id, year=2024))


# Hubs (semantic.Hubs): a paper's cosine to another says less where both lie among many near
# papers. Bettongs' warrens crowd the field of digging: none shares words enough with the paper
# on burrows to be shown (`alike`), yet each lies as near it as a copy.
BURROWS = award(
    "Quokka Burrows in the Scrub of Rottnest Island",
    abstract="Where, and how deep, the quokka digs its burrow among the roots of the scrub.",
)
# Two title words shared, too few words to be shown by them: by meaning or not at all. About
# digging and deserts both: a cosine of 0.71 to the burrows.
WARRENS = award(
    "Seasonal Warrens of Island Marsupials in Coastal Scrub",
    abstract="A census of tunnel entrances kept by bettongs in the sand of the desert.",
)
REEFS = tuple(award(f"Reef Survey {n}", abstract="Ocean plants counted.") for n in range(6))
CROWD = tuple(award(f"Bettong Warrens {n}", abstract="Digging of tunnels.") for n in range(10))


@pytest.mark.parametrize("crowded", [False, True], ids=["sparse", "crowded"])
async def test_a_cosine_says_less_where_both_papers_lie_among_many_near_ones(
    db: Database, catalog: CatalogRepository, crowded: bool
) -> None:
    await catalog.apply(
        batch(BURROWS, WARRENS, *REEFS, *(CROWD if crowded else ())), actor="t", policy="update"
    )
    async with _searched(db) as (by_meaning, by_words):
        (burrows,) = await by_words.search("Quokka Burrows Rottnest", limit=1)
        found = _titles(await by_meaning.similar(burrows.id, limit=20))
        assert WARRENS.paper.title not in _titles(await by_words.similar(burrows.id, limit=20))
        assert not set(found) & {a.paper.title for a in CROWD}  # not `alike`: never shown
        # The same cosine either way: close where the two have few near papers, not where
        # they have many.
        assert (WARRENS.paper.title in found) is not crowded


def _kept(*rows: Sequence[float]) -> list[bytes]:
    return [np.array(r, dtype=np.float32).astype(semantic.FLOAT16).tobytes() for r in rows]


def test_a_papers_hub_is_the_mean_cosine_of_its_nearest_itself_left_out() -> None:
    hubs, reads = semantic.Hubs(), []
    far, near, lone = _kept([0.0, 1.0, 0.0], [0.6, 0.8, 0.0], [0.0, 0.0, 1.0])
    crowd = _kept(*([1.0, 0.0, 0.0] for _ in range(semantic.HUB_NEIGHBOURS + 1)))
    reference = [(10, far), (11, near), (12, lone), *enumerate(crowd, start=100)]

    def read() -> semantic.Kept:
        reads.append(1)
        return reference

    one_of_crowd, alone, without = hubs.of(1, [(100, crowd[0]), (12, lone), (99, None)], read)
    assert one_of_crowd == pytest.approx(1.0, abs=1e-3)  # its ten nearest: the rest of it
    assert alone == pytest.approx(0.0, abs=1e-3)  # its own cosine, 1, is not counted
    assert without is None  # no vector, no hub
    (beside,) = hubs.of(1, [(11, near)], read)  # 0.6 to each of the crowd, 0.8 to `far`
    ten = semantic.HUB_NEIGHBOURS
    assert beside == pytest.approx((0.8 + 0.6 * (ten - 1)) / ten, abs=1e-3)
    assert len(reads) == 1  # read once for a generation of the index
    # Another generation's papers are read again: here, fewer than two with vectors.
    assert hubs.of(2, [(100, crowd[0])], lambda: [*reference[:1], (13, None)]) == [None]
    # A paper the reference names twice is left out of its own hub all the same.
    (twice,) = hubs.of(3, [(10, far)], lambda: [(10, far), (10, far), (11, near)])
    assert twice == pytest.approx(0.8, abs=1e-3)
