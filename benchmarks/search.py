"""Search and per-command cost, FTS5 against the derived index, in one run:
`python -m benchmarks.search [--papers N] [--queries Q] [--db PATH] [--seconds S]
[--engines E ...] [--profile NAME]`.

The real LaurelBot answers interactions from the lean LocalDiscord stand-in, which runs on an
event loop in a thread of its own (benchmarks/standin.py): every figure has the bot's CPU and,
beside it, the stand-in's. Two parts:
1. the bundled catalogue: for /ping, /paper search, /paper show (by id and by title),
   /awards edition, /stats edition and both autocompletes, p50 / p99 one at a time, the store
   round trips and the CPU per answer; and search ÷ ping throughput with C in flight;
2. N synthetic papers (benchmarks/catalog.py's generator; `--db` keeps the database, and the
   index beside it, for the next run): for each engine, /paper search p50 / p99 against the
   /ping p99 of the same phase, autocomplete p99 (/paper search's query, /paper show's title,
   as one types), and search ÷ ping throughput with C in flight; the index's start time.
Throughput alternates search and ping rounds (ROUNDS of each), so that a change in the
machine's load falls on both sides. `--profile NAME` cProfiles the bot's loop over one command
instead of timing it. Read the ratios, and the CPU: milliseconds say how busy the machine was.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import pstats
import random
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Literal

from benchmarks.catalog import Query, as_ratio, p50_p99, pct
from benchmarks.interactions import (
    build,
    forget_messages,
    machine,
    ms_since,
    no_settle,
    part_of,
    ping_command,
    sustain,
    synthesize,
    timed,
)
from benchmarks.report import save
from benchmarks.standin import CpuSplit, ThreadedStandIn, lean_config
from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.dburl import SqliteTarget
from bot.domain.clock import SystemClock
from bot.settings import BackupSettings, SearchSettings, Settings
from bot.store.backends import open_database
from bot.store.database import Database
from bot.store.search.index import SearchIndex
from laurel_console.harness import laurel_on

Engine = Literal["fts5", "tantivy"]
Interact = Callable[[], Awaitable[Any]]
Rows = list[tuple[str, str]]
ENGINES: tuple[Engine, ...] = ("fts5", "tantivy")
ROUNDS = 8  # of throughput, search and ping alternating (4 of each)


class RoundTrips:
    """Counts the store's round trips: statements made through `db`, and each answer the
    derived index reads on its searcher thread (`SearchIndex.page_then`, `similar_then`: one
    hop, one read each; the bot's searches call these since ranking pages and counts)."""

    def __init__(self, db: Database) -> None:
        self.count = 0
        for name in ("fetchall", "fetchone", "write", "snapshot"):
            original = getattr(db, name)
            setattr(db, name, self._counted(original))

    def follow(self, index: SearchIndex | None) -> None:
        if index is None:
            return
        for name in ("page_then", "similar_then"):
            setattr(index, name, self._counted(getattr(index, name)))

    def _counted(self, original: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await original(*args, **kwargs)

        return counted


@asynccontextmanager
async def laurel(db: Database, engine: Engine, index_dir: Path) -> Any:
    """The bot with /ping, searching with `engine` (its index in `index_dir`), on the lean
    stand-in in a thread of its own (benchmarks/standin.py): its CPU is counted apart."""
    async with AsyncExitStack() as stack:
        stand = await stack.enter_async_context(ThreadedStandIn(config=lean_config()))
        stand.server.driver.settle = no_settle
        search = SearchSettings(engine=engine, index_path=index_dir)
        settings = Settings(backups=BackupSettings(enabled=False), search=search)
        start = time.perf_counter_ns()
        bot = await stack.enter_async_context(
            laurel_on(stand.server, db, settings, ready_timeout=60, clock=SystemClock())
        )
        if bot.search_index is not None:
            await bot.search_index.wait_ready()
        ready_ms = ms_since(start)
        bot.tree.add_command(ping_command())
        await bot.tree.sync()
        yield stand, bot, ready_ms


def commands(stand: ThreadedStandIn) -> tuple[Callable[[str], Interact], Interact]:
    """/paper search and /ping, each issued on the stand-in's loop and awaited from the bot's."""
    server = stand.server

    async def searched(text: str) -> dict[str, Any]:
        return await (await server.slash("paper", {"query": text}, subcommand="search")).message()

    async def pinged() -> dict[str, Any]:
        return await (await server.slash("ping")).message()

    async def search(text: str) -> dict[str, Any]:
        return await stand.call(searched(text))

    async def ping() -> dict[str, Any]:
        return await stand.call(pinged())

    return (lambda text: partial(search, text)), ping


def autocomplete(stand: ThreadedStandIn, where: str, text: str) -> Interact:
    server = stand.server
    if where == "search":
        ask = partial(server.autocomplete, "paper", {"query": text}, "query", subcommand="search")
    else:
        ask = partial(server.autocomplete, "paper", {"paper": text}, "paper", subcommand="show")

    async def call() -> Any:
        return await stand.call(ask())

    return call


def typing(text: str) -> str:
    """What is in the box while `text` is typed: two thirds of it, at least three letters."""
    return text[: max(3, len(text) * 2 // 3)]


async def one_at_a_time(calls: dict[str, Iterator[Interact]], n: int) -> dict[str, list[float]]:
    """Each call in turn, `n` rounds, the order rotating: ms per call by name."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    names = list(calls)
    for i in range(n):
        for name in names[i % len(names) :] + names[: i % len(names)]:
            ms, _ = await timed(next(calls[name]))
            times[name].append(ms)
    return times


@dataclass
class Measured:
    """Answers timed, and the CPU they cost: the bot's and the stand-in's beside it."""

    ms: list[float] = field(default_factory=list)
    bot_cpu_s: float = 0.0
    stand_in_cpu_s: float = 0.0

    def cpu_ms(self) -> tuple[float, float]:
        n = max(len(self.ms), 1)
        return self.bot_cpu_s / n * 1e3, self.stand_in_cpu_s / n * 1e3

    def cpu_total_ms(self) -> float:
        return sum(self.cpu_ms())

    def cpu_text(self) -> str:
        bot, stand_in = self.cpu_ms()
        return f"bot {bot:.2f} ms, stand-in {stand_in:.2f} ms"


async def throughput(
    stand: ThreadedStandIn, queries: list[Query], seconds: float, c: int
) -> tuple[float, dict[str, Measured]]:
    """Search ÷ ping interactions per second, C in flight, `seconds` of each in alternating
    rounds; and each one's answers with their CPU."""
    search, ping = commands(stand)
    streams = {
        "search": (search(text) for i in range(10**9) for _, text in [queries[i % len(queries)]]),
        "ping": (ping for _ in range(10**9)),
    }
    done = {"search": Measured(), "ping": Measured()}
    ns = {"search": 0, "ping": 0}
    for round_ in range(ROUNDS):
        name = ("search", "ping", "ping", "search")[round_ % 4]  # a drift in load falls on both
        forget_messages(stand.server)
        split = CpuSplit(stand)
        each, _, elapsed = await sustain(streams[name], c, seconds * 2 / ROUNDS)
        split.stop()
        done[name].ms += each
        done[name].bot_cpu_s += split.bot
        done[name].stand_in_cpu_s += split.stand_in
        ns[name] += elapsed
    rate = {name: len(done[name].ms) / (ns[name] / 1e9) for name in done}
    return rate["search"] / rate["ping"], done


# -- 1. the bundled catalogue: per-command cost -----------------------------------------------
def command_calls(
    stand: ThreadedStandIn,
    ids: list[int],
    titles: list[str],
    editions: list[tuple[str, int]],
    queries: list[Query],
) -> dict[str, Callable[[int], Interact]]:
    """Each command measured, as the i-th call of it."""
    search, ping = commands(stand)
    server = stand.server

    def slash(name: str, options: dict[str, Any], sub: str) -> Interact:
        async def answered() -> Any:
            return await (await server.slash(name, options, subcommand=sub)).message()

        async def call() -> Any:
            return await stand.call(answered())

        return call

    def edition(i: int) -> dict[str, Any]:
        venue, year = editions[i % len(editions)]
        return {"venue": venue, "year": year}

    return {
        "/ping": lambda i: ping,
        "/paper search": lambda i: search(queries[i % len(queries)][1]),
        "/paper show (id)": lambda i: slash("paper", {"paper": str(ids[i % len(ids)])}, "show"),
        "/paper show (title)": lambda i: slash(
            "paper", {"paper": titles[i % len(titles)][:40]}, "show"
        ),
        "/awards edition": lambda i: slash("awards", edition(i), "edition"),
        "/stats edition": lambda i: slash("stats", {"venue": edition(i)["venue"]}, "edition"),
        "autocomplete (show)": lambda i: autocomplete(
            stand, "show", typing(titles[i % len(titles)])
        ),
        "autocomplete (search)": lambda i: autocomplete(
            stand, "search", typing(queries[i % len(queries)][1])
        ),
    }


async def measured(calls: Iterator[Interact], stand: ThreadedStandIn) -> Measured:
    """Each of `calls` in turn, timed, with the CPU all of them cost."""
    result = Measured()
    split = CpuSplit(stand)
    for call in calls:
        ms, _ = await timed(call)
        result.ms.append(ms)
    split.stop()
    result.bot_cpu_s, result.stand_in_cpu_s = split.bot, split.stand_in
    return result


async def per_command(tmp: Path, args: argparse.Namespace, figures: dict[str, Any]) -> Rows:
    rows: Rows = []
    async with await open_database(SqliteTarget(tmp / "bundled.db"), clock=SystemClock()) as db:
        await load_bundled_into(CatalogParts.over(db, SystemClock()))
        titles = [r[0] for r in await db.fetchall("SELECT title FROM live_papers ORDER BY id")]
        ids = [r[0] for r in await db.fetchall("SELECT id FROM live_papers ORDER BY id")]
        edition_rows = await db.fetchall(
            "SELECT DISTINCT e.venue, e.year FROM live_awards AS a "
            "JOIN editions AS e ON e.id = a.edition_id ORDER BY e.venue, e.year"
        )
        editions = [(str(r[0]), int(r[1])) for r in edition_rows]
        rng = random.Random(args.seed)
        words = [w for t in titles for w in t.split() if len(w) > 4]
        queries: list[Query] = [("word", rng.choice(words)) for _ in range(200)]
        trips = RoundTrips(db)
        for engine in args.engines:
            async with laurel(db, engine, tmp / f"bundled-{engine}.search") as (stand, bot, _):
                trips.follow(bot.search_index)
                calls = command_calls(stand, ids, titles, editions, queries)
                for name, make in calls.items():
                    for i in range(10):  # warm: charts drawn, caches filled
                        await make(i)()
                    forget_messages(stand.server)
                    if args.profile == name:
                        await profile(name, [make(i) for i in range(args.commands)])
                        continue
                    before = trips.count
                    done = await measured((make(i) for i in range(args.commands)), stand)
                    per_answer = (trips.count - before) / args.commands
                    bot_ms, stand_ms = done.cpu_ms()
                    figures.setdefault("bundled", {})[f"{engine} {name}"] = {
                        "p50": pct(done.ms, 0.5), "p99": pct(done.ms, 0.99),
                        "round_trips": per_answer, "bot_cpu_ms": bot_ms,
                        "stand_in_cpu_ms": stand_ms,
                    }  # fmt: skip
                    label = f"bundled, {engine}: {name} p50 / p99; round trips; CPU an answer"
                    value = f"{p50_p99(done.ms)}; {per_answer:.1f}; {done.cpu_text()}"
                    rows.append((label, value))
                ratio, each = await throughput(stand, queries, args.seconds, args.concurrency)
                figures.setdefault("bundled", {})[f"{engine} throughput_ratio"] = ratio
                rows.append((f"bundled, {engine}: search ÷ ping, {args.concurrency} in flight"
                             " (goal ≥ 0.6); CPU a search, a ping",
                             f"{as_ratio(ratio)}; {each['search'].cpu_text()};"
                             f" {each['ping'].cpu_text()}"))  # fmt: skip
    return rows


async def profile(name: str, calls: list[Interact]) -> None:
    """cProfile the bot's loop (this thread) over `calls`, one at a time; the stand-in's
    thread, SQLite's and tantivy's are not profiled (their time shows as the loop waiting)."""
    profiler = cProfile.Profile()
    start = time.perf_counter_ns()
    profiler.enable()
    for call in calls:
        await call()
    profiler.disable()
    wall = ms_since(start)
    stats = pstats.Stats(profiler)
    own: dict[str, float] = defaultdict(float)
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    for (filename, _, function), (_, _, tottime, _, _) in raw.items():
        own[part_of(filename, function)] += tottime
    print(f"\n== cProfile of {len(calls)} {name}, one at a time: {wall:,.0f} ms wall ==")
    for part, seconds in sorted(own.items(), key=lambda kv: -kv[1]):
        print(f"  {part:<46} {seconds * 1e3 / len(calls):>8.3f} ms a call")
    stats.strip_dirs().sort_stats("tottime").print_stats(30)
    stats.sort_stats("cumulative").print_stats(60)


# -- 2. N papers: FTS5 against the index --------------------------------------------------------
async def at_scale(
    path: Path, queries: list[Query], tmp: Path, args: argparse.Namespace, figures: dict[str, Any]
) -> Rows:
    rows: Rows = []
    async with await open_database(SqliteTarget(path), clock=SystemClock()) as db:
        (count,) = await db.fetchone("SELECT count(*) FROM live_papers") or (0,)
        rows.append(("papers", f"{count:,}"))
        for engine in args.engines:
            # Beside a kept database (--db), the index is kept too: a rerun opens it.
            index = path.with_name(path.name + ".search") if args.db else tmp / "scale.search"
            rebuilt = "reused" if (index / "meta.json").exists() else "rebuilt"
            async with laurel(db, engine, index) as (stand, bot, ready):
                if engine == "tantivy":
                    rows.append((f"tantivy: start to ready (index {rebuilt})", f"{ready:,.0f} ms"))
                search, ping = commands(stand)
                for _, text in queries[:20]:
                    await search(text)()
                    await ping()
                n = len(queries)
                if args.profile == "search at scale":
                    await profile(f"{engine} /paper search", [search(t) for _, t in queries])
                    continue
                times = await one_at_a_time(
                    {
                        "search": (search(queries[i % n][1]) for i in range(10**9)),
                        "ping": (ping for _ in range(10**9)),
                        "autocomplete search": (
                            autocomplete(stand, "search", typing(queries[i % n][1]))
                            for i in range(10**9)
                        ),
                        "autocomplete show": (
                            autocomplete(stand, "show", typing(queries[i % n][1]))
                            for i in range(10**9)
                        ),
                    },
                    n,
                )
                search_t, ping_t = times["search"], times["ping"]
                complete = times["autocomplete search"] + times["autocomplete show"]
                ratio, each = await throughput(stand, queries, args.seconds, args.concurrency)
                figures[engine] = {
                    "search": {"p50": pct(search_t, 0.5), "p99": pct(search_t, 0.99)},
                    "ping": {"p50": pct(ping_t, 0.5), "p99": pct(ping_t, 0.99)},
                    "autocomplete_p99": pct(complete, 0.99),
                    "throughput_ratio": ratio,
                    "cpu_ms": {name: dict(zip(("bot", "stand_in"), m.cpu_ms(), strict=True))
                               for name, m in each.items()},
                }  # fmt: skip
                rows += [
                    (f"{engine}: /paper search p50 / p99", p50_p99(search_t)),
                    (f"{engine}: /ping p50 / p99", p50_p99(ping_t)),
                    (f"{engine}: search p99 ÷ ping p99 (goal ≤ 3)",
                     as_ratio(pct(search_t, 0.99) / pct(ping_t, 0.99))),
                    (f"{engine}: autocomplete p50 / p99 (goal p99 ≤ 20 ms)", p50_p99(complete)),
                    (f"{engine}: autocomplete p99 ÷ ping p99 (the machine's floor)",
                     as_ratio(pct(complete, 0.99) / pct(ping_t, 0.99))),
                    (f"{engine}: search ÷ ping, {args.concurrency} in flight (goal ≥ 0.3)",
                     as_ratio(ratio)),
                    (f"{engine}: search ÷ ping by CPU (bot and stand-in), {args.concurrency}"
                     " in flight", as_ratio(each["ping"].cpu_total_ms()
                                            / each["search"].cpu_total_ms())),
                    (f"{engine}: CPU a search, {args.concurrency} in flight",
                     each["search"].cpu_text()),
                    (f"{engine}: CPU a ping, {args.concurrency} in flight",
                     each["ping"].cpu_text()),
                ]  # fmt: skip
                store = [
                    (await timed(partial(bot.papers.search, text, limit=6)))[0]
                    for _, text in queries
                ]
                rows.append((f"{engine}: store search alone p50 / p99", p50_p99(store)))
                # Autocomplete's own query (what names a paper, no count), as one types.
                titles = [
                    (await timed(partial(bot.papers.titles, typing(text))))[0]
                    for _, text in queries
                ]
                rows.append((f"{engine}: store autocomplete alone p50 / p99", p50_p99(titles)))
    return rows


async def run(args: argparse.Namespace) -> None:
    print(f"machine: {machine()}")
    figures: dict[str, Any] = {}
    rows: Rows = []
    with tempfile.TemporaryDirectory(prefix="laurel-search-") as name:
        tmp = Path(name)
        if not args.skip_bundled:
            rows += await per_command(tmp, args, figures)
        if args.papers:
            raw, queries = synthesize(args.papers, args.queries, args.seed)
            path = args.db or tmp / "laurel.db"
            if path.exists():
                print(f"reusing {path}: not rebuilt")
            else:
                rows += await build(path, raw)
            del raw
            rows += await at_scale(path, queries, tmp, args, figures)
    print("\nsummary")
    for label, value in rows:
        print(f"  {label:<62} {value}")
    save(args.json, "search", rows, figures)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.search", description=__doc__)
    parser.add_argument("--papers", type=int, default=100_000, help="0: the bundled part only")
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--commands", type=int, default=200, help="of each, bundled catalogue")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=4.0, help="of each, throughput")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, help="build the database here, or reuse it")
    parser.add_argument("--skip-bundled", action="store_true")
    parser.add_argument("--engines", nargs="+", choices=ENGINES, default=list(ENGINES))
    parser.add_argument(
        "--profile",
        metavar="NAME",
        help="cProfile the bot's loop over one command instead of timing it: a bundled"
        " command's name (e.g. '/paper search') or 'search at scale'",
    )
    parser.add_argument("--json", type=Path, help="also write the results here")
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
