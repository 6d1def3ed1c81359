"""Digest fan-out: `python -m benchmarks.digests [--subs N] [--small S] [--concurrency C]
[--rate R] [--quiet SECONDS] [--no-upstream] [--json PATH]`.

N subscriptions (10,000 by default) are due in the same minute, each in its own channel of
N/25 guilds (a guild holds at most 25). The real LaurelBot (discord.py, SQLite, the ledger,
the renderers) posts them to the lean LocalDiscord stand-in (no spec validation, no request
log), which runs in a process of its own (`ProcessStandIn`): the benchmark's process is the bot
alone, and the stand-in's CPU is measured apart and reported beside the bot's. A fake clock
makes the posts due; nothing waits for the wall-clock minute. In one run, ratios first:

1. unpaced, the stand-in unlimited: posts/s at S (200) and at N channels, as measured and as
   1 / (the bot's CPU a post) (the rate one core would sustain), each as a multiple of
   Discord's global limit of 50 requests/s, and the bot's CPU a post at N over that at S
   (flat if nothing grows with the number of channels);
2. the same N with discord.py's own rate-limit bucket sweep (the "before" of
   bot/http_client.py), unless `--no-upstream`;
3. paced: the stand-in enforcing R requests/s (50, Discord's limit) and the bot pacing itself
   at R: the fan-out time against the theoretical N/R seconds (within 5%), and `/paper search`
   one at a time while it runs, its p99 against the same bot's p99 in the quiet minute before.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import gc
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast
from unittest import mock

from discord.http import HTTPClient

from benchmarks.report import Rows, machine_line, print_rows, save
from benchmarks.standin import ProcessCpu, ProcessStandIn
from bot.app import LaurelBot
from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.dburl import SqliteTarget
from bot.digests import content
from bot.domain.clock import SystemClock
from bot.domain.subscriptions import MAX_SUBSCRIPTIONS_PER_GUILD, Subscription, Theme
from bot.http_client import SWEEP_FLOOR, SweepingHTTPClient
from bot.observability.metrics import Metrics
from bot.settings import DigestSettings, MetricsSettings, Settings
from bot.store.backends import open_database
from bot.store.database import Database
from bot.store.subscriptions import SubscriptionRepository
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from laurel_console.localdiscord.state import Perm

DISCORD_GLOBAL_LIMIT = 50.0
NINE = dt.time(9, 0)
DAY = dt.datetime(2026, 1, 5, tzinfo=dt.UTC)
WORDS = [
    "learning",
    "graph",
    "attention",
    "neural",
    "policy",
    "language",
    "robust",
    "vision",
    "transformer",
    "causal",
]


class DueClock:
    """The wall clock set by hand (it makes the posts due); intervals and waits are real, so
    the fan-out's pacing is measured as it runs. Not the system clock: the harness starts no
    live scheduler beside it."""

    def __init__(self, at: dt.datetime) -> None:
        self.at = at
        self._real = SystemClock()

    def now(self) -> dt.datetime:
        return self.at

    def monotonic(self) -> float:
        return self._real.monotonic()

    async def sleep(self, seconds: float) -> None:
        await self._real.sleep(seconds)


def build_world(server: LocalDiscord, subs: int) -> list[tuple[int, int]]:
    """(guild id, channel id) for each subscription: 25 channels to a guild."""
    world = server.world
    owner = world.add_user("owner")
    places: list[tuple[int, int]] = []
    for g in range(-(-subs // MAX_SUBSCRIPTIONS_PER_GUILD)):
        guild = world.add_guild(f"guild-{g}", owner)
        role = world.add_role(
            guild, world.bot.username, Perm.BOT_DEFAULT, managed=True, bot_id=world.bot.id
        )
        world.add_member(guild, world.bot, role)
        for c in range(min(MAX_SUBSCRIPTIONS_PER_GUILD, subs - len(places))):
            places.append((guild.id, world.add_channel(guild, f"digest-{c}").id))
    return places


async def subscribe(db: Database, places: list[tuple[int, int]], created: dt.datetime) -> None:
    repo = SubscriptionRepository(db)
    for n, (guild_id, channel_id) in enumerate(places):
        theme = Theme.TEST_OF_TIME if n % 4 == 3 else Theme.PAPER_OF_THE_DAY
        sub = Subscription.model_validate(
            {
                "guild_id": guild_id,
                "channel_id": channel_id,
                "theme": theme,
                "time": NINE,
                "timezone": "UTC",
                "created_by": 1,
                "created_at": created,
            }
        )
        await repo.add(sub)


@contextmanager
def bodies_rendered_each_time() -> Iterator[None]:
    """The "before" of the body cache: every post reads and renders its paper again."""
    with mock.patch.object(content, "BODIES_TTL", 0.0):
        yield


class GcTime:
    """CPU the cyclic garbage collector takes on the bot's loop thread, and its collections."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.collections = [0, 0, 0]
        self._began = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.thread_time()
        else:
            self.seconds += time.thread_time() - self._began
            self.collections[info["generation"]] += 1

    def __enter__(self) -> GcTime:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


