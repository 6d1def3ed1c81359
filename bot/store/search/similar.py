"""Similar by topic (issue 27): papers about what a paper is about, with a relevance floor.

A paper's topic is its telling words — English stems of its title and own names (weighed
most), of its summaries and abstract, its authors (a shared author says much), its area and
its task. The derived index ranks every paper by BM25 over those words; each score is then read as a
share of the paper's own score against the same query (a paper is as close to itself as
anything gets), and only papers at or above FLOOR are shown: fewer than five rather than
unrelated ones, none ("no close match") when nothing is close. FTS5, SQLite's fallback while
the index is rebuilt, reads the same words and the same floor (`fts5_query`).

Where the index holds the papers' vectors (semantic.py: what each paper is about, by the
meaning model), the first POOL papers the words find are read by meaning too: one whose
vector's cosine to the paper's, less what the two papers' hubs say (semantic.Hubs: how near
each lies to its nearest papers, above TYPICAL_HUB, taken HUB_WEIGHT of), is at least
MEANING_FLOOR is close however low its words' score (two papers on reinforcement learning, one
naming Q-learning, the other options). A cosine in a crowded field (language models, where
every paper is near many) says less than the same cosine in a sparse one. And
one the words show must be near by meaning too, at least WORDS_MEANING_FLOOR: words in
common that mean other things ("recurrent" and "pixel" in a network that draws images one
pixel at a time and in one that refines optical flow) are not a topic. The paper's own vector
overrules its words only where the paper has a summary or an abstract: a title's alone is too
thin. Either way it must still pass `alike` (the words the two share), and the papers close
are shown in their words' order (benchmarks/similar.py measures both).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import partial

import tantivy

from bot.domain.areas import RESEARCH_AREAS
from bot.domain.models import StoredPaper
from bot.domain.paper_names import own_names
from bot.store.search.documents import area_token, filter_token, task_token
from bot.store.search.semantic import HUB_REFERENCE, Hubs, Kept, cosines, vector_of
from bot.store.search.text import stems, tokens

FLOOR = 0.22  # of the paper's own score: below it, not shown (benchmarks/similar.py)
CANDIDATES = 4  # papers above the floor looked at per paper shown, for `alike`
POOL = 60  # the papers the words rank first, read by meaning where the index has vectors
# The cosine of two papers' vectors, less HUB_WEIGHT of their mean hub above TYPICAL_HUB (the
# bundled catalogue's papers' mean hub), at or above which they are close: chosen for the model
# semantic.MODEL names (benchmarks/similar.py); another model needs them chosen again.
MEANING_FLOOR = 0.62
HUB_WEIGHT = 0.75
TYPICAL_HUB = 0.558
WORDS_MEANING_FLOOR = 0.56  # the cosine a paper the words show needs too (same model)
MAX_TERMS = 24  # the most telling words kept, by how rare they are
MAX_TEXT_TERMS = (
    12  # of them from summaries and abstract: a long summary does not outweigh the title
)
TITLE_WEIGHT = 3.0
TEXT_WEIGHT = 1.0
AUTHOR_WEIGHT = 2.0
AREA_WEIGHT = 1.0
TASK_WEIGHT = 1.0  # the same task (a finer label than the area): as much again
_LATIN = re.compile(r"^[a-z][a-z0-9]+$")
# Words of the field too general to say two papers are about the same thing, as stems.
GENERIC = frozenset(
    {
        "deep", "neural", "network", "architectur", "data", "train", "larg", "scale",
        "effici", "robust", "framework", "system", "analysi", "improv", "better", "toward",
        "general", "novel", "simpl", "fast", "learn", "model", "approach", "method", "task",
        "use", "via", "new", "beyond", "understand", "studi", "base", "power", "paper",
        "perform", "state", "art", "propos", "show", "result", "achiev", "time", "real",
        "world", "problem", "high", "multipl", "differ", "one", "two", "first", "work",
    }
)  # fmt: skip
STOPWORDS = frozenset(
    {
        "a",
        "about",
        "above",
        "after",
        "again",
        "against",
        "all",
        "also",
        "among",
        "an",
        "and",
        "any",
        "are",
        "as",
        "at",
        "be",
        "because",
        "been",
        "being",
        "between",
        "both",
        "but",
        "by",
        "can",
        "could",
        "did",
        "do",
        "does",
        "doing",
        "during",
        "each",
        "few",
        "for",
        "from",
        "further",
        "had",
        "has",
        "have",
        "having",
        "how",
        "however",
        "if",
        "in",
        "into",
        "is",
        "it",
        "its",
        "itself",
        "just",
        "more",
        "most",
        "new",
        "no",
        "nor",
        "not",
        "of",
        "off",
        "on",
        "once",
        "only",
        "or",
        "other",
        "our",
        "out",
        "over",
        "own",
        "same",
        "show",
        "shows",
        "so",
        "some",
        "such",
        "than",
        "that",
        "the",
        "their",
        "them",
        "then",
        "there",
        "these",
        "they",
        "this",
        "those",
        "through",
        "to",
        "too",
        "toward",
        "towards",
        "under",
        "until",
        "up",
        "upon",
        "use",
        "used",
        "uses",
        "using",
        "very",
        "via",
        "was",
        "we",
        "were",
        "what",
        "when",
        "where",
        "which",
        "while",
        "who",
        "whom",
        "why",
        "will",
        "with",
        "within",
        "without",
        "would",
        "yet",
        "paper",
        "propose",
        "proposes",
        "approach",
        "method",
        "methods",
        "model",
        "models",
        "learn",
        "learning",
        "result",
        "results",
        "based",
        "work",
        "task",
        "tasks",
        "problem",
        # How the catalogue's summaries speak ("the authors propose"): in most of them.
        "author",
        "authors",
    }
)


@dataclass(frozen=True, slots=True)
class Topic:
    """What a paper is about, as the similar query reads it."""

    paper_id: int
    title: tuple[str, ...]
    text: tuple[str, ...]
    authors: tuple[tuple[str, ...], ...]
    area: str | None
    task: str | None = None


def topic_of(stored: StoredPaper) -> Topic:
    paper = stored.paper
    title = " ".join([paper.title, *own_names(paper.title, paper.abstract)])
    text = " ".join(filter(None, [paper.summaries.get("en"), paper.abstract]))
    return Topic(
        paper_id=stored.id,
        title=tuple(_telling(title)),
        text=tuple(_telling(text)),
        authors=tuple(t for name in paper.authors if (t := tuple(tokens(name)))),
        area=paper.area.value if paper.area else None,
        task=paper.task.value if paper.task else None,
    )


def _telling(text: str) -> list[str]:
    words = [w for w in tokens(text) if _LATIN.match(w) and w not in STOPWORDS]
    return [s for s in stems(words) if s not in GENERIC and len(s) > 2]


def topic_query(
    schema: tantivy.Schema,
    searcher: tantivy.Searcher,
    topic: Topic,
    scope: tuple[str | None, int | None, str | None, str | None],
) -> tantivy.Query | None:
    """The papers sharing the topic's words (the rarest MAX_TERMS), within `scope` (venue,
    year, kind, area); None when the topic has no words at all."""

    def frequency(word: str) -> tuple[int, str]:
        found = searcher.doc_freq("title_stems", word) + searcher.doc_freq("text_stems", word)
        return found, word

    weights = dict.fromkeys(sorted(set(topic.text), key=frequency)[:MAX_TEXT_TERMS], TEXT_WEIGHT)
    weights |= dict.fromkeys(topic.title, TITLE_WEIGHT)
    rare = sorted(weights, key=frequency)[:MAX_TERMS]
    should = tantivy.Occur.Should
    clauses: list[tuple[tantivy.Occur, tantivy.Query]] = []
    papers = max(1, searcher.num_docs)
    for word in rare:
        # The query's own weight of a word is its rarity too (TF-IDF's cosine: idf twice), so a
        # rare word shared ("reframing") outweighs several common ones ("human", "interaction").
        boost = weights[word] * math.log(1 + papers / (1 + frequency(word)[0]))
        for field in ("title_stems", "text_stems"):
            term = tantivy.Query.term_query(schema, field, word)
            clauses.append((should, tantivy.Query.boost_query(term, boost)))
    for name in topic.authors:
        phrase = (
            tantivy.Query.term_query(schema, "authors", name[0])
            if len(name) == 1
            else tantivy.Query.phrase_query(schema, "authors", list(name))
        )
        clauses.append((should, tantivy.Query.boost_query(phrase, AUTHOR_WEIGHT)))
    if not clauses:
        return None
    found = tantivy.Query.boolean_query(clauses)
    query: list[tuple[tantivy.Occur, tantivy.Query]] = [(tantivy.Occur.Must, found)]
    if topic.area is not None:  # a paper filed under another area is about something else
        same = tantivy.Query.term_query(schema, "filters", area_token(topic.area))
        query.append((should, tantivy.Query.const_score_query(same, AREA_WEIGHT)))
        for other in RESEARCH_AREAS:
            if other != topic.area:
                elsewhere = tantivy.Query.term_query(schema, "filters", area_token(other))
                query.append((tantivy.Occur.MustNot, elsewhere))
    if topic.task is not None:
        same = tantivy.Query.term_query(schema, "filters", task_token(topic.task))
        query.append((should, tantivy.Query.const_score_query(same, TASK_WEIGHT)))
    venue, year, kind, area = scope
    if venue is not None or year is not None or kind is not None:
        token = filter_token(venue, year, kind)
        query.append((tantivy.Occur.Must, _nothing(schema, token)))
    if area is not None:
        query.append((tantivy.Occur.Must, _nothing(schema, area_token(area))))
    return tantivy.Query.boolean_query(query)


def _nothing(schema: tantivy.Schema, token: str) -> tantivy.Query:
    """A filter that adds nothing to the score."""
    return tantivy.Query.const_score_query(tantivy.Query.term_query(schema, "filters", token), 0.0)


def close_enough(scored: list[tuple[float, int]], itself: float, limit: int) -> list[int]:
    """The ids whose score is at least FLOOR of the paper's own, best first (ties by id)."""
    if itself <= 0:
        return []
    kept = sorted((-score, paper_id) for score, paper_id in scored if score >= FLOOR * itself)
    return [paper_id for _, paper_id in kept[:limit]]


