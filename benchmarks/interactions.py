"""Slash commands end to end: `python -m benchmarks.interactions [--papers N] [--queries Q]
[--concurrency C] [--seconds S] [--db PATH] [--spec PATH] [--profile N]`.

The real LaurelBot (discord.py, commands, SQLite) answers interactions from the LocalDiscord
stand-in, all in this process: the stand-in lean (no spec validation, no request log; with
`--spec`, the full one), on an event loop in a thread of its own, so that its CPU is measured
apart and reported beside the bot's (benchmarks/standin.py). One run, ratios first: the
latency of `/paper search` from issuing the interaction to the stored original response,
against the floor of the same harness (a `/ping` added here that only answers) and against the
store's search alone; then interactions per second with C in flight, for each command. Both
sides of every ratio cross the same threads: read the ratios, not the milliseconds.
`--papers 2000` is a check in seconds; `--db PATH` keeps the database (a second run reuses it).
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
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AsyncExitStack
from functools import partial
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from benchmarks.catalog import (
    QUERY_KINDS,
    VENUES,
    Query,
    Synth,
    as_ratio,
    make_queries,
    mib,
    p50_p99,
    pct,
)
from benchmarks.report import save
from benchmarks.standin import CpuSplit, ThreadedStandIn
from bot.app import LaurelBot
from bot.dburl import SqliteTarget
from bot.domain.clock import SystemClock
from bot.domain.models import Award, CatalogBatch, Venue
from bot.store.backends import open_database
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.config import Config
from laurel_console.localdiscord.limits import SpecValidatorProtocol
from laurel_console.localdiscord.server import LocalDiscord

Interact = Callable[[], Awaitable[dict[str, Any]]]  # issue one interaction; its answer
Rows = list[tuple[str, str]]
WARM_UP = 20  # of each command, before anything is timed
ROUNDS = 4  # the throughput run alternates search and ping this many times each
HOUR_MS = 3_600_000  # a heartbeat interval that never comes round during a run


def ping_command() -> app_commands.Command[Any, ..., None]:
    """The floor: a command that does nothing but answer. Added by the benchmark only."""

    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pong")

    return app_commands.Command(name="ping", description="Answer pong at once", callback=ping)


def ms_since(start: int) -> float:
    return (time.perf_counter_ns() - start) / 1e6


# -- the database ------------------------------------------------------------------------------
def synthesize(papers: int, queries: int, seed: int) -> tuple[list[dict[str, Any]], list[Query]]:
    start = time.perf_counter_ns()
    synth = Synth(seed)
    raw = [synth.award(i) for i in range(papers)]
    found = make_queries(random.Random(seed + 1), raw, queries)
    print(f"generate {papers:,} awards and {queries} queries: {ms_since(start) / 1e3:.1f} s")
    return raw, found


async def build(path: Path, raw: list[dict[str, Any]]) -> Rows:
    """Import `raw` through the one write path, as benchmarks.catalog does."""
    start = time.perf_counter_ns()
    venues = tuple(Venue(key=key, name=name) for key, name in VENUES.items())
    batch = CatalogBatch(venues=venues, awards=tuple(Award.model_validate(a) for a in raw))
    async with await open_database(SqliteTarget(path), clock=SystemClock()) as db:
        plan = await CatalogRepository(db, SystemClock()).apply(
            batch, actor="benchmark", policy="update"
        )
        await db.snapshot(lambda conn: conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall())
    seconds = ms_since(start) / 1e3
    print(f"  {plan.summary()}")
    print(f"build the database (validate + import): {seconds:.1f} s")
    return [("build (validate + import)", f"{len(raw) / seconds:,.0f} papers/s ({seconds:.1f} s)")]


# -- driving the bot ---------------------------------------------------------------------------
async def no_settle(iterations: int) -> None:
    """Users don't wait for a quiet moment before they type: neither does the benchmark.

    (The driver's settle waits until no REST request is in flight, which under load would
    gate every interaction on the others, and then yields to the loop 20 times.)
    """


def commands(stand: ThreadedStandIn) -> tuple[Callable[[str], Interact], Interact]:
    server = stand.server

    async def searched(text: str) -> dict[str, Any]:
        interaction = await server.slash("paper", {"query": text}, subcommand="search")
        return await interaction.message()

    async def pinged() -> dict[str, Any]:
        return await (await server.slash("ping")).message()

    async def search(text: str) -> dict[str, Any]:
        return await stand.call(searched(text))

    async def ping() -> dict[str, Any]:
        return await stand.call(pinged())

    return (lambda text: partial(search, text)), ping


async def timed(call: Interact) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter_ns()
    answer = await call()
    return ms_since(start), answer


def forget_messages(server: LocalDiscord) -> None:
    """Empty the stand-in's channels between phases: it finds a message by scanning its
    channel from the oldest, so latency would otherwise grow with every answer stored."""
    for stored in server.world.messages.values():
        stored.clear()


async def warm_up(db: Database, search: Callable[[str], Interact], ping: Interact) -> None:
    pong = await ping()
    if pong["content"] != "pong":
        raise RuntimeError(f"/ping answered {pong!r}")
    for text in ("learning", "attention graph", "qzzxv"):
        answer = await search(text)()
        if not answer["embeds"] and not answer["content"]:
            raise RuntimeError(f"/paper search {text!r} answered {answer!r}")
    for i in range(WARM_UP):
        await search(("neural", "transformer", "policy", "diffusion")[i % 4])()
        await ping()
    await db.fetchall("SELECT count(*) FROM paper_search WHERE paper_search MATCH 'learning'")


async def latencies(
    bot: LaurelBot,
    stand: ThreadedStandIn,
    queries: list[Query],
    search: Callable[[str], Interact],
    ping: Interact,
) -> tuple[dict[tuple[str, str], list[float]], int, dict[str, CpuSplit]]:
    """Per query: /paper search and /ping, the order alternating, then the store's search
    alone. Times by (what, query kind); how many searches found something; and the CPU each
    command cost, the bot's and the stand-in's."""
    times: dict[tuple[str, str], list[float]] = defaultdict(list)
    cpu = {"search": CpuSplit(stand), "ping": CpuSplit(stand)}
    hits = 0
    for i, (kind, text) in enumerate(queries):
        store = partial(bot.papers.search, text, limit=6)  # what /paper search asks for (5 + 1)
        calls: list[tuple[str, Interact]] = [("search", search(text)), ("ping", ping)]
        for what, call in calls if i % 2 else calls[::-1]:
            split = CpuSplit(stand)
            ms, answer = await timed(call)
            split.stop()
            cpu[what].total += split.total
            cpu[what].stand_in += split.stand_in
            times[what, kind].append(ms)
            times[what, "all"].append(ms)
            hits += what == "search" and bool(answer["embeds"])
        start = time.perf_counter_ns()
        await store()
        times["store", "all"].append(ms_since(start))
    return times, hits, cpu


async def sustain(
    calls: Iterator[Interact], concurrency: int, seconds: float
) -> tuple[list[float], int, int]:
    """Keep `concurrency` interactions in flight for `seconds`: ms of each answered, how many
    went unanswered (no original response within 5 s: past Discord's 3 s window), elapsed ns."""
    start = time.perf_counter_ns()
    deadline = start + int(seconds * 1e9)
    each: list[float] = []
    lost = 0

    async def user() -> None:
        nonlocal lost
        while time.perf_counter_ns() < deadline:
            try:
                ms, _ = await timed(next(calls))
            except TimeoutError:
                lost += 1
            else:
                each.append(ms)

    await asyncio.gather(*(user() for _ in range(concurrency)))
    return each, lost, time.perf_counter_ns() - start


async def throughput(
    stand: ThreadedStandIn,
    queries: list[Query],
    args: argparse.Namespace,
    figures: dict[str, Any],
) -> Rows:
    server = stand.server
    search, ping = commands(stand)
    streams = {
        "search": iter(search(text) for _, text in itertools.cycle(queries)),
        "ping": itertools.repeat(ping),
    }
    lost: dict[str, int] = defaultdict(int)
    ns: dict[str, int] = defaultdict(int)
    each: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[CpuSplit]] = defaultdict(list)
    for round_ in range(ROUNDS):
        order = list(streams) if round_ % 2 == 0 else list(streams)[::-1]
        for name in order:
            forget_messages(server)
            split = CpuSplit(stand)
            times, unanswered, elapsed = await sustain(
                streams[name], args.concurrency, args.seconds / ROUNDS
            )
            cpu[name].append(split.stop())
            each[name] += times
            lost[name] += unanswered
            ns[name] += elapsed
    rate = {name: len(each[name]) / (ns[name] / 1e9) for name in streams}
    bot_ms = {n: sum(c.bot for c in cpu[n]) / max(len(each[n]), 1) * 1e3 for n in streams}
    stand_ms = {n: sum(c.stand_in for c in cpu[n]) / max(len(each[n]), 1) * 1e3 for n in streams}
    print(f"\nsustained, {args.concurrency} in flight, {args.seconds:g} s of each"
          f" in {ROUNDS} alternating rounds:")  # fmt: skip
    for name in streams:
        print(f"  /{name:<7} {len(each[name]):>7,} answered {lost[name]:>4} lost"
              f" {rate[name]:>7,.0f} interactions/s  p50 / p99 {p50_p99(each[name])}")  # fmt: skip
    label = f"interactions/s, {args.concurrency} in flight"
    figures["sustained"] = {
        name: {"per_s": rate[name], "p50": pct(each[name], 0.5), "p99": pct(each[name], 0.99),
               "lost": lost[name], "bot_cpu_ms": bot_ms[name], "stand_in_cpu_ms": stand_ms[name]}
        for name in streams
    } | {"concurrency": args.concurrency}  # fmt: skip
    return [
        (f"search {label}", f"{rate['search']:,.0f}"),
        (f"ping {label}", f"{rate['ping']:,.0f}"),
        ("search / ping, interactions/s", f"{as_ratio(rate['search'] / rate['ping'])}"),
        (
            "CPU an interaction, search / ping: bot",
            f"{bot_ms['search']:.2f} / {bot_ms['ping']:.2f} ms",
        ),
        (
            "CPU an interaction, search / ping: stand-in (beside it)",
            f"{stand_ms['search']:.2f} / {stand_ms['ping']:.2f} ms",
        ),
        ("search p50 / p99 under load", p50_p99(each["search"])),
        ("unanswered (lost) search, ping", f"{lost['search']}, {lost['ping']}"),
    ]


