"""The catalogue at scale: `python -m benchmarks.catalog [--papers N] [--queries Q] [--seed S]`.

One run, ratios first (the machine is noisy; absolute times only say where it ran): import
throughput through `CatalogRepository.apply`, an unchanged re-import against the first, FTS5
search against a naive LIKE scan and against the floor of one aiosqlite round trip, and aiosqlite
against plain sqlite3 per statement (why writes have a thread of their own). `--papers 2000` is
a check in seconds; `--profile` runs only the imports, under cProfile on the writer thread.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import itertools
import os
import platform
import pstats
import random
import sqlite3
import string
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from functools import partial
from pathlib import Path
from typing import Any

from benchmarks.report import save
from bot.dburl import SqliteTarget
from bot.domain.clock import SystemClock
from bot.domain.models import Award, AwardKind, CatalogBatch, Venue
from bot.store.backends import open_database
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.search.text import match_query

Call = Callable[[], Awaitable[Any]]
Query = tuple[str, str]  # (kind, text)


def split(words: str) -> list[str]:
    return words.split()


# Roughly in order of frequency: the Zipf weights below make the first words the common ones.
BASE = split("""learning neural networks models deep language attention transformer graph data
training large reinforcement optimization generative diffusion efficient robust representation
self supervised adversarial policy gradient inference bayesian causal scalable sparse multi
agents contrastive vision text image video retrieval reasoning generalization federated privacy
online stochastic convex kernel latent variational autoencoder embedding embeddings tokens
pretraining finetuning alignment reward preference feedback planning exploration memory recurrent
convolutional layers normalization dropout regularization uncertainty calibration estimation
sampling markov chain monte carlo bandits regret bounds theory analysis convergence complexity
approximation manifold geometric equivariant symmetry invariant physics molecular protein design
discovery simulation control robotics navigation manipulation imitation offline transfer domain
adaptation shift distribution fairness interpretability explanation attribution pruning
quantization distillation compression hardware acceleration parallel distributed communication
decentralized consensus game equilibrium mechanism auction matching ranking recommendation search
knowledge question answering dialogue summarization translation speech audio music segmentation
detection tracking depth scene reconstruction rendering radiance fields point clouds mesh shape
motion pose human faces medical clinical health genomics climate weather forecasting temporal
series anomaly clustering spectral tensor matrix factorization low rank random features lottery
ticket mixture experts routing scaling laws emergent chain thought prompting instruction tuning
augmented hallucination safety jailbreak watermarking unlearning memorization benchmark metrics
evaluation dataset curriculum active continual lifelong meta few shot zero open world symbolic
compositional logic program synthesis code verification theorem proving mathematics options
hierarchical skills dynamics identification counterfactual intervention confounding treatment
effects survival tabular relational hypergraph message passing oversmoothing expressivity
weisfeiler lehman spiking neuromorphic energy hopfield associative""")
PREFIXES = split("""multi self meta hyper cross graph neuro auto semi contra bi co de pre re sub
super inter intra over under post non zero few long sparse quasi pseudo proto poly omni micro
macro ultra trans uni dual mono""")
STOP = split("the of and a to in for we with on is that by this our from as are an which can be")
CONNECT = split("for with via in of on and under towards beyond without")
GIVEN = split("""James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William
Sarah Thomas Karen Daniel Nancy Matthew Lisa Anthony Emily Mark Laura Paul Anna Andrew Julia Peter
Maria Kevin Sofia Wei Jing Yu Xin Hao Min Jun Yan Lei Ying Hiroshi Yuki Kenji Aiko Raj Priya Arjun
Ananya José Zoë Søren Łukasz François Jürgen Ángel Renée Björn Chloé Đorđe Siân Ngọc Ines Oğuz""")
SURNAMES = split("""Smith Johnson Williams Brown Jones Garcia Miller Davis Wilson Anderson Taylor
Moore Jackson Martin Lee Thompson White Harris Clark Lewis Walker Hall Allen Young King Wright
Scott Green Baker Adams Nelson Hill Campbell Mitchell Roberts Carter Phillips Evans Turner Parker
Collins Zhang Wang Li Liu Chen Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo He Lin Luo Gao Tanaka
Suzuki Sato Watanabe Kim Park Choi Nguyen Tran Patel Sharma Singh Gupta Kumar Rossi Bianchi
Ferrari Schmidt Schneider Fischer Weber Wagner Becker Dubois Laurent Moreau Petrov Ivanov Novak
Kowalski Müller Gómez Núñez Ørsted Dvořák Kovačević Çelik Şahin Nguyễn Lefèvre Björklund Jiménez
Šimić Łukasiewicz Hernández Peña Sjögren Ó'Brien Grünwald Pérez Fernández Østergaard""")
CN_SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高"
CN_GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚英华玉兰萍鹏辉宇浩然欣怡子轩梓涵思远博文"
CITIES = split("""Boston Stanford Berkeley Toronto Montréal Zürich München Paris London Oxford
Cambridge Edinburgh Amsterdam Tübingen Copenhagen Stockholm Helsinki Warsaw Kraków Prague Vienna
Milano Madrid Lisbon Tel-Aviv Bangalore Singapore Seoul Tokyo Kyoto Beijing Shanghai Hangzhou
Shenzhen Nanjing Sydney Melbourne Auckland Santiago São-Paulo Austin Seattle Pittsburgh""")
AFFILIATION_FORMS = ("University of {c}", "{c} Institute of Technology", "{c} {w} Lab",
                     "{c} Center for {w} Research", "Institute for {w} {c}")  # fmt: skip