@contextmanager
def upstream_sweep() -> Iterator[None]:
    """discord.py's own sweep (every bucket, at every new one past 256), counted the same way."""

    def sweep(http: SweepingHTTPClient) -> None:
        http.buckets_created += 1
        if len(http._buckets) >= SWEEP_FLOOR:
            http.sweeps += 1
            http.buckets_scanned += len(http._buckets)
        HTTPClient._try_clear_expired_ratelimits(http)

    with mock.patch.object(SweepingHTTPClient, "_try_clear_expired_ratelimits", sweep):
        yield


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f}/{five:.2f}"


class Searcher:
    """`/paper search` one at a time through the stand-in; milliseconds of each answer, timed
    by the stand-in from the interaction it sends to the answer it gets."""

    def __init__(self, stand: ProcessStandIn) -> None:
        self._stand = stand
        self._n = 0

    async def once(self) -> float:
        text = WORDS[self._n % len(WORDS)]
        self._n += 1
        ms, answered = await self._stand.call("search", text)
        if not answered:
            raise RuntimeError(f"/paper search {text!r} had no answer")
        return float(ms)

    async def many(self, count: int) -> list[float]:
        return [await self.once() for _ in range(count)]

    async def for_seconds(self, seconds: float) -> list[float]:
        end = time.perf_counter() + seconds
        times = []
        while time.perf_counter() < end:
            times.append(await self.once())
        return times

    async def until(self, done: asyncio.Task[Any]) -> list[float]:
        times = []
        while not done.done():
            times.append(await self.once())
        return times

    async def forget(self) -> None:
        await self._stand.call("forget")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


async def fan_out(
    stand: ProcessStandIn,
    db: Database,
    settings: DigestSettings,
    due: dt.datetime,
    *,
    quiet: float = 0,
) -> dict[str, Any]:
    """Make everything due at `due` and post it; with `quiet` seconds, `/paper search` one at
    a time for that long first, then for as long as the fan-out runs (on a shared machine a
    longer window meets more of the other work's spikes: compare windows of similar length)."""
    clock = DueClock(due - dt.timedelta(seconds=30))
    before = await stand.call("posts")
    result: dict[str, Any] = {"load_before": load()}
    # laurel_on reads only the stand-in's addresses and token, which the child's proxy has.
    server = cast(LocalDiscord, stand)
    # Metrics on: the posts are counted there (off, the default, nothing is counted).
    on = Settings(digests=settings, metrics=MetricsSettings(enabled=True))
    async with laurel_on(server, db, on, clock=clock) as bot:
        engine = bot.digest_engine
        await engine.run_due()  # builds the schedule: nothing is due yet
        searcher = Searcher(stand)
        if quiet:
            await stand.call("quick_interactions")
            await searcher.many(20)  # warm-up
            await searcher.forget()
            result["quiet_ms"] = await searcher.for_seconds(quiet)
            await searcher.forget()
        clock.at = due
        pacer = bot.delivery  # the deliverer the engine was built with
        paced = pacer.pacer.lost
        http = bot.http
        assert isinstance(http, SweepingHTTPClient)
        swept = (http.sweeps, http.buckets_scanned, http.buckets_created)
        writes = engine.ledger.writes
        batched = (writes.transactions, writes.writes)
        posted_before = posted(bot.metrics)
        cpu = await ProcessCpu.start(stand)
        start = time.perf_counter()

        with GcTime() as collected:
            running = asyncio.create_task(engine.run_due())
            if quiet:
                result["loaded_ms"] = await searcher.until(running)
            await running
            result["seconds"] = time.perf_counter() - start
        result["gc_s"], result["gc_collections"] = collected.seconds, collected.collections
        await cpu.stop()
        result |= {"cpu_s": cpu.total, "bot_cpu_s": cpu.bot, "stand_in_cpu_s": cpu.stand_in}
        result["posted"] = posted(bot.metrics) - posted_before
        result["pending"] = await engine.ledger.pending_count()
        result["sweeps"] = http.sweeps - swept[0]
        result["buckets_scanned"] = http.buckets_scanned - swept[1]
        result["buckets_created"] = http.buckets_created - swept[2]
        result["transactions"] = writes.transactions - batched[0]
        result["ledger_writes"] = writes.writes - batched[1]
        result["pacer_lost_s"] = pacer.pacer.lost - paced
        result["rss_mib"] = rss_mib()
        check_bot(bot)
    after = await stand.call("posts")
    result["statuses"] = {str(k): n - before.get(k, 0) for k, n in after.items()
                          if n - before.get(k, 0)}  # fmt: skip
    result["per_s"] = result["posted"] / result["seconds"]
    result["load_after"] = load()
    if result["pending"]:
        print(f"  warning: {result['pending']} posts left pending")
    return result