def report_latencies(
    times: dict[tuple[str, str], list[float]],
    hits: int,
    cpu: dict[str, CpuSplit],
    figures: dict[str, Any],
) -> Rows:
    n = len(times["search", "all"])
    print(f"\none at a time, {n} queries, each with a /ping beside it (order alternating):")
    print(f"  {'kind':<13} {'n':>4} {'/paper search p50 / p99':>24} {'/ping p50 / p99':>20}")
    for kind in QUERY_KINDS:
        mine = times["search", kind]
        print(f"  {kind:<13} {len(mine):>4} {p50_p99(mine):>24} {p50_p99(times['ping', kind]):>20}")
    search, ping, store = times["search", "all"], times["ping", "all"], times["store", "all"]
    ratio = [pct(search, q) / pct(ping, q) for q in (0.5, 0.99)]
    added = pct(search, 0.5) - pct(ping, 0.5)
    figures["one_at_a_time"] = {
        name: {"p50": pct(values, 0.5), "p99": pct(values, 0.99)}
        for name, values in (("search", search), ("ping", ping), ("store", store))
    }
    each = {what: (c.bot / n * 1e3, c.stand_in / n * 1e3) for what, c in cpu.items()}
    figures["one_at_a_time_cpu_ms"] = each
    return [
        ("searches that found papers", f"{hits / n:.0%}"),
        ("/paper search p50 / p99", p50_p99(search)),
        ("/ping (the floor) p50 / p99", p50_p99(ping)),
        (
            "CPU an answer, search / ping: bot; stand-in beside it",
            f"{each['search'][0]:.2f} / {each['ping'][0]:.2f} ms;"
            f" {each['search'][1]:.2f} / {each['ping'][1]:.2f} ms",
        ),
        ("search / floor at p50, p99", f"{as_ratio(ratio[0])}, {as_ratio(ratio[1])}"),
        ("store search alone p50 / p99", p50_p99(store)),
        (
            "store search / (search - floor), p50",
            f"{pct(store, 0.5) / added:.0%}" if added > 0 else "-",
        ),
    ]


