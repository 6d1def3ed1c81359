"""Would embeddings find the paper meant where words do not (issue 27)? The judged search sets,
in one run: the ranking now (lexical, the derived index with its glossary), a semantic ranking
(cosine between the query's and each paper's embedding) and the two fused (reciprocal rank
fusion), recall@5 and MRR per set for topic, zh-TW, zh-CN and all queries, beside the cost of
embedding a query and scoring the catalogue.

The model is WordLlama's packaged one (MIT; 256 dimensions; its weights and tokenizer come in
the wheel, from PyPI, and run on the CPU), never downloaded: its loader looks for the packaged
tokenizer under a folder name the wheel does not use, so this copies it to a temporary cache.

Laurel depends on `wordllama` since 2026-12-03 (bot/store/search/semantic.py ranks an answer no
paper has every word of by meaning too; benchmarks/ranking.py measures that against words
alone): this ranks the judged sets by meaning alone, and fuses it with every answer, the
roads not taken. `python -m benchmarks.semantic`; not part of run_all.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

try:
    import numpy as np
    from wordllama import WordLlama
except ImportError as exc:  # pragma: no cover - a benchmark's own requirements
    sys.exit(f"semantic needs {exc.name}: install Laurel with its dependencies")

from benchmarks.ranking import SETS, load_judged, recall_at_5, reciprocal_rank
from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.dburl import SqliteTarget
from bot.domain.clock import SystemClock
from bot.domain.institutions import load_institutions
from bot.domain.vocabulary import load_vocabulary
from bot.store.backends import open_database
from bot.store.search.glossary import load_glossary
from bot.store.search.index import SearchIndex
from bot.store.search.text import parse

KINDS = ("topic", "zh-TW", "zh-CN", "all")
DEPTH = 10
FUSED = 0.5  # the semantic list's weight in the fusion, the lexical list's being 1
RRF_K = 60  # reciprocal rank fusion's constant: 1 / (RRF_K + rank)
Ranker = Callable[[str], list[int]]


def _model(cache: Path) -> Any:
    packaged = resources.files("wordllama") / "tokenizers" / "l2_supercat_tokenizer_config.json"
    (cache / "tokenizers").mkdir(parents=True)
    with resources.as_file(packaged) as found:
        shutil.copy(found, cache / "tokenizers" / found.name)
    return WordLlama.load(cache_dir=cache, disable_download=True)


def _text(row: Any) -> str:
    """What a paper's embedding is made of: its title (twice: it names the paper), English
    summary, abstract (its start), area and task."""
    summary = json.loads(row["summaries"] or "{}").get("en", "")
    parts = [row["title"], row["title"], summary, (row["abstract"] or "")[:1500]]
    return " ".join([*parts, row["area"] or "", row["task"] or ""])


def fuse(lexical: list[int], semantic: list[int]) -> list[int]:
    score: dict[int, float] = defaultdict(float)
    for rank, paper in enumerate(lexical):
        score[paper] += 1 / (RRF_K + rank)
    for rank, paper in enumerate(semantic):
        score[paper] += FUSED / (RRF_K + rank)
    return sorted(score, key=lambda paper: -score[paper])[:DEPTH]


async def run() -> None:
    with tempfile.TemporaryDirectory(prefix="laurel-semantic-") as tmp:
        model = _model(Path(tmp) / "wordllama")
        path = Path(tmp) / "laurel.db"
        async with await open_database(SqliteTarget(path), clock=SystemClock()) as db:
            await load_bundled_into(CatalogParts.over(db, SystemClock()))
            rows = await db.fetchall(
                "SELECT id, title, abstract, summaries, area, task FROM live_papers ORDER BY id"
            )
            titles: dict[str, list[int]] = defaultdict(list)
            for row in rows:
                titles[row["title"]].append(int(row["id"]))
            ids = [int(row["id"]) for row in rows]
            started = time.perf_counter()
            papers = model.embed([_text(row) for row in rows], norm=True)
            built = time.perf_counter() - started
            index = SearchIndex(path, None)
            await index.start()
            institutions, vocabulary, glossary = (
                load_institutions(),
                load_vocabulary(),
                load_glossary(),
            )

            def lexical(text: str) -> list[int]:
                parsed = parse(text, institutions, vocabulary, glossary.read)
                return [] if parsed is None else (index.page_now(parsed, limit=DEPTH) or ([], 0))[0]

            def semantic(text: str) -> list[int]:
                scores = papers @ model.embed([text], norm=True)[0]
                return [ids[i] for i in np.argsort(-scores)[: 2 * DEPTH]]

            engines: dict[str, Ranker] = {
                "lexical now": lexical,
                "semantic": lambda text: semantic(text)[:DEPTH],
                "fused": lambda text: fuse(lexical(text), semantic(text)),
            }
            seconds: dict[str, list[float]] = defaultdict(list)
            for source in SETS:
                cases = load_judged(titles, source)
                print(f"{source.name} ({len(cases)} queries), R@5 / MRR:")
                print(f"  {'kind':<6} {'n':>4}" + "".join(f" {name:>18}" for name in engines))
                for kind in KINDS:
                    chosen = [case for case in cases if kind in ("all", case.kind)]
                    if not chosen:
                        continue
                    cells = []
                    for name, rank in engines.items():
                        recall, rr = [], []
                        for case in chosen:
                            began = time.perf_counter()
                            found = rank(case.query)
                            if kind == "all":  # each query timed once
                                seconds[name].append(time.perf_counter() - began)
                            recall.append(recall_at_5(found, case.meant))
                            rr.append(reciprocal_rank(found, case.meant))
                        cells.append(f"{np.mean(recall):.3f} / {np.mean(rr):.3f}")
                    print(f"  {kind:<6} {len(chosen):>4}" + "".join(f" {c:>18}" for c in cells))
            await index.close()
    print(f"embedding {len(ids)} papers: {built * 1000:.0f} ms; per query, ms (p50 / p99):")
    for name, spent in seconds.items():
        ordered = sorted(spent)
        p50, p99 = ordered[len(ordered) // 2], ordered[int(0.99 * len(ordered))]
        print(f"  {name:<12} {p50 * 1000:6.2f} / {p99 * 1000:6.2f}")


def main() -> None:
    asyncio.run(run())


if __name__ == "__main__":
    main()