CN_AFFILIATIONS = ("清华大学", "北京大学", "浙江大学", "上海交通大学", "中国科学院自动化研究所")
VENUES = {"icml": "ICML", "neurips": "NeurIPS", "iclr": "ICLR", "aaai": "AAAI", "ijcai": "IJCAI",
          "cvpr": "CVPR", "acl": "ACL", "kdd": "KDD", "sigir": "SIGIR", "uai": "UAI"}  # fmt: skip
QUERY_KINDS = ("one word", "two words", "prefix", "surname", "chinese name", "no hits")
# Measurement code only: the naive baseline, and FTS5 alone (ids, no rows or models built).
LIKE_TERM = """(p.title LIKE ? OR p.abstract LIKE ? OR EXISTS (SELECT 1 FROM paper_authors AS a
    WHERE a.paper_id = p.id AND a.name LIKE ?))"""
IDS_SQL = """SELECT rowid FROM paper_search WHERE paper_search MATCH ?
    ORDER BY bm25(paper_search, 10.0, 4.0, 2.0, 1.0, 1.0), rowid LIMIT 10"""
LIKE_QUERIES = 100  # the LIKE scan is slow: it runs on the first 100 queries only
KINDS = list(AwardKind)


def zipf(n: int, s: float) -> list[float]:
    """Cumulative weights for `random.choices`: rank r drawn in proportion to 1 / (r + 1)^s."""
    return list(itertools.accumulate(1 / (r + 1) ** s for r in range(n)))


