"""The derived index's schema and queries: what a person typed (`Parsed`) as one tantivy query.

Ranking: BM25 with the FTS5 column weights as boosts; every word must match in some field;
the last word, still being typed, matches whole words or the per-word edge n-grams (prefix
fields), so a prefix is ranked by how rare and where it is, not given a constant score.
"""

from __future__ import annotations

import tantivy

from bot.store.search import PREFIX_MAX, Parsed
from bot.store.search_docs import area_token, filter_token

WEIGHTS = {"title": 10.0, "authors": 4.0, "affiliations": 2.0, "summaries": 1.0, "abstract": 1.0}
PREFIX_WEIGHTS = {
    "title_prefix": 10.0,
    "authors_prefix": 4.0,
    "affiliations_prefix": 2.0,
    "text_prefix": 1.0,
}
AFFILIATIONS_WEIGHT = WEIGHTS["affiliations"]


def schema() -> tantivy.Schema:
    builder = tantivy.SchemaBuilder()
    builder.add_integer_field("id", stored=True, indexed=True, fast=True)
    for name in WEIGHTS:
        builder.add_text_field(name, tokenizer_name="whitespace", index_option="position")
    for name in PREFIX_WEIGHTS:
        builder.add_text_field(name, tokenizer_name="whitespace", index_option="freq")
    builder.add_text_field("filters", tokenizer_name="raw", index_option="basic")
    return builder.build()


def build_query(
    schema: tantivy.Schema,
    parsed: Parsed,
    venue: str | None,
    year: int | None,
    kind: str | None,
    area: str | None,
) -> tantivy.Query:
    """`parsed` as a query of the index of `schema`, filtered by venue, year, kind and area."""
    # Each group is one flat union of boosted term (or phrase) queries: a union of terms
    # alone at the top is what tantivy prunes with block-max WAND, so a one-word query
    # (the commonest, and the costliest: its posting lists are the longest) is left bare.
    groups = [_anywhere(schema, words, WEIGHTS) for words in parsed.terms]
    for typed, names in parsed.institutions:
        clauses = _anywhere(schema, typed, WEIGHTS)
        clauses += [_match(schema, "affiliations", n, AFFILIATIONS_WEIGHT) for n in names]
        groups.append(clauses)
    if parsed.prefix is not None:
        # A word is one of its own prefixes: the prefix fields find whole words too; the
        # title's whole words alone get a bonus, so "graph" puts Graph before Graphene.
        whole = _match(schema, "title", (parsed.prefix,), WEIGHTS["title"])
        prefix = (parsed.prefix[:PREFIX_MAX],)
        groups.append([whole, *_anywhere(schema, prefix, PREFIX_WEIGHTS)])
    filters = []
    if venue is not None or year is not None or kind is not None:
        filters.append(_filter(schema, filter_token(venue, year, kind)))
    if area is not None:
        filters.append(_filter(schema, area_token(area)))
    if len(groups) == 1 and not filters:
        return _any(groups[0])
    must = tantivy.Occur.Must
    return tantivy.Query.boolean_query(
        [(must, _any(group)) for group in groups] + [(must, f) for f in filters]
    )


def similar_query(schema: tantivy.Schema, words: list[str], exclude: int) -> tantivy.Query:
    """Papers with any of `words` (each whole or as a prefix, as FTS5's `"word"*` matches),
    ranked by how many and how rare, leaving paper `exclude` out."""
    clauses = []
    for word in dict.fromkeys(words):
        clauses.append(_match(schema, "title", (word,), WEIGHTS["title"]))
        clauses += _anywhere(schema, (word[:PREFIX_MAX],), PREFIX_WEIGHTS)
    itself = tantivy.Query.term_query(schema, "id", exclude)
    return tantivy.Query.boolean_query(
        [(tantivy.Occur.Should, clause) for clause in clauses] + [(tantivy.Occur.MustNot, itself)]
    )


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
