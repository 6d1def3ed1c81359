"""The derived index's schema and queries: what a person typed (`Parsed`) as one tantivy query.

Ranking (issue 27): every typed word (or phrase, or vocabulary ring) must match in some field;
within a word's group the fields are summed, BM25 with field weights: the title and the names
the paper gives itself first, then authors, affiliations, what it is filed under (area in three
languages, venue, award), summaries and abstract; a paper's names include the parts of a name
written joined (SinGAN: GAN). A word also matches by its English stem (grasping → grasp).
When nothing has every word as typed, a longer word (FUZZY_MIN letters or more) matches
within one edit, or (ENDING_MIN or more) with another ending (equilibrium, equilibria), at a
constant, low score, and a CJK run by most of its two-character words, or a Chinese run by
at least half of its words' English glosses (glossary.py: the words a learned table or a
dictionary knows; 具身, embodi), lower still. A CJK run matches as
a phrase, or else as its two-character words anywhere. The last word, still being typed,
matches whole words, its stem or the per-word edge n-grams; typed in capitals (VAR), it is an
acronym typed whole, not a prefix, in a member's search. On top come an exact title (or own
name) bonus that no other match reaches, the typed words as a phrase of the title, and a mild
prior for the award's standing and its recency, smaller than one title word's match
(ranked.py). When
nothing has every word, papers with any are ranked instead (`relaxed_query`). After fewer
matches than a page holds, a member's first page goes on with what the later readings find:
papers close to the query, shown apart and not counted as matches (readings.py says which
readings a query gets, in what order).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import tantivy

from bot.store.search.documents import TEXT_FIELDS, area_token, filter_token, pair_token
from bot.store.search.text import PREFIX_MAX, Glosses, Parsed, is_cjk, stems

WEIGHTS = {
    "title": 10.0,
    "aliases": 8.0,
    "authors": 4.0,
    "affiliations": 2.0,
    "meta": 1.5,
    "summaries": 1.0,
    "abstract": 1.0,
}
STEM_WEIGHTS = {"title_stems": 5.0, "text_stems": 0.8}
PREFIX_WEIGHTS = {
    "title_prefix": 10.0,
    "authors_prefix": 4.0,
    "affiliations_prefix": 2.0,
    "text_prefix": 1.0,
}
# A word within one edit: a constant score per field, well under an exact match's.
FUZZY_WEIGHTS = {"title": 3.0, "aliases": 3.0, "authors": 2.0, "text_stems": 0.3}
FUZZY_MIN = 5  # letters: a shorter word has too many neighbours one edit away
# A word of ENDING_MIN letters or more also matches, within one edit's reading, any word that
# shares all its letters but the last ENDING (Latin and Greek plurals: -um/-a, -is/-es, -on/-a).
ENDING_MIN = 8
ENDING = 2
AFFILIATIONS_WEIGHT = WEIGHTS["affiliations"]
SYNONYM = 0.6  # another name of a vocabulary ring than the one typed
CJK_WORDS = 0.3  # a CJK run found as its two-character words, not as the phrase typed
# A CJK run found by most of its overlapping two-character words (within one edit's reading).
CJK_MOST = 0.2
# A Chinese run found by at least half of its words' English glosses (glossary.py).
GLOSSED = 0.1
EXACT_TITLE = 1_000.0  # above any sum of matches: an exact title is never buried
TITLE_PHRASE = 20.0
# In the any-word reading, each typed word a paper holds adds RARITY times the word's rarity
# (its idf): the paper with the one rare word typed ("Minecraft", in its summary) above those
# with the common ones ("research", "environment") in their titles, which the field weights
# alone put first. Chosen by benchmarks/ranking.py.
RARITY = 30.0


@dataclass(frozen=True, slots=True)
class Fields:
    """The fields a query reads, with their weights: whole words, stems, prefixes, one edit,
    a CJK run's characters, and the English stems a Chinese run's glosses are looked for in."""

    words: dict[str, float]
    stems: dict[str, float]
    prefixes: dict[str, float]
    fuzzy: dict[str, float]
    cjk: dict[str, float]
    glosses: dict[str, float]

    def of(self, token: str) -> dict[str, float]:
        """Where a typed word (a CJK run's first character) is looked for as it stands."""
        return self.cjk if is_cjk(token) else self.words


# A member's search: everything that describes a paper.
EVERYTHING = Fields(WEIGHTS, STEM_WEIGHTS, PREFIX_WEIGHTS, FUZZY_WEIGHTS, WEIGHTS, STEM_WEIGHTS)
# Autocomplete, which names one paper: what names it (its title, its own names, its authors,
# the venue and award it is filed under), never its summaries, abstract or affiliations. A
# common word ("learning") is held by most summaries and abstracts of a large catalogue, and
# scoring each of them in seven fields made autocomplete's p99 at 100,000 papers. A CJK run
# is the exception: titles are published in English, and a reader of zh-TW or zh-CN names the
# paper by the words of its summary in their language (the only field holding that script);
# not by its glosses, which a common word (模型: model) would have match most titles.
_NAMES = {name: WEIGHTS[name] for name in ("title", "aliases", "authors", "meta")}
NAMING = Fields(
    _NAMES,
    {"title_stems": STEM_WEIGHTS["title_stems"]},
    {name: PREFIX_WEIGHTS[name] for name in ("title_prefix", "authors_prefix")},
    {name: FUZZY_WEIGHTS[name] for name in ("title", "aliases", "authors")},
    _NAMES | {"summaries": WEIGHTS["summaries"]},
    {},
)


_POSITIONS = (*WEIGHTS, *STEM_WEIGHTS)
# Autocomplete's scores are close (a prefix of a common title word scores tens of thousands of
# titles alike), so the prior reorders deeper than a member's search: fetched this many times
# the page at once, rather than every match scored twice.
NAMING_DEPTH = 16
Filters = tuple[str | None, int | None, str | None, str | None]  # venue, year, kind, area


def schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("id", stored=True, indexed=True, fast=True)
    builder.add_integer_field("prior", stored=False, indexed=False, fast=True)
    for name in _POSITIONS:
        builder.add_text_field(name, tokenizer_name="whitespace", index_option="position")
    for name in PREFIX_WEIGHTS:
        builder.add_text_field(name, tokenizer_name="whitespace", index_option="freq")
    # Each two adjacent English stems of the summaries and the abstract (pair_token).
    builder.add_text_field("text_pairs", tokenizer_name="whitespace", index_option="freq")
    builder.add_text_field("filters", tokenizer_name="raw", index_option="basic")
    builder.add_bytes_field("vector", stored=True)  # what the paper is about: semantic.py
    return builder.build()


def build_query(
    schema: tantivy.Schema,
    parsed: Parsed,
    venue: str | None,
    year: int | None,
    kind: str | None,
    area: str | None,
    *,
    relaxed: bool = False,
    fuzzy: bool = True,
    fields: Fields = EVERYTHING,
    rarity: Callable[[tuple[str, ...]], float] | None = None,
) -> tantivy.Query:
    """`parsed` as a query of the index of `schema`, filtered by venue, year, kind and area;
    `relaxed`: any of the typed words may match instead of every one (an institution named
    still narrows, as a filter does), and with `rarity` (of a typed word, or of a phrase or
    a Chinese run), each one held counts RARITY times its rarity besides; `fuzzy`: a longer
    word also matches within one edit, or with another ending;
    `fields`: where the words are looked for."""
    groups = [
        _word(schema, words, fields, fuzzy=fuzzy, glosses=parsed.glossed(words))
        for words in parsed.terms
    ]
    for said, *others in parsed.topics:
        clauses = _phrase_anywhere(schema, said, fields)
        for name in others:  # another name of the topic: found, below the name typed
            clauses += [
                tantivy.Query.boost_query(c, SYNONYM)
                for c in _phrase_anywhere(schema, name, fields)
            ]
        groups.append(clauses)
    if parsed.prefix is not None:
        # A word is one of its own prefixes: the prefix fields find whole words too; the
        # title's whole words alone get a bonus, so "graph" puts Graph before Graphene.
        whole = _match(schema, "title", (parsed.prefix,), WEIGHTS["title"])
        prefix = (parsed.prefix[:PREFIX_MAX],)
        clauses = [whole, *_anywhere(schema, prefix, fields.prefixes)]
        stem = stems([parsed.prefix])
        if stem and stem[0] != parsed.prefix and not parsed.prefix.isdigit():
            # a whole word's other forms (distillation, distilling): its stem, as for any word
            clauses += _anywhere(schema, (stem[0],), fields.stems)
        if fuzzy and len(parsed.prefix) >= FUZZY_MIN:
            clauses += _fuzzy(schema, parsed.prefix, fields, prefix=True)
        if fuzzy and parsed.prefix.isalpha() and parsed.prefix.isascii():
            clauses += _other_ending(schema, parsed.prefix, fields)
        groups.append(clauses)
    must, should = tantivy.Occur.Must, tantivy.Occur.Should
    found = [(should if relaxed else must, _any(group)) for group in groups]
    if relaxed and rarity is not None:
        # What each group finds, as typed: its words, the topic's name typed, the prefix.
        of_group = [*parsed.terms, *(name for name, *_ in parsed.topics)]
        of_group += [(parsed.prefix,)] if parsed.prefix is not None else []
        found += [
            (should, tantivy.Query.const_score_query(_any(group), RARITY * rarity(words)))
            for group, words in zip(groups, of_group, strict=True)
        ]
    if relaxed and found:  # at least one of the words
        found = [(must, tantivy.Query.boolean_query(found))]
    for typed, names in parsed.institutions:
        clauses = _anywhere(schema, typed, fields.of(typed[0]))
        clauses += [_match(schema, "affiliations", n, AFFILIATIONS_WEIGHT) for n in names]
        found.append((must, _any(clauses)))
    if venue is not None or year is not None or kind is not None:
        found.append((must, _filter(schema, filter_token(venue, year, kind))))
    if area is not None:
        found.append((must, _filter(schema, area_token(area))))
    return tantivy.Query.boolean_query(found + _bonuses(schema, parsed))


def _bonuses(schema: tantivy.Schema, parsed: Parsed) -> list[tuple[tantivy.Occur, tantivy.Query]]:
    """What lifts a match that has every word: an exact title, the words as a title phrase.
    Optional clauses: they never make a match. (The prior comes after: `ranked`.)"""
    should = tantivy.Occur.Should
    bonuses = []
    if parsed.whole:
        exact = tantivy.Query.term_query(schema, "filters", f"exact:{parsed.whole}")
        bonuses.append((should, tantivy.Query.const_score_query(exact, EXACT_TITLE)))
    words: list[str | tuple[int, str]] = [word for term in parsed.terms for word in term]
    if parsed.prefix is not None:
        words.append(parsed.prefix)
    if len(words) > 1:
        phrase = tantivy.Query.phrase_query(schema, "title", words)
        bonuses.append((should, tantivy.Query.const_score_query(phrase, TITLE_PHRASE)))
    return bonuses


def _word(
    schema: tantivy.Schema,
    words: tuple[str, ...],
    fields: Fields,
    *,
    fuzzy: bool = True,
    glosses: Glosses = (),
) -> list[tantivy.Query]:
    """One typed word (or CJK run) anywhere: whole, by its stem, within one edit; a CJK run
    as a phrase, or its two-character words in any order, or half of its words' `glosses`."""
    if len(words) > 1:  # a CJK run
        clauses = _anywhere(schema, words, fields.cjk)
        if len(words) > 2:
            pairs = [words[i : i + 2] for i in range(0, len(words) - 1, 2)]
            if len(words) % 2:
                pairs.append(words[-2:])
            every = tantivy.Query.boolean_query(
                [(tantivy.Occur.Must, _any(_anywhere(schema, pair, fields.cjk))) for pair in pairs]
            )
            clauses.append(tantivy.Query.boost_query(every, CJK_WORDS))
        if fuzzy and len(words) > 2:
            clauses.append(
                tantivy.Query.boost_query(_most_bigrams(schema, words, fields), CJK_MOST)
            )
        if fuzzy and (glossed := _glossed(schema, glosses, fields)):
            clauses.append(tantivy.Query.boost_query(glossed, GLOSSED))
        return clauses
    (word,) = words
    clauses = _anywhere(schema, words, fields.of(word))
    stem = stems([word])
    if stem and not word.isdigit():
        clauses += _anywhere(schema, (stem[0],), fields.stems)
    if fuzzy and len(word) >= FUZZY_MIN and word.isalpha() and word.isascii():
        clauses += _fuzzy(schema, word, fields)
    if fuzzy and word.isalpha() and word.isascii():
        clauses += _other_ending(schema, word, fields)
    return clauses


def _most_bigrams(schema: tantivy.Schema, words: tuple[str, ...], fields: Fields) -> tantivy.Query:
    """A CJK run read within one edit, as a word is: at least half of its overlapping
    two-character words anywhere, in any order (推測式解碼 finds 推測解碼; 區域提案網路,
    區域提議網路)."""
    found = [_any(_anywhere(schema, words[i : i + 2], fields.cjk)) for i in range(len(words) - 1)]
    return _at_least(found, (len(found) + 1) // 2)


def _at_least(found: list[tantivy.Query], need: int) -> tantivy.Query:
    """At least `need` of `found` (scored by those found)."""
    should = tantivy.Occur.Should
    return tantivy.Query.boolean_query(
        [(should, clause) for clause in found], minimum_number_should_match=max(1, need)
    )


def _glossed(schema: tantivy.Schema, glosses: Glosses, fields: Fields) -> tantivy.Query | None:
    """A Chinese run read in English: at least half of its words (`glosses`, one entry per
    word: glossary.Glossary.read) each found by one of its stems; scored by those found.
    None: too few of its words have a gloss, or `fields` reads none."""
    weights = fields.glosses.items()
    found = [
        _any([_match(schema, field, (stem,), w) for stem in choices for field, w in weights])
        for choices in glosses
        if choices and weights
    ]
    need = (len(glosses) + 1) // 2
    if not found or len(found) < need:
        return None
    return _at_least(found, need)


def _other_ending(schema: tantivy.Schema, word: str, fields: Fields) -> list[tantivy.Query]:
    """A longer word with another ending (equilibrium, equilibria; analysis, analyses): its
    letters but the last ENDING as a prefix, scored as a word within one edit."""
    if len(word) < ENDING_MIN:
        return []
    stem = (word[: len(word) - ENDING][:PREFIX_MAX],)
    weights = {"title_prefix": fields.fuzzy.get("title", 0.0)}
    if "text_prefix" in fields.prefixes:
        weights["text_prefix"] = fields.fuzzy.get("text_stems", 0.0)
    return _anywhere(schema, stem, {field: w for field, w in weights.items() if w})


def _phrase_anywhere(
    schema: tantivy.Schema, words: tuple[str, ...], fields: Fields
) -> list[tantivy.Query]:
    """A vocabulary name: its words as a phrase anywhere, or its stems as one. In summaries and
    abstracts an English name of several words is its stems' adjacent pairs (documents'
    text_pairs), each a word of its own there: a phrase of two words most abstracts hold
    ("reinforcement learning" at 100,000 papers) read their positions in every abstract holding
    both, the slowest of searches by far."""
    if len(words) == 1 or not all(word.isascii() for word in words):
        clauses = _anywhere(schema, words, fields.of(words[0]))
        if all(word.isascii() for word in words):
            clauses += _anywhere(schema, tuple(stems(list(words))), fields.stems)
        return clauses
    stemmed = tuple(stems(list(words)))
    short = {name: w for name, w in fields.words.items() if name not in TEXT_FIELDS}
    clauses = _anywhere(schema, words, short)
    titles = {name: w for name, w in fields.stems.items() if name != "text_stems"}
    clauses += _anywhere(schema, stemmed, titles)
    # As before: the phrase in either long field (one is enough), and its stems as one.
    weight = max((fields.words.get(name, 0.0) for name in TEXT_FIELDS), default=0.0)
    weight += fields.stems.get("text_stems", 0.0)
    if weight:
        pairs = [
            tantivy.Query.term_query(schema, "text_pairs", pair_token(*stemmed[i : i + 2]))
            for i in range(len(stemmed) - 1)
        ]
        if len(pairs) > 1:  # every pair, and side by side: the stems' phrase, read only where
            # every (rare) pair is, adds nothing to the score
            phrase = tantivy.Query.phrase_query(schema, "text_stems", list(stemmed))
            pairs.append(tantivy.Query.const_score_query(phrase, 0.0))
        every = pairs[0] if len(pairs) == 1 else _every(pairs)
        clauses.append(tantivy.Query.boost_query(every, weight))
    return clauses


def _every(found: list[tantivy.Query]) -> tantivy.Query:
    return tantivy.Query.boolean_query([(tantivy.Occur.Must, query) for query in found])


def _fuzzy(
    schema: tantivy.Schema, word: str, fields: Fields, *, prefix: bool = False
) -> list[tantivy.Query]:
    return [
        tantivy.Query.boost_query(
            tantivy.Query.fuzzy_term_query(schema, field, word, 1, True, prefix), weight
        )
        for field, weight in fields.fuzzy.items()
    ]


def _anywhere(
    schema: tantivy.Schema, words: tuple[str, ...], weights: dict[str, float]
) -> list[tantivy.Query]:
    return [_match(schema, field, words, weight) for field, weight in weights.items()]


def _match(
    schema: tantivy.Schema, field: str, words: tuple[str, ...], weight: float
) -> tantivy.Query:
    if len(words) == 1:
        found = tantivy.Query.term_query(schema, field, words[0])
    else:
        found = tantivy.Query.phrase_query(schema, field, list(words))
    return tantivy.Query.boost_query(found, weight)


def _filter(schema: tantivy.Schema, token: str) -> tantivy.Query:
    return tantivy.Query.const_score_query(tantivy.Query.term_query(schema, "filters", token), 0.0)


def _any(clauses: list[tantivy.Query]) -> tantivy.Query:
    return tantivy.Query.boolean_query([(tantivy.Occur.Should, clause) for clause in clauses])
