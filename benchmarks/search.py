"""Search and per-command cost, FTS5 against the derived index, in one run:
`python -m benchmarks.search [--papers N] [--queries Q] [--db PATH] [--seconds S]`.

The real LaurelBot answers interactions from the LocalDiscord stand-in, in this process (as
benchmarks/interactions.py does). Two parts:
1. the bundled catalogue: for /ping, /paper search, /paper show (by id and by title),
   /awards edition and /stats edition, p50 / p99 one at a time and the store round trips per
   answer; and search ÷ ping throughput with C in flight;
2. N synthetic papers (benchmarks/catalog.py's generator; `--db` keeps the database for the
   next run): for each engine, /paper search p50 / p99 against the /ping p99 of the same
   phase, autocomplete p99 (/paper search's query, /paper show's title, as one types), and
   search ÷ ping throughput with C in flight; the index's rebuild time.
Read the ratios: the stand-in shares the loop with the bot, so the floor includes its work.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack, asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Any, Literal

from benchmarks.catalog import Query, as_ratio, p50_p99, pct
from benchmarks.interactions import (
    HOUR_MS,
    build,
    forget_messages,
    machine,
    ms_since,
    no_settle,
    ping_command,
    sustain,
    synthesize,
    timed,
)
from benchmarks.report import save
from bot.catalog.bundled import load_bundled_into
from bot.settings import BackupSettings, SearchSettings, Settings
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.config import Config
from laurel_console.localdiscord.server import LocalDiscord

Engine = Literal["fts5", "tantivy"]
Interact = Callable[[], Awaitable[Any]]
Rows = list[tuple[str, str]]
ENGINES: tuple[Engine, ...] = ("fts5", "tantivy")


class RoundTrips:
    """Counts the store's statements (reads and writes) made through `db`."""

    def __init__(self, db: Database) -> None:
        self.count = 0
        for name in ("fetchall", "fetchone", "write", "snapshot"):
            original = getattr(db, name)
            setattr(db, name, self._counted(original))

    def _counted(self, original: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await original(*args, **kwargs)

        return counted


@asynccontextmanager
async def laurel(db: Database, engine: Engine, index_dir: Path) -> Any:
    """The bot on a stand-in with /ping, searching with `engine`; its index in `index_dir`."""
    async with AsyncExitStack() as stack:
        server = LocalDiscord(config=Config(heartbeat_interval_ms=HOUR_MS))
        await stack.enter_async_context(server)
        server.driver.settle = no_settle
        search = SearchSettings(engine=engine, index_path=index_dir)
        settings = Settings(backups=BackupSettings(enabled=False), search=search)
        start = time.perf_counter_ns()
        bot = await stack.enter_async_context(laurel_on(server, db, settings, ready_timeout=60))
        if bot.search_index is not None:
            await bot.search_index.wait_ready()
        ready_ms = ms_since(start)
        bot.tree.add_command(ping_command())
        await bot.tree.sync()
        yield server, bot, ready_ms


def commands(server: LocalDiscord) -> tuple[Callable[[str], Interact], Interact]:
    """/paper search and /ping on a stand-in that shares the bot's loop (benchmarks.interactions
    drives its own, threaded one; here both engines see the same stand-in cost)."""

    async def search(text: str) -> dict[str, Any]:
        return await (await server.slash("paper", {"query": text}, subcommand="search")).message()

    async def ping() -> dict[str, Any]:
        return await (await server.slash("ping")).message()

    return (lambda text: partial(search, text)), ping


def autocomplete(server: LocalDiscord, where: str, text: str) -> Interact:
    if where == "search":
        return partial(server.autocomplete, "paper", {"query": text}, "query", subcommand="search")
    return partial(server.autocomplete, "paper", {"paper": text}, "paper", subcommand="show")


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


async def throughput(server: LocalDiscord, queries: list[Query], seconds: float, c: int) -> float:
    """Search ÷ ping interactions per second, C in flight, two alternating rounds of each."""
    search, ping = commands(server)
    streams = {
        "search": (search(text) for i in range(10**9) for _, text in [queries[i % len(queries)]]),
        "ping": (ping for _ in range(10**9)),
    }
    done = {"search": 0, "ping": 0}
    ns = {"search": 0, "ping": 0}
    for round_ in range(4):
        name = ("search", "ping")[round_ % 2]
        forget_messages(server)
        each, _, elapsed = await sustain(streams[name], c, seconds / 2)
        done[name] += len(each)
        ns[name] += elapsed
    return (done["search"] / ns["search"]) / (done["ping"] / ns["ping"])


# -- 1. the bundled catalogue: per-command cost -----------------------------------------------
def command_calls(
    server: LocalDiscord,
    ids: list[int],
    titles: list[str],
    editions: list[tuple[str, int]],
    queries: list[Query],
) -> dict[str, Callable[[int], Interact]]:
    """Each command measured, as the i-th call of it."""
    search, ping = commands(server)

    def slash(name: str, options: dict[str, Any], sub: str) -> Interact:
        async def call() -> Any:
            return await (await server.slash(name, options, subcommand=sub)).message()

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
        "autocomplete": lambda i: autocomplete(server, "show", typing(titles[i % len(titles)])),
    }


