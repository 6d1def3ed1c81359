"""Which readings of what a person typed answer, in order, and the papers close to it (issue
27): every word as typed; within a typo; any of the words; the first that finds a paper is the
answer (query.py builds each reading's query). After fewer matches than a page holds, the later
readings' papers are those close to the query.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable
from dataclasses import replace

import tantivy

from bot.store.search.query import (
    EVERYTHING,
    FUZZY_MIN,
    NAMING,
    NAMING_DEPTH,
    STEM_WEIGHTS,
    Fields,
    Filters,
    build_query,
)
from bot.store.search.ranked import ranked, ranked_hits
from bot.store.search.semantic import RERANK, Embedder, by_meaning
from bot.store.search.text import Parsed, is_cjk, stems

log = logging.getLogger(__name__)

# A word more than this share of the papers hold is left out of the papers close to a query.
COMMON = 0.1


def page(
    searcher: tantivy.Searcher,
    schema: tantivy.Schema,
    parsed: Parsed,
    filters: Filters,
    limit: int,
    offset: int,
    *,
    count: bool = True,
    any_word: bool = True,
    naming: bool = False,
    close: int = 0,
    meaning: Embedder | None = None,
) -> tuple[list[int], int]:
    """A page of paper ids, best first (ties by id), and how many matched in all (-1 unless
    `count`): the papers with every word as typed; when none has, every word within one
    edit (a typo costs only the search that has one); when none has and `any_word`, any of
    the words (`relaxed`: a member's search, not a command naming one paper). `naming`:
    autocomplete, which names one paper as one types: only the NAMING fields, a word still
    being typed that none of them holds left out, and never the any-word search.

    `close`: on a first page, when fewer than `close` papers matched, the ids go on past the
    matches with papers close to the query, up to `close` in all: those the later readings
    find (within a typo, most of a Chinese run's words or glosses, any of the words), best
    first. The ids past the count are those; the count stays the matches'.

    `meaning`: when the answer is the any-word reading (no paper has every word), its first
    papers are ranked by meaning too (semantic.py): an English query's words, a Chinese one's
    read in English (in_english)."""
    fields = NAMING if naming else EVERYTHING

    def readings(reading: Parsed) -> tuple[list[int], int]:
        return _readings(
            searcher, schema, reading, filters, limit, offset, count, any_word, fields, close,
            meaning,
        )  # fmt: skip

    if any_word or naming:
        parsed = _without_dead_words(searcher, parsed, fields)
    if any_word and not naming and parsed.capitals and parsed.prefix is not None:
        # An acronym typed in capitals is a whole word (VAR, not variational), unless no
        # paper has it whole: then it is read as typed, a prefix.
        found = readings(replace(parsed, terms=(*parsed.terms, (parsed.prefix,)), prefix=None))
        if found[0] or found[1] > 0:
            return found
    return readings(parsed)


def _readings(
    searcher: tantivy.Searcher,
    schema: tantivy.Schema,
    parsed: Parsed,
    filters: Filters,
    limit: int,
    offset: int,
    count: bool,
    any_word: bool,
    fields: Fields,
    close: int = 0,
    meaning: Embedder | None = None,
) -> tuple[list[int], int]:
    """`page`'s readings, the first that finds any paper answering; then, for `close`, the
    later readings' papers; the any-word reading's ranked by `meaning` too."""
    naming = fields is NAMING
    attempts = [(False, False), (True, False)]  # (fuzzy, relaxed)
    words = len(parsed.terms) + len(parsed.topics) + (parsed.prefix is not None)
    if any_word and not naming and words > 1:
        attempts.append((True, True))
    depth = NAMING_DEPTH if naming else 4
    for at, (fuzzy, relaxed) in enumerate(attempts):
        query = build_query(
            schema, parsed, *filters, fuzzy=fuzzy, relaxed=relaxed, fields=fields,
            rarity=_rarity(searcher) if relaxed else None,
        )  # fmt: skip
        # What the model reads, read only where it ranks: not for autocomplete, nor every word.
        ranks = relaxed and meaning is not None and offset < RERANK
        english = _for_model(searcher, parsed) if ranks else ""
        if meaning is not None and english:
            found = _by_meaning(searcher, query, english, meaning, limit, offset, count)
        else:
            found = ranked(searcher, query, limit, offset, count=count, depth=depth)
        if found[0] or found[1] > 0:
            if offset == 0 and 0 <= found[1] < close and not _names_a_paper(searcher, parsed):
                later = attempts[at + 1 :]
                extra = _close(searcher, schema, parsed, filters, fields, found, close, later)
                return [*found[0], *extra], found[1]
            return found
        if offset > 0 and searcher.search(query, limit=1, count=False).hits:
            return found  # a page past the last of this reading: the next would differ
    return found


def _for_model(searcher: tantivy.Searcher, parsed: Parsed) -> str:
    """What the model reads of the query: what papers are about, in English (in_english); ""
    for one naming a person, whose papers no meaning tells (_names_someone)."""
    return "" if _names_someone(searcher, parsed) else in_english(parsed)


def in_english(parsed: Parsed) -> str:
    """What the query says, for the meaning model (it reads English): the words as typed,
    or in a query with Chinese, its Chinese runs' English stems (the glossary's) and the
    longest English name of each vocabulary ring it names, beside its words typed in English;
    "" where nothing of its Chinese is read in English (the words alone rank it)."""
    if not any(is_cjk(character) for character in parsed.whole):
        return parsed.whole
    words: list[str] = []
    read = bool(parsed.topics)
    for term in parsed.terms:
        if term and not is_cjk(term[0][0]):
            words.extend(term)
        for stems_of_a_word in parsed.glossed(term):
            words.extend(stems_of_a_word)
            read = True
    for names in parsed.topics:
        # Of its English names the longest (reinforcement learning, not RL).
        english = [name for name in names if name and not is_cjk(name[0][0])]
        longest: tuple[str, ...] = max(english, key=len) if english else ()
        words.extend(longest)
    if parsed.prefix is not None and not is_cjk(parsed.prefix[0]):
        words.append(parsed.prefix)
    return " ".join(words) if read else ""


def _by_meaning(
    searcher: tantivy.Searcher,
    query: tantivy.Query,
    text: str,
    meaning: Embedder,
    limit: int,
    offset: int,
    count: bool,
) -> tuple[list[int], int]:
    """`ranked`'s page of `query` and count, but its first RERANK papers (exactly those
    `ranked` pages through first) fused with their order by meaning to `text`
    (semantic.by_meaning, with the vectors the index keeps); past them, `ranked`'s order: no
    page repeats or skips a paper. If the model fails on `text`, `ranked`'s page as it is."""
    end = offset + limit
    first, total = ranked_hits(searcher, query, RERANK, 0, count=count, depth=1)
    ids = [paper_id for paper_id, _ in first]
    vectors = [searcher.doc(address).get_first("vector") or None for _, address in first]
    try:
        ids = by_meaning(ids, vectors, meaning.query(text))
    except Exception:  # a model that fails leaves the words' order, never the index's fault
        log.exception("search: ranking by meaning failed; words alone rank %r", text)
    if end > RERANK and len(first) == RERANK:
        ids += ranked(searcher, query, end, 0, count=False)[0][RERANK:]
    return ids[offset:end], total