class Synth:
    """Deterministic synthetic awards: every draw comes from one `random.Random(seed)`."""

    def __init__(self, seed: int) -> None:
        self.rng = rng = random.Random(seed)
        self.vocab = list(dict.fromkeys(BASE))
        while len(self.vocab) < 2_000:  # rarer coinages: metalearning, crossattention, …
            word = rng.choice(PREFIXES) + rng.choice(BASE)
            if word not in self.vocab:
                self.vocab.append(word)
        self.vocab_weights = zipf(len(self.vocab), 1.0)
        names: set[str] = set()
        while len(names) < 1_500:
            names.add(rng.choice(CN_SURNAMES) + "".join(rng.choices(CN_GIVEN, k=rng.randint(1, 2))))
        while len(names) < 30_000:
            middle = f" {rng.choice(string.ascii_uppercase)}." if rng.random() < 0.6 else ""
            names.add(f"{rng.choice(GIVEN)}{middle} {rng.choice(SURNAMES)}")
        self.names = sorted(names)  # a set iterates in hash order, which changes between runs
        rng.shuffle(self.names)
        self.name_weights = zipf(len(self.names), 0.5)  # a few prolific authors
        forms: set[str] = set()
        while len(forms) < 2_000 - len(CN_AFFILIATIONS):
            city, word = rng.choice(CITIES).replace("-", " "), rng.choice(BASE).title()
            forms.add(rng.choice(AFFILIATION_FORMS).format(c=city, w=word))
        self.affiliations = [*CN_AFFILIATIONS, *sorted(forms)]
        self.titles: set[str] = set()
        self.arxiv: set[str] = set()

    def words(self, k: int) -> list[str]:
        return self.rng.choices(self.vocab, cum_weights=self.vocab_weights, k=k)

    def title(self) -> str:
        rng = self.rng
        while True:
            words = [w.capitalize() for w in self.words(rng.randint(3, 9))]
            for i in range(len(words) - 1, 0, -1):
                if rng.random() < 0.25:
                    words.insert(i, rng.choice(CONNECT))
            title = " ".join(words)
            if rng.random() < 0.3:
                title = f"{self.words(1)[0].upper()[: rng.randint(4, 8)]}: {title}"
            if title.casefold() not in self.titles:
                self.titles.add(title.casefold())
                return title

    def text(self, n: int) -> str:
        content, stops = self.words(n), self.rng.choices(STOP, k=n)
        words = [stops[i] if i % 5 in (1, 3) else content[i] for i in range(n)]
        return " ".join(" ".join(words[i : i + 16]).capitalize() + "." for i in range(0, n, 16))

    def arxiv_id(self, year: int) -> str:
        """A new-form id (five digits, as from 2015), unique within the run."""
        rng, yy, ident = self.rng, max(year, 2015) % 100, ""
        while not ident or ident in self.arxiv:
            ident = f"{yy:02d}{rng.randint(1, 12):02d}.{rng.randint(1, 99999):05d}"
        self.arxiv.add(ident)
        return ident

    def award(self, index: int) -> dict[str, Any]:
        rng = self.rng
        venue, year, kind = rng.choice(list(VENUES)), rng.randint(2000, 2025), rng.choice(KINDS)
        authors = rng.choices(self.names, cum_weights=self.name_weights, k=rng.randint(1, 12))
        affiliations = rng.choices(self.affiliations, k=rng.randint(1, 4))
        paper: dict[str, Any] = {
            "title": self.title(),
            "authors": list(dict.fromkeys(authors)),
            "affiliations": list(dict.fromkeys(affiliations)),
            "year": year,
            "abstract": self.text(rng.randint(80, 200)),
        }
        if rng.random() < 0.8:
            paper["arxiv"] = self.arxiv_id(year)
        if rng.random() < 0.2:
            paper["doi"] = f"10.{rng.randint(1000, 99999)}/{venue}.{year}.{index}"
        if rng.random() < 0.3:
            paper["summaries"] = {"en": self.text(rng.randint(40, 80))}
        name = f"{kind.value.replace('-', ' ').title()} Paper Award"
        return {"venue": venue, "year": year, "name": name, "kind": kind, "paper": paper}


def make_queries(rng: random.Random, awards: list[dict[str, Any]], n: int) -> list[Query]:
    """(kind, text) pairs, the kinds in turn; all but `no hits` drawn from the data itself."""
    authors = (a for x in awards[:5_000] for a in x["paper"]["authors"])
    chinese = [a for a in authors if "\u4e00" <= a[0] <= "\u9fff"]
    found: list[Query] = []
    for i in range(n):
        kind, paper = QUERY_KINDS[i % len(QUERY_KINDS)], rng.choice(awards)["paper"]
        words = [w.strip(":") for w in paper["title"].split() if w not in CONNECT]
        if kind == "one word":
            text = rng.choice(words)
        elif kind == "two words":
            start = rng.randrange(len(words) - 1)
            text = " ".join(words[start : start + 2])
        elif kind == "prefix":  # someone still typing
            text = rng.choice([w for w in words if len(w) > 3] or words)[:3].lower()
        elif kind == "chinese name" and chinese:
            text = rng.choice(chinese)
        elif kind == "no hits":
            nonsense = "q" + "".join(rng.choices("xzjv", k=5))
            text = nonsense if i % 2 else f"{rng.choice(words)} {nonsense}"
        else:
            text = rng.choice([a.split()[-1] for a in paper["authors"] if " " in a] or words)
        found.append((kind, text))
    return found