async def per_command(tmp: Path, args: argparse.Namespace, figures: dict[str, Any]) -> Rows:
    rows: Rows = []
    async with await Database.open(tmp / "bundled.db") as db:
        await load_bundled_into(db)
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
        for engine in ENGINES:
            async with laurel(db, engine, tmp / f"bundled-{engine}.search") as (server, _, _):
                calls = command_calls(server, ids, titles, editions, queries)
                for name, make in calls.items():
                    for i in range(10):  # warm: charts drawn, caches filled
                        await make(i)()
                    forget_messages(server)
                    before = trips.count
                    times = []
                    for i in range(args.commands):
                        ms, _ = await timed(make(i))
                        times.append(ms)
                    per_answer = (trips.count - before) / args.commands
                    figures.setdefault("bundled", {})[f"{engine} {name}"] = {
                        "p50": pct(times, 0.5), "p99": pct(times, 0.99), "round_trips": per_answer
                    }  # fmt: skip
                    rows.append((f"bundled, {engine}: {name} p50 / p99, store round trips",
                                 f"{p50_p99(times)}, {per_answer:.1f}"))  # fmt: skip
                ratio = await throughput(server, queries, args.seconds, args.concurrency)
                rows.append((f"bundled, {engine}: search ÷ ping, {args.concurrency} in flight",
                             as_ratio(ratio)))  # fmt: skip
    return rows


# -- 2. N papers: FTS5 against the index --------------------------------------------------------
async def at_scale(
    path: Path, queries: list[Query], tmp: Path, args: argparse.Namespace, figures: dict[str, Any]
) -> Rows:
    rows: Rows = []
    async with await Database.open(path) as db:
        (count,) = await db.fetchone("SELECT count(*) FROM live_papers") or (0,)
        rows.append(("papers", f"{count:,}"))
        for engine in ENGINES:
            async with laurel(db, engine, tmp / f"scale-{engine}.search") as (server, bot, ready):
                if engine == "tantivy":
                    rows.append(("tantivy: start to ready (index rebuilt)", f"{ready:,.0f} ms"))
                search, ping = commands(server)
                for _, text in queries[:20]:
                    await search(text)()
                    await ping()
                n = len(queries)
                times = await one_at_a_time(
                    {
                        "search": (search(queries[i % n][1]) for i in range(10**9)),
                        "ping": (ping for _ in range(10**9)),
                        "autocomplete search": (
                            autocomplete(server, "search", typing(queries[i % n][1]))
                            for i in range(10**9)
                        ),
                        "autocomplete show": (
                            autocomplete(server, "show", typing(queries[i % n][1]))
                            for i in range(10**9)
                        ),
                    },
                    n,
                )
                search_t, ping_t = times["search"], times["ping"]
                complete = times["autocomplete search"] + times["autocomplete show"]
                ratio = await throughput(server, queries, args.seconds, args.concurrency)
                figures[engine] = {
                    "search": {"p50": pct(search_t, 0.5), "p99": pct(search_t, 0.99)},
                    "ping": {"p50": pct(ping_t, 0.5), "p99": pct(ping_t, 0.99)},
                    "autocomplete_p99": pct(complete, 0.99),
                    "throughput_ratio": ratio,
                }
                rows += [
                    (f"{engine}: /paper search p50 / p99", p50_p99(search_t)),
                    (f"{engine}: /ping p50 / p99", p50_p99(ping_t)),
                    (f"{engine}: search p99 ÷ ping p99 (goal ≤ 3)",
                     as_ratio(pct(search_t, 0.99) / pct(ping_t, 0.99))),
                    (f"{engine}: autocomplete p50 / p99 (goal p99 ≤ 20 ms)", p50_p99(complete)),
                    (f"{engine}: search ÷ ping, {args.concurrency} in flight (goal ≥ 0.3)",
                     as_ratio(ratio)),
                ]  # fmt: skip
                store = [
                    (await timed(partial(bot.papers.search, text, limit=6)))[0]
                    for _, text in queries
                ]
                rows.append((f"{engine}: store search alone p50 / p99", p50_p99(store)))
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
    parser.add_argument("--json", type=Path, help="also write the results here")
    asyncio.run(run(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