def _close(
    searcher: tantivy.Searcher,
    schema: tantivy.Schema,
    parsed: Parsed,
    filters: Filters,
    fields: Fields,
    found: tuple[list[int], int],
    close: int,
    later: list[tuple[bool, bool]],
) -> list[int]:
    """Up to `close` less the matches' count papers of the `later` readings, best first
    within each, none of the matches. The any-word reading leaves out the words most papers
    hold (`_uncommon`): they say little of a topic, and ranking every paper that has one made
    a full title's search at 100,000 papers several times slower."""
    seen, wanted, extra = set(found[0]), close - found[1], list[int]()
    for fuzzy, relaxed in later:
        if len(extra) >= wanted:
            break
        reading = _uncommon(searcher, parsed) if relaxed else parsed
        if reading is None:
            break
        query = build_query(schema, reading, *filters, fuzzy=fuzzy, relaxed=relaxed, fields=fields)
        for paper_id in ranked(searcher, query, close + len(seen), 0, count=False)[0]:
            if paper_id not in seen and len(extra) < wanted:
                seen.add(paper_id)
                extra.append(paper_id)
    return extra


def _names_someone(searcher: tantivy.Searcher, parsed: Parsed) -> bool:
    """Whether a word typed is an author's name and no title's or text's word ("yasutaka
    furukawa papers"): the papers meant are that person's, which no meaning tells."""
    words = [term[0] for term in parsed.terms if len(term) == 1]
    words += [parsed.prefix] if parsed.prefix is not None else []
    for word in words:
        stem = stems([word])
        if searcher.doc_freq("authors", word) and not any(
            searcher.doc_freq(field, stem[0]) for field in STEM_WEIGHTS if stem
        ):
            return True
    return False