def posted(metrics: Metrics) -> int:
    """Digests posted so far, every theme, as Prometheus counts them."""
    return int(sum(metrics.value("laurel_digests_posted_total", theme=t.value) for t in Theme))


def check_bot(bot: LaurelBot) -> None:
    if not bot.is_ready():
        raise RuntimeError("the bot lost its gateway during the fan-out")


def rss_mib() -> float:
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def per_post_ms(run: dict[str, Any], key: str) -> float:
    return float(run[key]) / max(int(run["posted"]), 1) * 1e3


def one_core(run: dict[str, Any]) -> float:
    """Posts/s one core would sustain at the bot's measured CPU a post."""
    return 1e3 / per_post_ms(run, "bot_cpu_s")


def describe(label: str, run: dict[str, Any]) -> None:
    print(f"\n{label}: {run['posted']:,} posts in {run['seconds']:.1f} s = "
          f"{run['per_s']:,.0f} posts/s; statuses {run['statuses']}; load {run['load_before']}"
          f" -> {run['load_after']}")  # fmt: skip
    print(f"   CPU a post: bot {per_post_ms(run, 'bot_cpu_s'):.2f} ms (one core: "
          f"{one_core(run):,.0f} posts/s), stand-in {per_post_ms(run, 'stand_in_cpu_s'):.2f} ms;"
          f" bot {run['bot_cpu_s'] / run['seconds']:.0%} of one core, stand-in "
          f"{run['stand_in_cpu_s'] / run['seconds']:.0%}")  # fmt: skip
    print(f"   pacer: {run['pacer_lost_s']:.2f} s of schedule lost to stalls; "
          f"GC {run['gc_s']:.2f} s "
          f"({per_post_ms(run, 'gc_s'):.3f} ms a post), collections "
          f"{run['gc_collections']}")  # fmt: skip
    print(f"   bucket sweeps {run['sweeps']}, buckets scanned a new bucket "
          f"{run['buckets_scanned'] / max(run['buckets_created'], 1):.1f}; ledger writes a "
          f"transaction {run['ledger_writes'] / max(run['transactions'], 1):.1f}")  # fmt: skip


async def world(template: Path, folder: Path, subs: int) -> tuple[ProcessStandIn, Database]:
    path = folder / f"laurel-{subs}.db"
    shutil.copyfile(template, path)
    stand = await ProcessStandIn(("benchmarks.digests", "build_world"), subs).start()
    places = [(int(g), int(c)) for g, c in stand.made]
    db = await open_database(SqliteTarget(path), clock=SystemClock())
    start = time.perf_counter()
    await subscribe(db, places, DAY)
    print(f"{subs:,} subscriptions in {-(-subs // 25):,} guilds "
          f"({time.perf_counter() - start:.1f} s to store)")  # fmt: skip
    return stand, db