def fts5_query(topic: Topic) -> str | None:
    """The topic as an FTS5 MATCH expression: any of its words (as prefixes: FTS5 holds whole
    words, not stems) or its authors (as phrases); None without any."""
    words = list(dict.fromkeys([*topic.title, *topic.text]))[:MAX_TERMS]
    parts = [f'"{word}"*' for word in words]
    parts += ['authors : "' + " ".join(name) + '"' for name in topic.authors[:MAX_TERMS]]
    return " OR ".join(parts) or None


TITLE_SHARED = 2  # of the topic's title words (its title and own names) the other paper uses
TEXT_SHARED = 2  # more words of the two summaries and abstracts in common, beside one title word
TEXT_ONLY = 4  # words of the two summaries and abstracts in common, without a title word


def alike(topic: Topic, other: StoredPaper) -> bool:
    """Whether `other` is about what the topic is about, past the ranking's floor: it shares
    an author, or uses TITLE_SHARED of the topic's title words (its title and own names), or
    one of them and TEXT_SHARED more words the two summaries and abstracts share, or TEXT_ONLY
    of those. One title word in common and little else ("Bayesian", "Segment", "Recovery")
    is a coincidence, however rare the word and however much of the score it makes."""
    theirs = topic_of(other)
    if set(topic.authors) & set(theirs.authors):
        return True
    title = set(topic.title) & set(theirs.title + theirs.text)
    text = (set(topic.text) & set(theirs.text)) - title
    return (
        len(title) >= TITLE_SHARED
        or (len(title) >= 1 and len(text) >= TEXT_SHARED)
        or len(text) >= TEXT_ONLY
    )