def like_query(text: str, *, ranked: bool = False) -> tuple[str, list[str]]:
    """The naive baseline: every word a substring of the title, the abstract or an author.

    Unranked, it stops at the first 10 rows it meets. Ranked (title matches first, as search
    ranks them), it must look at every row, as any ranked answer must.
    """
    words = text.split()
    where = " AND ".join([LIKE_TERM] * len(words))
    params = [f"%{w}%" for w in words for _ in range(3)]
    if not ranked:
        sql = f"SELECT p.id FROM papers AS p WHERE {where} LIMIT 10"  # noqa: S608 (measurement)
        return sql, params
    order = " + ".join(["(p.title LIKE ?)"] * len(words))
    sql = f"SELECT p.id FROM papers AS p WHERE {where} ORDER BY {order} DESC, p.id LIMIT 10"  # noqa: S608
    return sql, params + [f"%{w}%" for w in words]


async def timed(call: Call) -> tuple[float, Any]:
    """Milliseconds the awaited call took, and what it returned."""
    start = time.perf_counter_ns()
    result = await call()
    return (time.perf_counter_ns() - start) / 1e6, result


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def p50_p99(values: list[float]) -> str:
    return f"{pct(values, 0.5):.2f} / {pct(values, 0.99):.2f} ms"


def sync_selects(path: Path, n: int) -> int:
    """Nanoseconds for `n` `SELECT ?` on a plain sqlite3 connection to the same file."""
    conn = sqlite3.connect(path, isolation_level=None)
    start = time.perf_counter_ns()
    for i in range(n):
        conn.execute("SELECT ?", (i,)).fetchone()
    elapsed = time.perf_counter_ns() - start
    conn.close()
    return elapsed


def as_ratio(ratio: float) -> str:
    """A ratio as "12x" or "0.04x": above 1 the first is slower by that many times."""
    return f"{ratio:.1f}x" if ratio >= 1 else f"{ratio:.2f}x"


def mib(n: float) -> str:
    return f"{n / 2**20:,.1f} MiB"


async def profiled(db: Database, call: Call) -> pstats.Stats:
    """Profile `call` on the writer thread (a profiler sees only the thread that enabled it)."""
    profiler = cProfile.Profile()
    await db.snapshot(lambda _conn: profiler.enable())
    await call()
    await db.snapshot(lambda _conn: profiler.disable())
    return pstats.Stats(profiler).strip_dirs()


async def profile(db: Database, batch: CatalogBatch) -> None:
    apply = partial(
        CatalogRepository(db, SystemClock()).apply, batch, actor="benchmark", policy="update"
    )
    for label in ("import", "re-import (unchanged)"):
        stats = await profiled(db, apply)
        print(f"\n== cProfile, {label} of {len(batch.awards):,} awards ==")
        stats.sort_stats("tottime").print_stats(15)
        stats.sort_stats("cumulative").print_stats(25)


async def imports(
    db: Database, path: Path, batch: CatalogBatch, figures: dict[str, Any]
) -> list[tuple[str, str]]:
    n, seconds = len(batch.awards), []
    apply = partial(
        CatalogRepository(db, SystemClock()).apply, batch, actor="benchmark", policy="update"
    )
    for _ in range(2):
        ms, plan = await timed(apply)
        seconds.append(ms / 1e3)
        print(f"  {plan.summary()}")
    ratio = seconds[1] / seconds[0]
    print(f"import: {seconds[0]:.1f} s = {n / seconds[0]:,.0f} papers/s")
    print(f"re-import, all unchanged: {seconds[1]:.1f} s = {ratio:.2f}x the first")
    await db.snapshot(lambda conn: conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall())
    size = await asyncio.to_thread(lambda: path.stat().st_size)
    tables: dict[str, int] = defaultdict(int)
    for name, pages in await db.fetchall("SELECT name, sum(pgsize) FROM dbstat GROUP BY name"):
        tables["paper_search (fts5)" if name.startswith("paper_search") else name] += pages
    top = sorted(tables.items(), key=lambda kv: -kv[1])[:5]
    print(f"database: {mib(size)}; largest: " + ", ".join(f"{k} {mib(v)}" for k, v in top))
    figures |= {"import_papers_per_s": n / seconds[0], "reimport_ratio": ratio, "db_bytes": size}
    return [
        ("import", f"{n / seconds[0]:,.0f} papers/s ({seconds[0]:.1f} s)"),
        ("re-import, unchanged / import", f"{ratio:.2f}x ({seconds[1]:.1f} s)"),
        ("database file", mib(size)),
    ]


