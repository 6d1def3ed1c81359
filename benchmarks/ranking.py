"""The judged search sets, old ranking against new, in one run: `python -m benchmarks.ranking
[--show-misses] [--kind KIND]`.

benchmarks/judged/search.toml holds what members type (titles, acronyms, topics, authors,
typos, zh-TW and zh-CN) with the paper or papers each means, written by hand;
benchmarks/judged/search_holdout.toml, in the same format, is a held-out set written later,
before a ranking change, and never tuned to; search_blind.toml a second one, written blind at
stop 30 once the first's misses had been read; search_blind2.toml to search_blind6.toml a
third to a seventh, written at stops 32 to 34 by helpers who had neither run the search nor read
its code (search_blind4.toml while the glossary was built, run only once it was done;
search_blind5.toml after that, run once the glossary was final; search_blind6.toml before the
dictionary and the papers close to a query were built, run once before and once after them;
search_blind7.toml, an eighth, on 2026-12-03, drawn from every awarded paper (the unnamed ones were
used up), written before the ranking by meaning was measured on it and run once after it was
frozen; search_blind8.toml, a ninth, at stop 36, written the same way before Chinese queries were
read by meaning, run before that change and after it, and while RARITY was chosen, printed beside
the others; search_blind9.toml, a tenth, written the same way once RARITY was fixed and run once
after (its one author miss then read, and a query naming a person kept from meaning);
search_blind10.toml, an eleventh, written the same way after that and run once): one table
each. Over the
bundled catalogue this prints, per kind of query,
recall@5 (of the papers meant, the share in the first five; at most five are asked for) and MRR
(1 / the rank of the first paper meant, within the first ten) for the ranking before issue 27
(benchmarks/ranking_before.py, frozen); the derived index now, its first five as a member's
first page shows them (after fewer than five matches, the papers close to the query); the index
now without those ("no close"); the index now with a Chinese run read in English through the
learned glossary alone, not also the dictionary ("no dictionary": bot/store/search/dictionary.py);
the index by words alone, not also by meaning (bot/store/search/semantic.py), as stop 33 left it
("stop 33"); the index as stop 32 left it (a Chinese run read by the learned glossary's overlapping
two-character words, no papers close: "stop 32"); and FTS5 now (SQLite's fallback); then each
engine's p50 / p99
per query, measured in the same run (ids only for the indexes; FTS5's figure includes reading
the papers). The goals: recall@5 >= 0.95 and MRR >= 0.85 for the index now.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import tomllib
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from benchmarks.ranking_before import BeforeIndex
from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.commands.paper_buttons import PAGE_SIZE
from bot.dburl import SqliteTarget
from bot.domain.clock import SystemClock
from bot.domain.institutions import load_institutions
from bot.domain.vocabulary import load_vocabulary
from bot.store.backends import open_database
from bot.store.catalog.papers import PaperRepository
from bot.store.search.dictionary import load_dictionary
from bot.store.search.glossary import load_glossary
from bot.store.search.index import SearchIndex
from bot.store.search.semantic import load_embedder
from bot.store.search.text import Glosses, parse

JUDGED = Path(__file__).parent / "judged" / "search.toml"
HOLDOUT = Path(__file__).parent / "judged" / "search_holdout.toml"
BLIND = Path(__file__).parent / "judged" / "search_blind.toml"
BLIND2 = Path(__file__).parent / "judged" / "search_blind2.toml"
BLIND3 = Path(__file__).parent / "judged" / "search_blind3.toml"
BLIND4 = Path(__file__).parent / "judged" / "search_blind4.toml"
BLIND5 = Path(__file__).parent / "judged" / "search_blind5.toml"
BLIND6 = Path(__file__).parent / "judged" / "search_blind6.toml"
BLIND7 = Path(__file__).parent / "judged" / "search_blind7.toml"
BLIND8 = Path(__file__).parent / "judged" / "search_blind8.toml"
BLIND9 = Path(__file__).parent / "judged" / "search_blind9.toml"
BLIND10 = Path(__file__).parent / "judged" / "search_blind10.toml"
# every judged set, one table each
SETS = (
    *(JUDGED, HOLDOUT, BLIND, BLIND2, BLIND3, BLIND4, BLIND5, BLIND6, BLIND7, BLIND8, BLIND9),
    BLIND10,
)
KINDS = ("title", "acronym", "topic", "author", "typo", "zh-TW", "zh-CN")
DEPTH = 10  # MRR counts the first paper meant within this many
CLOSE = PAGE_SIZE  # a first page of fewer matches goes on with papers close to the query


@dataclass(frozen=True, slots=True)
class Judged:
    kind: str
    query: str
    meant: frozenset[int]


def load_judged(titles: dict[str, list[int]], path: Path = JUDGED) -> list[Judged]:
    """The judged queries, each paper named by title resolved to its ids (every paper of that
    title); a title the catalogue lacks stops the run, naming it."""
    cases = []
    for entry in tomllib.loads(path.read_text(encoding="utf-8"))["queries"]:
        meant: set[int] = set()
        for title in entry["papers"]:
            if title not in titles:
                raise SystemExit(f"{path.name}: no paper titled {title!r}")
            meant.update(titles[title])
        cases.append(Judged(entry["kind"], entry["query"], frozenset(meant)))
    return cases


def recall_at_5(found: list[int], meant: frozenset[int]) -> float:
    return len(set(found[:5]) & meant) / min(5, len(meant))


def reciprocal_rank(found: list[int], meant: frozenset[int]) -> float:
    return next((1 / rank for rank, i in enumerate(found[:DEPTH], 1) if i in meant), 0.0)


Ranker = Callable[[str], Awaitable[list[int]]]


async def measure(rank: Ranker, cases: list[Judged]) -> tuple[dict[str, list[float]], ...]:
    """Per kind (and "all"): recall@5 and reciprocal ranks; and the seconds per query."""
    recall: dict[str, list[float]] = defaultdict(list)
    rr: dict[str, list[float]] = defaultdict(list)
    seconds: dict[str, list[float]] = defaultdict(list)
    for case in cases:
        started = time.perf_counter()
        found = await rank(case.query)
        seconds["all"].append(time.perf_counter() - started)
        for kind in (case.kind, "all"):
            recall[kind].append(recall_at_5(found, case.meant))
            rr[kind].append(reciprocal_rank(found, case.meant))
    return recall, rr, seconds


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def run(show_misses: bool, only: str | None) -> None:
    with tempfile.TemporaryDirectory(prefix="laurel-ranking-") as tmp:
        path = Path(tmp) / "laurel.db"
        async with await open_database(SqliteTarget(path), clock=SystemClock()) as db:
            await load_bundled_into(CatalogParts.over(db, SystemClock()))
            titles: dict[str, list[int]] = defaultdict(list)
            for row in await db.fetchall("SELECT id, title FROM live_papers ORDER BY id"):
                titles[row["title"]].append(int(row["id"]))
            sets = {
                source.name: [c for c in load_judged(titles, source) if only in (None, c.kind)]
                for source in SETS
            }
            before = await db.snapshot(BeforeIndex)
            index = SearchIndex(path, None, embedder=load_embedder)
            await index.start()
            words = SearchIndex(path, None)  # no meaning model: words alone
            await words.start()
            institutions = load_institutions()
            vocabulary = load_vocabulary()
            learned = load_glossary()
            glossary = learned.with_dictionary(load_dictionary())
            fts5 = PaperRepository(db, institutions)

            async def old(text: str) -> list[int]:
                return before.search(text, DEPTH)

            def reading(read: Callable[[str], Glosses], close: int, meaning: bool = True) -> Ranker:
                """The index now, a Chinese run read by `read`, with `close` papers, ranking
                by `meaning` too (else words alone)."""
                searched = index if meaning else words

                async def rank(text: str) -> list[int]:
                    parsed = parse(text, institutions, vocabulary, read)
                    found = parsed and searched.page_now(parsed, limit=DEPTH, close=close)
                    return found[0] if found else []

                return rank

            async def fallback(text: str) -> list[int]:
                return [p.id for p in await fts5.search(text, limit=DEPTH)]

            engines: dict[str, Ranker] = {
                "before": old,
                "index now": reading(glossary.read, CLOSE),
                "no close": reading(glossary.read, 0),
                "no dictionary": reading(learned.read, CLOSE),
                "stop 33": reading(glossary.read, CLOSE, meaning=False),
                "stop 32": reading(learned.pairs, 0, meaning=False),
                "FTS5 now": fallback,
            }
            measured = {}
            for name, cases in sets.items():
                measured[name] = {rank: await measure(f, cases) for rank, f in engines.items()}
                if show_misses:
                    print(f"{name}:")
                    await _misses(engines, cases)
            await index.close()
            await words.close()
    for name, results in measured.items():
        _table(name, len(sets[name]), list(engines), results)


def _table(
    name: str,
    n_cases: int,
    engines: list[str],
    results: dict[str, tuple[dict[str, list[float]], ...]],
) -> None:
    print(f"{n_cases} judged queries over the bundled catalogue ({name}):")
    print(
        f"  {'kind':<8} {'n':>4}" + "".join(f" {engine + ' R@5 / MRR':>24}" for engine in engines)
    )
    for kind in (*KINDS, "all"):
        n = len(results["before"][0][kind])
        if not n:
            continue
        cells = [f"{_mean(r[kind]):.3f} / {_mean(m[kind]):.3f}" for r, m, _ in results.values()]
        print(f"  {kind:<8} {n:>4}" + "".join(f" {cell:>24}" for cell in cells))
    print("  per query, ms (p50 / p99), same run:")
    for engine, (_, _, seconds) in results.items():
        print(f"    {engine:<10} {_p(seconds['all'], 0.5):7.2f} / {_p(seconds['all'], 0.99):7.2f}")


async def _misses(engines: dict[str, Ranker], cases: list[Judged]) -> None:
    for case in cases:
        ranks = []
        for rank in engines.values():
            found = await rank(case.query)
            ranks.append(
                f"{recall_at_5(found, case.meant):.2f}/{reciprocal_rank(found, case.meant):.2f}"
            )
        if ranks[1] != "1.00/1.00":
            print(f"  miss {case.kind:<7} {case.query!r}: " + "  ".join(ranks))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ranking", description=__doc__)
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument("--kind", choices=KINDS)
    args = parser.parse_args(argv)
    asyncio.run(run(args.show_misses, args.kind))


if __name__ == "__main__":
    main()