def _rarity(searcher: tantivy.Searcher) -> Callable[[tuple[str, ...]], float]:
    """A typed word's rarity among the papers (its stem's idf in the title or the text, where
    more papers hold it); a phrase's or a Chinese run's, the most a word's can be."""
    papers = max(1, searcher.num_docs)

    def rarity(words: tuple[str, ...]) -> float:
        if len(words) != 1:
            return math.log(papers)
        stem = stems([words[0]])
        held = max((searcher.doc_freq(field, stem[0]) for field in STEM_WEIGHTS if stem), default=0)
        return math.log(1 + papers / (1 + held))

    return rarity


def _names_a_paper(searcher: tantivy.Searcher, parsed: Parsed) -> bool:
    """Whether what was typed is a paper's exact title (or own name): nothing is close to it."""
    return bool(parsed.whole) and searcher.doc_freq("filters", f"exact:{parsed.whole}") > 0


def _uncommon(searcher: tantivy.Searcher, parsed: Parsed) -> Parsed | None:
    """`parsed` without its single words that more than COMMON of the papers hold (by their
    stems), the word still being typed included; None when no word is left."""
    most = COMMON * searcher.num_docs

    def common(word: str) -> bool:
        stem = stems([word])
        held = (searcher.doc_freq(field, stem[0]) for field in STEM_WEIGHTS if stem)
        return max(held, default=0) > most  # at least as many papers hold it

    terms = tuple(t for t in parsed.terms if len(t) > 1 or not common(t[0]))
    prefix = None if parsed.prefix is None or common(parsed.prefix) else parsed.prefix
    if not (terms or parsed.topics or prefix):
        return None
    return replace(parsed, terms=terms, prefix=prefix)


def _without_dead_words(
    searcher: tantivy.Searcher, parsed: Parsed, fields: Fields = EVERYTHING
) -> Parsed:
    """`parsed` without the typed words no paper holds in any field that are too short to be
    found within one edit ("Networks Le", a word still being typed): such a word fails the
    query of every word, then the one within one edit, and only the any-word query answers,
    ranking every paper with one of the others (three searches, the dearest last); without
    it the first query answers with the papers holding the others. Kept when it is the only
    word. Held means held in one of `fields`."""

    def dead(term: tuple[str, ...]) -> bool:
        if len(term) != 1 or len(term[0]) >= FUZZY_MIN:
            return False
        (word,) = term
        stem = stems([word])
        held = [(field, word) for field in fields.of(word)]
        held += [(field, stem[0]) for field in fields.stems if stem]
        return not any(searcher.doc_freq(field, text) for field, text in held)

    alive = tuple(term for term in parsed.terms if not dead(term))
    if len(alive) == len(parsed.terms) or not (alive or parsed.topics or parsed.prefix):
        return parsed
    return replace(parsed, terms=alive)