async def searches(
    db: Database, queries: list[Query], figures: dict[str, Any]
) -> list[tuple[str, str]]:
    papers, like_n = PaperRepository(db), min(len(queries), LIKE_QUERIES)
    for _, text in queries[:10]:  # warm up the page cache and the statement caches
        await papers.search(text, limit=10)
        await db.fetchall(*like_query(text))
    times: dict[tuple[str, str], list[float]] = defaultdict(list)  # by (method, query kind)
    hits: dict[str, int] = defaultdict(int)
    for i, (kind, text) in enumerate(queries):
        calls: list[tuple[str, Call]] = [("search", partial(papers.search, text, limit=10))]
        if i < like_n:
            calls.append(("ids", partial(db.fetchall, IDS_SQL, (match_query(text),))))
            calls.append(("like", partial(db.fetchall, *like_query(text))))
            calls.append(("ranked", partial(db.fetchall, *like_query(text, ranked=True))))
        for method, call in calls if i % 2 else calls[::-1]:  # alternate which goes first
            ms, found = await timed(call)
            times[method, kind].append(ms)
            times[method, "all"].append(ms)
            hits[kind] += method == "search" and bool(found)
    search, like, ids = times["search", "all"], times["like", "all"], times["ids", "all"]
    ranked = times["ranked", "all"]
    paired = search[:like_n]  # the queries LIKE ran on

    print(f"\nsearch, {len(queries)} queries (limit 10); LIKE on the first {like_n} only (slow):")
    print(f"  {'kind':<13} {'n':>4} {'hits':>5} {'search p50 / p99':>19} {'FTS ids p50':>12}"
          f" {'LIKE p50':>9} {'LIKE ranked p50':>15}")  # fmt: skip
    for kind in QUERY_KINDS:
        mine = times["search", kind]
        ids_p50, like_p50 = pct(times["ids", kind], 0.5), pct(times["like", kind], 0.5)
        ranked_p50 = pct(times["ranked", kind], 0.5)
        found = f"{hits[kind] / len(mine):.0%}"
        print(f"  {kind:<13} {len(mine):>4} {found:>5} {p50_p99(mine):>19} {ids_p50:>9.2f} ms"
              f" {like_p50:>6.2f} ms {ranked_p50:>12.2f} ms")  # fmt: skip
    print("  LIKE stops at the first 10 rows it meets, unranked; LIKE ranked puts title matches")
    print("  first, so it reads every row; search ranks every match by bm25, then loads and")
    print("  validates 10 papers; FTS ids is the ranked MATCH alone")

    for _ in range(200):
        await db.fetchall("SELECT 1")
    floor = [(await timed(partial(db.fetchall, "SELECT 1")))[0] for _ in range(2_000)]
    figures["ms"] = {
        name: {"p50": pct(values, 0.5), "p99": pct(values, 0.99)}
        for name, values in (("search", search), ("search (LIKE subset)", paired), ("like", like),
                             ("like ranked", ranked), ("fts ids", ids), ("select 1", floor))
    }  # fmt: skip
    like_ratio = [pct(like, q) / pct(paired, q) for q in (0.5, 0.99)]
    ranked_ratio = [pct(ranked, q) / pct(paired, q) for q in (0.5, 0.99)]
    ids_ratio = [pct(like, q) / pct(ids, q) for q in (0.5, 0.99)]
    return [
        (f"search p50 / p99, {len(search)} q", p50_p99(search)),
        (f"search p50 / p99, first {like_n} q", p50_p99(paired)),
        (f"LIKE p50 / p99, first {like_n} q", p50_p99(like)),
        (f"FTS ids only p50 / p99, {like_n} q", p50_p99(ids)),
        (f"LIKE ranked p50 / p99, first {like_n} q", p50_p99(ranked)),
        ("LIKE / search at p50, p99", f"{as_ratio(like_ratio[0])}, {as_ratio(like_ratio[1])}"),
        (
            "LIKE ranked / search at p50, p99",
            f"{as_ratio(ranked_ratio[0])}, {as_ratio(ranked_ratio[1])}",
        ),
        ("LIKE / FTS ids only at p50, p99", f"{as_ratio(ids_ratio[0])}, {as_ratio(ids_ratio[1])}"),
        ("SELECT 1 floor, p50", f"{pct(floor, 0.5):.3f} ms"),
        ("search p50 / floor", f"{pct(search, 0.5) / pct(floor, 0.5):.1f}x"),
    ]