async def run(args: argparse.Namespace) -> None:
    print(f"machine: {machine_line()}; load average {load()}")
    logging.basicConfig(level=logging.ERROR)
    free = DigestSettings(requests_per_second=None, fan_out_concurrency=args.concurrency)
    paced = DigestSettings(requests_per_second=args.rate, fan_out_concurrency=args.concurrency)
    due = dt.datetime.combine(DAY.date(), NINE, dt.UTC)
    runs: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        template = folder / "template.db"
        async with await open_database(SqliteTarget(template), clock=SystemClock()) as made:
            await load_bundled_into(CatalogParts.over(made, SystemClock()))
        stand, db = await world(template, folder, args.small)
        try:
            # The process's first fan-out pays its first-time costs (lazy imports, caches):
            # a warm-up, so that 1a and 1b differ only in the number of channels.
            describe("warm-up", await fan_out(stand, db, free, due - dt.timedelta(days=1)))
            runs["small"] = await fan_out(stand, db, free, due)
            describe(f"1a. {args.small:,} channels, unpaced", runs["small"])
        finally:
            await stand.stop()
            await db.close()
        stand, db = await world(template, folder, args.subs)
        try:
            runs["unlimited"] = await fan_out(stand, db, free, due)
            describe(f"1b. {args.subs:,} channels, unpaced", runs["unlimited"])
            with bodies_rendered_each_time():
                runs["uncached"] = await fan_out(stand, db, free, due + dt.timedelta(days=1))
            describe(f"1c. {args.subs:,} channels, each body rendered anew", runs["uncached"])
            day = 2
            if args.upstream:
                with upstream_sweep():
                    runs["upstream"] = await fan_out(stand, db, free, due + dt.timedelta(days=2))
                describe(f"2. {args.subs:,} channels, discord.py's own sweep", runs["upstream"])
                day = 3
            await stand.call("limit_rate", args.rate)
            runs["limited"] = await fan_out(
                stand, db, paced, due + dt.timedelta(days=day), quiet=args.quiet
            )
            describe(f"3. paced at {args.rate:g}/s, stand-in enforcing it", runs["limited"])
        finally:
            await stand.stop()
            await db.close()
    rows, figures = summarise(args, runs)
    print_rows(rows)
    save(args.json, "digests", rows, figures)


