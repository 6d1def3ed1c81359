"""A query's hits as a page (bot/store/search/query.py builds the query): by score plus a
mild prior for the award's standing and recency, ties by paper id (issue 27)."""

from __future__ import annotations

import tantivy

# The prior, added to a paper's score after the search (from its fast field, documents'
# prior_code): small against a title word's BM25 (about 10 to 60 with its weight).
STANDING_BONUS = (0.0, 0.5, 1.0)  # by bot.domain.awards.standing
RECENT_BONUS = (0.0, 0.25, 0.75, 1.0)  # before 2017, 2017-19, 2020-22, 2023 on
MAX_BONUS = STANDING_BONUS[-1] + RECENT_BONUS[-1]
# Ties at the edge of a page are resolved by paper id: fetch at most this many to find them.
TIE_LIMIT = 10_000
FIRST_FETCH = 40


def prior_bonus(code: int) -> float:
    standing, recent = divmod(code, 4)
    return STANDING_BONUS[min(standing, 2)] + RECENT_BONUS[recent]


# prior_bonus of each code a document holds (documents.prior_code: standing 0-2 times four,
# plus recency 0-3), looked up rather than computed for each of the thousands of hits a common
# prefix brings.
_BONUSES = tuple(prior_bonus(code) for code in range(64))


def ranked(
    searcher: tantivy.Searcher,
    query: tantivy.Query,
    limit: int,
    offset: int,
    *,
    count: bool = True,
    depth: int = 4,
) -> tuple[list[int], int]:
    """The ids of a page of `query`'s hits, best first by score plus the prior
    (`prior_bonus`), ties by id; and how many hits (-1 unless `count`); `depth` times the
    page fetched first.

    The prior is added here rather than in the query (clauses matching nearly every paper
    made every search several times slower): hits come by score, and more are fetched until
    the last one fetched, even with the largest bonus, could not reach the page.
    """
    page, total = ranked_hits(searcher, query, limit, offset, count=count, depth=depth)
    return [paper_id for paper_id, _ in page], total


def ranked_hits(
    searcher: tantivy.Searcher,
    query: tantivy.Query,
    limit: int,
    offset: int,
    *,
    count: bool = True,
    depth: int = 4,
) -> tuple[list[tuple[int, tantivy.DocAddress]], int]:
    """`ranked`'s page as (id, address) pairs: the same papers in the same order, for a
    caller that reads more of them (their vectors: readings._by_meaning)."""
    end = offset + limit
    wanted = max(end * depth, FIRST_FETCH)  # room for the prior to reorder, in one search mostly
    first = searcher.search(query, limit=wanted + 1, count=count)
    total = int(getattr(first, "count", 0) or 0) if count else -1
    hits = first.hits
    while True:
        addresses = [address for _, address in hits]
        ids = searcher.fast_field_values("id", addresses)
        priors = searcher.fast_field_values("prior", addresses)
        bonuses = [_BONUSES[int(p or 0)] for p in priors]
        scores = [-(score + bonus) for (score, _), bonus in zip(hits, bonuses, strict=True)]
        order = sorted(
            zip(scores, [int(i or 0) for i in ids], range(len(hits)), strict=True)
        )  # by score and prior, ties by id (ids are unique: the index never reaches past)
        complete = len(hits) <= wanted or wanted >= TIE_LIMIT
        if complete or len(order) < end or hits[-1][0] + MAX_BONUS < -order[end - 1][0]:
            break
        wanted *= 4  # a paper not fetched could still reach the page: fetch more
        hits = searcher.search(query, limit=wanted + 1, count=False).hits
    return [(paper_id, hits[at][1]) for _, paper_id, at in order[offset:end]], total