def reference(searcher: tantivy.Searcher) -> Kept:
    """The papers a hub is reckoned among: the first HUB_REFERENCE the index holds, with their
    vectors."""
    hits = searcher.search(tantivy.Query.all_query(), limit=HUB_REFERENCE, count=False).hits
    ids = searcher.fast_field_values("id", [address for _, address in hits])
    vectors = [searcher.doc(address).get_first("vector") for _, address in hits]
    return [(int(i or 0), vector) for i, vector in zip(ids, vectors, strict=True)]


def near_by_meaning(cosine: float, hub: float | None, other_hub: float | None) -> bool:
    """Whether a paper the words did not show is close by meaning: its cosine to the paper's,
    less HUB_WEIGHT of how much more crowded the two papers' fields are than most (a hub not
    known counts as TYPICAL_HUB), at least MEANING_FLOOR. Uncapped both ways: between papers
    of sparse fields (hubs of 0.26 to 0.42 for the bundled catalogue's loneliest twentieth) a
    cosine of 0.39 to 0.52 is enough, below WORDS_MEANING_FLOOR, as their nearest papers are
    that far from them; the two must still share words (`alike`)."""
    known = [TYPICAL_HUB if h is None else h for h in (hub, other_hub)]
    crowded = sum(known) / 2 - TYPICAL_HUB
    return cosine - HUB_WEIGHT * crowded >= MEANING_FLOOR


