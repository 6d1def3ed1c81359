"""Relevance over the bundled catalogue: `python -m benchmarks.relevance [--show-misses]`.

A test set made from the catalogue itself, the same each run: for each paper, what someone
looking for it would type — its exact title, a telling fragment of it, its first author (when
that author has no other paper), a few words of its Chinese summaries (Traditional and
Simplified), an institution (any of its names, with a word of the title when it has several
papers), and the title being typed (a word, then the start of the next). For each engine,
how often the paper meant comes first (and in the first five). tests/store/test_relevance.py
asserts the derived index is first at least as often as FTS5.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import re
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.dburl import SqliteTarget
from bot.domain.clock import SystemClock
from bot.domain.institutions import load_institutions
from bot.store.backends import open_database
from bot.store.catalog.papers import PaperRepository
from bot.store.search.index import SearchIndex
from bot.store.sql import Connection

KINDS = (
    *("exact title", "title fragment", "author", "zh-TW summary", "zh-CN summary"),
    *("institution", "prefix"),
)
_WORD = re.compile(r"[^\W_]+")
_CJK_RUN = re.compile("[\u4e00-\u9fff]{4,}")
_STOP = frozenset(
    {"a", "an", "and", "are", "as", "at", "by", "for", "from", "in", "into", "is", "of", "on"}
    | {"or", "the", "to", "via", "with"}
)


@dataclass(frozen=True, slots=True)
class Case:
    kind: str
    query: str
    paper_id: int


def make_cases(conn: Connection) -> list[Case]:
    """The test set for the catalogue in `conn` (deterministic)."""
    papers = conn.execute(
        """
        SELECT p.id, p.title, p.summaries,
            (SELECT json_group_array(name) FROM (SELECT name FROM paper_authors
                WHERE paper_id = p.id ORDER BY position)) AS authors,
            (SELECT json_group_array(name) FROM (SELECT name FROM paper_affiliations
                WHERE paper_id = p.id ORDER BY position)) AS affiliations
        FROM live_papers AS p ORDER BY p.id
        """
    ).fetchall()
    words_of = {r[0]: [w.casefold() for w in _WORD.findall(r[1])] for r in papers}
    frequency = Counter(w for words in words_of.values() for w in set(words))
    authors = Counter(a.casefold() for r in papers for a in json.loads(r[3]))
    surnames = Counter(a.split()[-1].casefold() for r in papers for a in json.loads(r[3]) if a)
    institutions = load_institutions()
    held: dict[str, int] = Counter()
    for r in papers:
        for name in {_institution(a) for a in json.loads(r[4])}:
            held[name] += 1
    cases: list[Case] = []
    for paper_id, title, summaries_json, authors_json, affiliations_json in papers:
        words = [w for w in words_of[paper_id] if w not in _STOP]
        telling = sorted(words, key=lambda w: (frequency[w], -len(w), w))
        cases.append(Case("exact title", title, paper_id))
        if len(words) >= 3:  # two neighbouring words: the rarest pair, and the middle one
            pairs = list(itertools.pairwise(words))
            pair = min(pairs, key=lambda p: (frequency[p[0]] + frequency[p[1]], p))
            cases.append(Case("title fragment", " ".join(pair), paper_id))
            cases.append(Case("title fragment", " ".join(pairs[len(pairs) // 2]), paper_id))
        first = next(iter(json.loads(authors_json)), None)
        if first and authors[first.casefold()] == 1:
            cases.append(Case("author", first, paper_id))
            surname = first.split()[-1]
            if surnames[surname.casefold()] == 1:
                cases.append(Case("author", surname, paper_id))
        summaries = json.loads(summaries_json or "{}")
        for language in ("zh-TW", "zh-CN"):
            runs = _CJK_RUN.findall(summaries.get(language, ""))
            if runs:  # six characters from the first clause long enough, four of the second
                cases.append(Case(f"{language} summary", runs[0][:6], paper_id))
            if len(runs) > 1:
                cases.append(Case(f"{language} summary", runs[1][:4], paper_id))
        for affiliation in json.loads(affiliations_json)[:1]:
            found = institutions.find(affiliation)
            name = (found.zh_cn or found.aliases[0]) if found and found.aliases else affiliation
            alone = held[_institution(affiliation)] == 1
            query = name if alone or not telling else f"{name} {telling[0]}"
            cases.append(Case("institution", query, paper_id))
        title_words = _WORD.findall(title)
        following = [w for w in title_words[1:] if len(w) >= 5]
        if following:  # typing the title: the start of its second long word, 4 letters and 3
            cases.append(Case("prefix", f"{title_words[0]} {following[0][:4]}", paper_id))
            cases.append(Case("prefix", f"{title_words[0]} {following[0][:3]}", paper_id))
        if len(title_words[0]) >= 5:
            cases.append(Case("prefix", title_words[0][:4], paper_id))
    return cases


def _institution(name: str) -> str:
    found = load_institutions().find(name)
    return found.name if found else name.casefold()


async def evaluate(papers: PaperRepository, cases: list[Case]) -> dict[str, list[int | None]]:
    """Per kind, the rank (1-based, within the first five) of the paper meant, or None."""
    ranks: dict[str, list[int | None]] = defaultdict(list)
    for case in cases:
        found = [p.id for p in await papers.search(case.query, limit=5)]
        rank = found.index(case.paper_id) + 1 if case.paper_id in found else None
        ranks[case.kind].append(rank)
        ranks["all"].append(rank)
    return ranks


def first(ranks: list[int | None]) -> int:
    return sum(rank == 1 for rank in ranks)


async def run(show_misses: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="laurel-relevance-") as tmp:
        path = Path(tmp) / "laurel.db"
        async with await open_database(SqliteTarget(path), clock=SystemClock()) as db:
            await load_bundled_into(CatalogParts.over(db, SystemClock()))
            cases = await db.snapshot(make_cases)
            index = SearchIndex(path, None)
            await index.start()
            engines = {"FTS5": PaperRepository(db), "tantivy": PaperRepository(db, index=index)}
            results = {name: await evaluate(repo, cases) for name, repo in engines.items()}
            await index.close()
    print(f"{len(cases)} cases over the bundled catalogue; the paper meant first (in top 5):")
    print(f"  {'kind':<16} {'n':>4} {'FTS5':>14} {'tantivy':>14}")
    for kind in (*KINDS, "all"):
        n = len(results["FTS5"][kind])
        cells = [
            f"{first(r[kind]):>3} ({sum(x is not None for x in r[kind]):>3})"
            for r in results.values()
        ]
        print(f"  {kind:<16} {n:>4} {cells[0]:>14} {cells[1]:>14}")
    if show_misses:
        for name, result in results.items():
            ranks = iter(result["all"])
            for case in cases:
                if (rank := next(ranks)) != 1:
                    print(f"  {name} miss ({rank}): {case.kind}: {case.query!r}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.relevance", description=__doc__)
    parser.add_argument("--show-misses", action="store_true")
    asyncio.run(run(parser.parse_args(argv).show_misses))


if __name__ == "__main__":
    main()