async def per_statement(db: Database, path: Path) -> list[tuple[str, str]]:
    """What a thread hop per statement costs: 5,000 `SELECT ?` each way, alternating blocks.

    `fetchone` is three hops (execute, fetch, close the cursor), `fetchall` one.
    """
    ns: dict[str, int] = defaultdict(int)
    for _ in range(10):
        for name, fetch in (("fetchone", db.fetchone), ("fetchall", db.fetchall)):
            start = time.perf_counter_ns()
            for i in range(500):
                await fetch("SELECT ?", (i,))
            ns[name] += time.perf_counter_ns() - start
        ns["sqlite3"] += await asyncio.to_thread(sync_selects, path, 500)
    one, every = ns["fetchone"] / ns["sqlite3"], ns["fetchall"] / ns["sqlite3"]
    print(f"per statement: aiosqlite fetchone {ns['fetchone'] / 5e6:.1f} µs, fetchall "
          f"{ns['fetchall'] / 5e6:.1f} µs, sqlite3 {ns['sqlite3'] / 5e6:.1f} µs")  # fmt: skip
    return [("aiosqlite / sqlite3 per statement", f"{one:.0f}x fetchone, {every:.0f}x fetchall")]


async def run(args: argparse.Namespace) -> None:
    print(f"machine: {platform.platform()} · Python {platform.python_version()}"
          f" · SQLite {sqlite3.sqlite_version} · {os.cpu_count()} CPUs")  # fmt: skip
    start = time.perf_counter_ns()
    synth = Synth(args.seed)
    raw = [synth.award(i) for i in range(args.papers)]
    print(f"generate {args.papers:,} awards: {(time.perf_counter_ns() - start) / 1e9:.1f} s")
    start = time.perf_counter_ns()
    venues = tuple(Venue(key=key, name=name) for key, name in VENUES.items())
    batch = CatalogBatch(venues=venues, awards=tuple(Award.model_validate(a) for a in raw))
    build_s = (time.perf_counter_ns() - start) / 1e9
    print(f"construct models (validation): {build_s:.1f} s"
          f" = {args.papers / build_s:,.0f} papers/s (not part of the import)")  # fmt: skip
    queries = make_queries(random.Random(args.seed + 1), raw, args.queries)
    del raw
    with tempfile.TemporaryDirectory(prefix="laurel-bench-") as tmp:
        path = Path(tmp) / "laurel.db"
        async with await open_database(SqliteTarget(path), clock=SystemClock()) as db:
            if args.profile:
                await profile(db, batch)
                return
            built = f"{args.papers / build_s:,.0f} papers/s ({build_s:.1f} s)"
            rows = [("papers", f"{args.papers:,}"), ("construct models (validation)", built)]
            figures: dict[str, Any] = {"papers": args.papers, "queries": len(queries)}
            rows += await imports(db, path, batch, figures)
            rows += await searches(db, queries, figures)
            rows += await per_statement(db, path)
    print("\nsummary")
    for label, value in rows:
        print(f"  {label:<36} {value}")
    save(args.json, "catalog", rows, figures)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.catalog", description=__doc__)
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="cProfile the imports only")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if args.papers < 10 or args.queries < len(QUERY_KINDS):
        parser.error(f"--papers must be at least 10 and --queries at least {len(QUERY_KINDS)}")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