# -- profile -----------------------------------------------------------------------------------
PARTS = (
    ("laurel_console/localdiscord/", "the stand-in (LocalDiscord)"),
    ("/bot/", "Laurel (bot/)"),
    ("/discord/", "discord.py"),
    ("/aiohttp/", "aiohttp"),
    ("/yarl/", "yarl / multidict"),
    ("/multidict/", "yarl / multidict"),
    ("/pydantic", "pydantic"),
    ("/aiosqlite/", "aiosqlite"),
    ("/asyncio/", "asyncio"),
    ("/json/", "json"),
    ("copy.py", "copy (deepcopy)"),
)


def part_of(filename: str, function: str) -> str:
    if "poll" in function and "select" in function:
        return "idle in epoll: waiting (for SQLite, mostly)"
    if filename.startswith("<") or filename == "~":
        return "builtins (C: zlib, re, socket, ...)"
    return next((name for marker, name in PARTS if marker in filename), "other Python")


async def profile(searches: list[Interact]) -> None:
    """cProfile the event loop's thread (bot and stand-in both) over `searches`, one at a time.

    SQLite runs on aiosqlite's thread, which this profiler does not see: its time shows as the
    loop waiting (select).
    """
    profiler = cProfile.Profile()
    start = time.perf_counter_ns()
    profiler.enable()
    for call in searches:
        await call()
    profiler.disable()
    wall = ms_since(start)
    stats = pstats.Stats(profiler)
    own: dict[str, float] = defaultdict(float)
    raw: dict[Any, Any] = stats.stats  # type: ignore[attr-defined]
    for (filename, _, function), (_, _, tottime, _, _) in raw.items():
        own[part_of(filename, function)] += tottime
    total = sum(own.values())
    print(f"\n== cProfile of {len(searches)} /paper search, one at a time: {wall:,.0f} ms wall,"
          f" {total * 1e3:,.0f} ms on the loop's thread (profiled) ==")  # fmt: skip
    for name, seconds in sorted(own.items(), key=lambda kv: -kv[1]):
        print(f"  {name:<46} {seconds * 1e3:>8,.0f} ms  {seconds / total:>4.0%}")
    stats.strip_dirs().sort_stats("tottime").print_stats(25)
    stats.sort_stats("cumulative").print_stats(40)