def similar_ranked(
    searcher: tantivy.Searcher,
    schema: tantivy.Schema,
    topic: Topic,
    scope: tuple[str | None, int | None, str | None, str | None],
    limit: int,
    hubs: tuple[Hubs, int],
) -> list[int]:
    """The ids of the papers about `topic` within `scope`, best first, the topic's own paper
    left out: the first `limit` the words find at or above FLOOR of its own score, and where
    the index has vectors, those of the first POOL near by meaning (`near_by_meaning`, each
    paper's hub from `hubs`: the index's, and the generation the searcher is of or before),
    less the words' papers below WORDS_MEANING_FLOOR by meaning."""
    query = topic_query(schema, searcher, topic, scope)
    every = topic_query(schema, searcher, topic, (None, None, None, None))
    if query is None or every is None:
        return []
    must, itself = tantivy.Occur.Must, tantivy.Query.term_query(schema, "id", topic.paper_id)
    own = searcher.search(tantivy.Query.boolean_query([(must, itself), (must, every)]), 1)
    others = tantivy.Query.boolean_query([(must, query), (tantivy.Occur.MustNot, itself)])
    kept = searcher.doc(own.hits[0][1]).get_first("vector") if own.hits else None
    mine = vector_of(kept)
    wanted = limit if mine is None else max(limit, POOL)
    hits = searcher.search(others, limit=wanted, count=False).hits
    ids = [int(i or 0) for i in searcher.fast_field_values("id", [a for _, a in hits])]
    scored = [(score, paper_id) for (score, _), paper_id in zip(hits, ids, strict=True)]
    top = own.hits[0][0] if own.hits else 0.0
    words = close_enough(scored[:limit], top, limit)
    if mine is None:
        return words
    by_words = set(words)
    overrules = bool(topic.text)  # a vector of the title alone does not overrule the words
    close = set()
    vectors = [searcher.doc(address).get_first("vector") for _, address in hits]
    known, generation = hubs
    reading = partial(reference, searcher)
    papers = [(topic.paper_id, kept), *zip(ids, vectors, strict=True)]
    hub, *their_hubs = known.of(generation, papers, reading)
    for paper_id, cosine, other_hub in zip(ids, cosines(vectors, mine), their_hubs, strict=True):
        # A cosine of None: the model could not read the paper, and the words alone say.
        if paper_id in by_words:
            near = not overrules or cosine is None or cosine >= WORDS_MEANING_FLOOR
        else:
            near = cosine is not None and near_by_meaning(cosine, hub, other_hub)
        if near:
            close.add(paper_id)
    shown = sorted((-score, i) for score, i in scored if i in close)
    return [i for _, i in shown]