def summarise(
    args: argparse.Namespace, runs: dict[str, dict[str, Any]]
) -> tuple[Rows, dict[str, Any]]:
    small, big, limited = runs["small"], runs["unlimited"], runs["limited"]
    theory = args.subs / args.rate
    ratio = limited["seconds"] / theory
    verdict = "within 5%" if abs(ratio - 1) <= 0.05 else "NOT within 5%"
    flat = per_post_ms(big, "bot_cpu_s") / per_post_ms(small, "bot_cpu_s")
    quiet, loaded = limited["quiet_ms"], limited["loaded_ms"]
    rows: Rows = [
        ("subscriptions due in the same minute", f"{args.subs:,} (and {args.small:,})"),
        (f"1. unpaced, {args.concurrency} in flight: posts/s at {args.subs:,} channels",
         f"{big['per_s']:,.0f} ({big['seconds']:.1f} s) = "
         f"{big['per_s'] / DISCORD_GLOBAL_LIMIT:.1f}x Discord's {DISCORD_GLOBAL_LIMIT:g}/s"),
        (f"   as 1 / bot CPU a post (one core, the stand-in apart) at {args.subs:,}",
         f"{one_core(big):,.0f} = {one_core(big) / DISCORD_GLOBAL_LIMIT:.1f}x"),
        (f"posts/s at {args.small:,} channels, measured / one core",
         f"{small['per_s']:,.0f} / {one_core(small):,.0f}"),
        (f"bot CPU a post at {args.subs:,} / at {args.small:,} channels",
         f"{per_post_ms(big, 'bot_cpu_s'):.2f} / {per_post_ms(small, 'bot_cpu_s'):.2f} ms"
         f" = {flat:.2f}x"),
        ("stand-in (lean, its own process) CPU a post, beside it",
         f"{per_post_ms(big, 'stand_in_cpu_s'):.2f} / {per_post_ms(small, 'stand_in_cpu_s'):.2f}"
         f" ms ({per_post_ms(big, 'stand_in_cpu_s') / per_post_ms(big, 'cpu_s'):.0%} of both"
         f" at {args.subs:,})"),
        (f"share of one core at {args.subs:,}: bot / stand-in",
         f"{big['bot_cpu_s'] / big['seconds']:.0%} / {big['stand_in_cpu_s'] / big['seconds']:.0%}"),
        (f"bot CPU a post at {args.subs:,}, each body rendered anew (the before) / cached",
         f"{per_post_ms(runs['uncached'], 'bot_cpu_s'):.2f} / {per_post_ms(big, 'bot_cpu_s'):.2f}"
         f" ms = {per_post_ms(big, 'bot_cpu_s') / per_post_ms(runs['uncached'], 'bot_cpu_s'):.2f}x;"
         f" posts/s {runs['uncached']['per_s']:,.0f} / {big['per_s']:,.0f}"),
        (f"GC on the bot's loop a post at {args.subs:,} / {args.small:,}",
         f"{per_post_ms(big, 'gc_s'):.3f} / {per_post_ms(small, 'gc_s'):.3f} ms;"
         f" full collections {big['gc_collections'][2]} / {small['gc_collections'][2]}"),
        ("buckets scanned a new bucket (discord.py's sweep)",
         f"{big['buckets_scanned'] / max(big['buckets_created'], 1):.1f}"),
        ("ledger writes a transaction (group commit)",
         f"{big['ledger_writes'] / max(big['transactions'], 1):.1f}"),
    ]  # fmt: skip
    if "upstream" in runs:
        up = runs["upstream"]
        rows += [
            (f"2. discord.py's own sweep, {args.subs:,} channels: posts/s",
             f"{up['per_s']:,.0f}; bot CPU a post {per_post_ms(up, 'bot_cpu_s'):.2f} ms"
             f" ({per_post_ms(up, 'bot_cpu_s') / per_post_ms(big, 'bot_cpu_s'):.2f}x ours);"
             f" buckets scanned a new bucket"
             f" {up['buckets_scanned'] / max(up['buckets_created'], 1):,.0f}"),
        ]  # fmt: skip
    rows += [
        (f"3. paced at {args.rate:g}/s: fan-out time / theoretical N/R",
         f"{limited['seconds']:.1f} s / {theory:.1f} s = {ratio:.3f}x ({verdict})"),
        ("   the pacer's own account: schedule lost to stalls (never made up)",
         f"{limited['pacer_lost_s']:.2f} s"),
        ("/paper search p50 / p99 during it / quiet",
         f"{pct(loaded, 0.5):.1f} / {pct(loaded, 0.99):.1f} ms vs {pct(quiet, 0.5):.1f} /"
         f" {pct(quiet, 0.99):.1f} ms: p99 {pct(loaded, 0.99) / pct(quiet, 0.99):.2f}x"
         f" ({len(loaded):,} and {len(quiet):,} searches)"),
        ("429s answered while limited", f"{limited['statuses'].get('429', 0):,}"),
        ("posts missing (1b, 3)",
         f"{args.subs - big['posted']}, {args.subs - limited['posted']}"),
        ("load average (1 / 5 min) before -> after, 1b and 3",
         f"{big['load_before']} -> {big['load_after']}; "
         f"{limited['load_before']} -> {limited['load_after']}"),
    ]  # fmt: skip
    figures = {
        "subscriptions": args.subs,
        "small": args.small,
        "concurrency": args.concurrency,
        "rate_limit": args.rate,
        "unlimited": big,
        "small_run": small,
        "upstream": runs.get("upstream"),
        "uncached": runs["uncached"],
        "limited": limited | {"theoretical_s": theory},
    }
    return rows, figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.digests", description=__doc__)
    parser.add_argument("--subs", type=int, default=10_000, help="subscriptions due at once")
    parser.add_argument("--small", type=int, default=200, help="the small fan-out, channels")
    parser.add_argument("--concurrency", type=int, default=50, help="posts in flight")
    parser.add_argument("--rate", type=float, default=DISCORD_GLOBAL_LIMIT, help="limit, req/s")
    parser.add_argument(
        "--quiet", type=float, default=60.0, help="seconds of /paper search before run 3"
    )
    parser.add_argument("--no-upstream", dest="upstream", action="store_false",
                        help="skip the run with discord.py's own bucket sweep")  # fmt: skip
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if args.subs < 1 or args.small < 1:
        parser.error("--subs and --small must be at least 1")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