# -- the run -----------------------------------------------------------------------------------
def machine() -> str:
    return (f"{platform.platform()} · Python {platform.python_version()}"
            f" · SQLite {sqlite3.sqlite_version} · {os.cpu_count()} CPUs")  # fmt: skip


def validator(spec: Path | None) -> SpecValidatorProtocol | None:
    if spec is None:
        return None
    from laurel_console.localdiscord.spec import SpecValidator

    return SpecValidator.from_file(spec)


async def measure(
    path: Path, queries: list[Query], args: argparse.Namespace, figures: dict[str, Any]
) -> Rows:
    rows: Rows = []
    async with AsyncExitStack() as stack:
        db = await stack.enter_async_context(
            await open_database(SqliteTarget(path), clock=SystemClock())
        )
        (count,) = await db.fetchone("SELECT count(*) FROM papers") or (0,)
        if count != args.papers:
            print(f"note: the database holds {count:,} papers, not {args.papers:,}")
        size = await asyncio.to_thread(lambda: path.stat().st_size)
        print(f"database: {mib(size)} ({count:,} papers) at {path}")
        config = Config(heartbeat_interval_ms=HOUR_MS, lean=args.spec is None)
        stand = ThreadedStandIn(config=config)
        server = stand.server
        server.rest.validator = validator(args.spec)
        await stack.enter_async_context(stand)
        server.driver.settle = no_settle
        start = time.perf_counter_ns()
        bot = await stack.enter_async_context(
            laurel_on(server, db, ready_timeout=60, clock=SystemClock())
        )
        engine = "FTS5 (no derived index)"
        if bot.search_index is not None:  # a rebuild at start runs in the background: await it
            await bot.search_index.wait_ready()
            engine = f"the derived index (tantivy), ready in {ms_since(start) / 1e3:,.1f} s"
        print(f"search: {engine}")
        bot.tree.add_command(ping_command())
        await bot.tree.sync()  # all of them: a reused database says /paper is synced already
        search, ping = commands(stand)
        await warm_up(db, search, ping)
        if args.profile:
            await profile([search(text) for _, text in queries[: args.profile]])
            return rows
        times, hits, cpu = await latencies(bot, stand, queries, search, ping)
        rows += [("papers", f"{count:,}"), ("database file", mib(size)), ("search", engine)]
        figures["papers"] = count
        rows += report_latencies(times, hits, cpu, figures)
        rows += await throughput(stand, queries, args, figures)
        forget_messages(server)
        after = [(await timed(ping))[0] for _ in range(len(queries))]
        drift = pct(after, 0.5) / pct(times["ping", "all"], 0.5)
        rows.append(("/ping p50 after the load / before", as_ratio(drift)))
        problems = len(server.errors) + len(server.violations) + len(server.unhandled)
        spec = "spec and limits checked" if args.spec else "lean: not checked"
        rows.append((f"stand-in errors + violations ({spec})", str(problems)))
    return rows


async def run(args: argparse.Namespace) -> None:
    print(f"machine: {machine()}")
    raw, queries = synthesize(args.papers, args.queries, args.seed)
    rows: Rows = []
    with tempfile.TemporaryDirectory(prefix="laurel-bench-") as tmp:
        path = args.db or Path(tmp) / "laurel.db"
        if path.exists():
            print(f"reusing {path}: not rebuilt")
        else:
            rows += await build(path, raw)
        del raw
        figures: dict[str, Any] = {}
        rows += await measure(path, queries, args, figures)
    if rows:
        print("\nsummary")
        for label, value in rows:
            print(f"  {label:<44} {value}")
        save(args.json, "interactions", rows, figures)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.interactions", description=__doc__)
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=300)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0, help="of each command")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, help="build the database here, or reuse it")
    parser.add_argument("--spec", type=Path, help="check requests against this OpenAPI spec")
    parser.add_argument("--profile", type=int, metavar="N", help="cProfile N searches only")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if args.papers < 10 or args.queries < len(QUERY_KINDS) or args.concurrency < 1:
        parser.error(f"--papers >= 10, --queries >= {len(QUERY_KINDS)}, --concurrency >= 1")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
