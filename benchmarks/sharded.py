"""Laurel sharded across processes at the issue's scale: `python -m benchmarks.sharded
[--backend sqlite|postgresql|both] [--guilds 400] [--per-guild 5] [--rate 50]
[--interactions 400] [--in-flight 8] [--only NAME ...] [--json PATH]`.

`laurel run` processes of one bot (shards 0-1 and 2-3 of 4) on one database against the
stand-in (`python -m laurel_console.localdiscord`, 400 guilds spread over 4 shards), each a
process of its own; every scenario on a fresh database and a fresh stand-in, the 2,000 digests
(5 in each guild) due in the minute the scenario starts, on the wall clock:

- once:  both processes post them, paced at --rate (the deployment's one rate, which the
         stand-in enforces as Discord would, answering 429 above it): every ledger row's nonce
         in Discord exactly once, none skipped; the fan-out's time against N / rate and the
         busiest second's POSTs (as the stand-in received them) against the rate;
- kill:  the same, shards 0-1 SIGKILLed once a quarter of its digests are out and started
         again: still exactly once, none skipped;
- moved: both SIGKILLed a third of the way through, then shards regrouped (0,2 and 1,3):
         the new owners settle what the old ones left pending: still exactly once;
- fan-out throughput unpaced, 1 process (shards 0-3) vs 2: posts/s and the CPU a post of the
  bots and of the stand-in (read from /proc: the stand-in's cost beside the bots');
- interaction throughput, 1 process vs 2: `/paper search` through the stand-in's control API,
  --in-flight at a time; each must be answered exactly once (one callback each).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from benchmarks.fleet import (
    CALLBACK,
    Fleet,
    Store,
    all_sent,
    exactly_once,
    ledger,
    sent_of,
    stand_in,
    store_for,
    subscribe,
)
from benchmarks.report import Rows, machine_line, print_rows, save
from bot.domain.shards import Shards
from bot.store.database import Database

COUNT = 4
TWO = ("0-1", "2-3")
ONE = ("0-3",)
UNPACED = 1_000_000.0  # requests/s: no pacing to speak of
Notes = dict[str, Any]
Body = Callable[[Fleet, Database, dict[int, int], Notes], Awaitable[None]]
WORDS = ["learning", "graph", "attention", "neural", "policy", "language", "robust", "vision"]


def load() -> str:
    one, five, _ = os.getloadavg()
    return f"{one:.2f}/{five:.2f}"


def busiest(at: list[float], seconds: float = 1.0) -> int:
    """The most requests in any window of `seconds` (one starting at each request)."""
    at = sorted(at)
    ends = iter(range(len(at) + 1))
    most, end = 0, next(ends)
    for i, start in enumerate(at):
        while end < len(at) and at[end] < start + seconds:
            end = next(ends)
        most = max(most, end - i)
    return most


async def until(condition: Callable[[], Awaitable[Any]], what: str, grace: float) -> Any:
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        value = await condition()
        if value:
            return value
        await asyncio.sleep(0.25)
    raise TimeoutError(f"timed out waiting for {what}")


class Scenario:
    """A fresh stand-in and database, the digests subscribed, the processes started by `run`."""

    def __init__(self, args: argparse.Namespace, store: Store, folder: Path) -> None:
        self.args, self.store, self.folder = args, store, folder

    async def __call__(self, rate: float, body: Body) -> dict[str, Any]:
        args = self.args
        self.store.fresh()
        async with stand_in(args.guilds, COUNT) as stand:
            guilds = await stand.spread()
            async with await self.store.open() as db:
                subs = await subscribe(db, guilds, args.per_guild)
                if rate != UNPACED:  # Discord's global limit, enforced on the whole bot
                    await stand.post("faults", {"kind": "limit_rate", "rate": rate})
                fleet = Fleet(stand, self.store, COUNT, self.folder,
                              {"LAUREL_DIGESTS__REQUESTS_PER_SECOND": str(rate)})  # fmt: skip
                notes: Notes = {"load_before": load()}
                try:
                    await body(fleet, db, subs, notes)
                    await until(lambda: all_sent(db, subs), "every digest marked sent", 600)
                finally:
                    bots_cpu, stand_cpu = fleet.bots_cpu(), stand.cpu()
                    server_cpu = self.store.server_cpu()
                    fleet.stop()
                result = await exactly_once(stand, db, subs, guilds)
            posts = await stand.posts()
            at = [p["at"] for p in posts]
            result |= notes | {
                "subscriptions": len(subs),
                "posts": len(posts),
                "statuses": dict(Counter(str(p["status"]) for p in posts)),
                "seconds": max(at) - min(at),
                "busiest_second": busiest(at),
                # Over 5 s a stall's bunching (a loaded machine delays some requests and
                # not others) averages out; a rate per process instead of per bot would not.
                "busiest_5s_per_s": busiest(at, 5.0) / 5.0,
                # From the first moment every shard was connected (a start's own work apart):
                "bots_cpu_s": bots_cpu - fleet.baseline[0],
                "stand_in_cpu_s": stand_cpu - fleet.baseline[1],
                "db_server_cpu_s": server_cpu - fleet.server_baseline,
                "posts_after_ready": len(posts) - fleet.baseline[2],
                "load": f"{notes.pop('load_before')} -> {load()}",
                "errors": fleet.errors(),
            }
        return result


def owned(subs: dict[int, int], shards: str) -> set[int]:
    mine = Shards.of(shards, COUNT)
    assert mine is not None
    return {sub for sub, guild in subs.items() if mine.owns(guild)}


async def start(fleet: Fleet, groups: tuple[str, ...]) -> None:
    for shards in groups:
        fleet.start(shards)
    await fleet.ready()


async def once(fleet: Fleet, db: Database, subs: dict[int, int], notes: Notes) -> None:
    await start(fleet, TWO)


async def one_process(fleet: Fleet, db: Database, subs: dict[int, int], notes: Notes) -> None:
    await start(fleet, ONE)


async def kill(fleet: Fleet, db: Database, subs: dict[int, int], notes: Notes) -> None:
    low = owned(subs, "0-1")
    await start(fleet, TWO)
    await until(lambda: _at_least(db, low, len(low) // 4), "a quarter of 0-1's digests", 300)
    fleet.kill("0-1")
    notes["killed_at"], notes["its_share"] = await sent_of(db, low), len(low)
    await start(fleet, ("0-1",))


async def moved(fleet: Fleet, db: Database, subs: dict[int, int], notes: Notes) -> None:
    everyone = set(subs)
    await start(fleet, TWO)
    await until(lambda: _at_least(db, everyone, len(subs) // 3), "a third of the digests", 300)
    for shards in TWO:
        fleet.kill(shards)
    rows = await ledger(db)
    notes["stopped_at"] = sum(1 for _, st in rows.values() if st == "sent")
    notes["left_pending"] = sum(1 for _, st in rows.values() if st == "pending")
    await start(fleet, ("0,2", "1,3"))


async def _at_least(db: Database, among: set[int], n: int) -> bool:
    return await sent_of(db, among) >= n


async def interactions(
    args: argparse.Namespace, store: Store, folder: Path, groups: tuple[str, ...]
) -> dict[str, Any]:
    """`/paper search` through the control API, `--in-flight` at a time, over every guild."""
    store.fresh()
    async with stand_in(args.guilds, COUNT) as stand:
        guilds = itertools.cycle(await stand.spread())
        fleet = Fleet(stand, store, COUNT, folder)
        try:
            await start(fleet, groups)
            words = itertools.cycle(WORDS)

            async def ask() -> bool:
                body = {"name": "paper", "subcommand": "search", "options":
                        {"query": next(words)}, "guild_id": next(guilds)["id"], "wait": True,
                        "timeout": 60}  # fmt: skip
                answer = await stand.post("interactions", body)
                return bool(answer.get("acknowledged"))

            await asyncio.gather(*(ask() for _ in range(20)))  # warm-up
            cpu = (fleet.bots_cpu(), stand.cpu(), time.process_time(), load())
            server_cpu = store.server_cpu()
            began = time.perf_counter()
            queue = asyncio.Queue[None]()
            for _ in range(args.interactions):
                queue.put_nowait(None)
            answered = 0

            async def worker() -> None:
                nonlocal answered
                while not queue.empty():
                    queue.get_nowait()
                    ok = await ask()  # (`answered += await ask()` reads it before the wait)
                    answered += ok

            await asyncio.gather(*(worker() for _ in range(args.in_flight)))
            seconds = time.perf_counter() - began
            used = (fleet.bots_cpu() - cpu[0], stand.cpu() - cpu[1], time.process_time() - cpu[2])
            server_cpu = store.server_cpu() - server_cpu
        finally:
            fleet.stop()
        answers = (await stand.get("requests", route=CALLBACK))["requests"]
        callbacks = Counter(r["path"].split("/interactions/")[1].split("/")[0] for r in answers)
    return {
        "asked": args.interactions,
        "answered": answered,
        "answered_twice": sum(1 for n in callbacks.values() if n > 1),
        "seconds": seconds,
        "per_s": args.interactions / seconds,
        "bots_cpu_s": used[0],
        "stand_in_cpu_s": used[1],
        "driver_cpu_s": used[2],
        "db_server_cpu_s": server_cpu,
        "load": f"{cpu[3]} -> {load()}",
        "errors": fleet.errors(),
    }


async def one_backend(args: argparse.Namespace, dialect: str) -> dict[str, dict[str, Any]]:
    runs: dict[str, dict[str, Any]] = {}
    with store_for(dialect) as store:
        logs = store.folder
        scenario = Scenario(args, store, logs)
        plan: dict[str, Callable[[], Awaitable[dict[str, Any]]]] = {
            "once": lambda: scenario(args.rate, once),
            "kill": lambda: scenario(args.rate, kill),
            "moved": lambda: scenario(args.rate, moved),
            "fan_out_1": lambda: scenario(UNPACED, one_process),
            "fan_out_2": lambda: scenario(UNPACED, once),
            "interactions_1": lambda: interactions(args, store, logs, ONE),
            "interactions_2": lambda: interactions(args, store, logs, TWO),
        }
        for name, run in plan.items():
            if args.only and name not in args.only:
                continue
            print(f"{dialect} {name} ...", flush=True)
            runs[name] = await run()
            print(f"  {runs[name]}", flush=True)
    return runs


def a_post(run: dict[str, Any], key: str) -> float:
    """Milliseconds of `key` (CPU seconds) per digest or interaction after the start."""
    return float(run[key]) / max(int(run.get("posts_after_ready", run.get("asked", 1))), 1) * 1e3


def once_rows(dialect: str, rate: float, runs: dict[str, dict[str, Any]]) -> Rows:
    rows: Rows = []
    for name, what in (("once", "2 processes"), ("kill", "0-1 SIGKILLed, restarted"),
                       ("moved", "both SIGKILLed, shards regrouped 0,2 / 1,3")):  # fmt: skip
        if name not in runs:
            continue
        run = runs[name]
        n = run["subscriptions"]
        how = ""
        if name == "kill":
            how = f" (killed after {run['killed_at']} of its {run['its_share']})"
        if name == "moved":
            how = f" (stopped at {run['stopped_at']}, {run['left_pending']} left pending)"
        rows.append((
            f"{dialect} {name}: {n:,} due, {what}",
            f"duplicates {run['duplicates']}, skipped {run['skipped']}, strangers "
            f"{run['strangers']}; {run['posts']:,} POSTs {run['statuses']}{how}",
        ))  # fmt: skip
        rows.append((
            f"   fan-out time / N/rate; busiest 1 s, 5 s (per s) / rate {rate:g}",
            f"{run['seconds']:.1f} / {n / rate:.1f} s = {run['seconds'] / (n / rate):.2f}x; "
            f"{run['busiest_second']}, {run['busiest_5s_per_s']:.1f} / {rate:g} = "
            f"{run['busiest_second'] / rate:.2f}x, {run['busiest_5s_per_s'] / rate:.2f}x",
        ))  # fmt: skip
        rows.append((
            "   CPU a digest after the start: bots / stand-in / db server",
            f"{a_post(run, 'bots_cpu_s'):.2f} / {a_post(run, 'stand_in_cpu_s'):.2f} / "
            f"{a_post(run, 'db_server_cpu_s'):.2f} ms; "
            f"load {run['load']}; errors logged {len(run['errors'])}",
        ))  # fmt: skip
    return rows


def busy(run: dict[str, Any]) -> float:
    """Cores the bots, the stand-in and the database server kept busy while it ran."""
    used = run["bots_cpu_s"] + run["stand_in_cpu_s"] + run.get("db_server_cpu_s", 0.0)
    return float(used) / float(run["seconds"])


def per_second(run: dict[str, Any]) -> float:
    return float(run["per_s"] if "per_s" in run else run["subscriptions"] / run["seconds"])


def ceiling(run: dict[str, Any], processes: int) -> float:
    """What two idle cores would sustain at the CPU measured each (ms): everything (bots,
    stand-in, driver, database server) shares the two cores, and one bot process uses one core
    at most (its loop), so with one the bot's own cost can set the pace first."""
    bot = a_post(run, "bots_cpu_s")
    rest = sum(a_post(run, key) for key in ("stand_in_cpu_s", "driver_cpu_s", "db_server_cpu_s")
               if key in run)  # fmt: skip
    both = 2e3 / (bot + rest)
    return min(1e3 / bot, both) if processes == 1 else both


def throughput_rows(dialect: str, runs: dict[str, dict[str, Any]]) -> Rows:
    rows: Rows = []
    for kind, unit in (("fan_out", "posts/s unpaced"), ("interactions", "/paper search/s")):
        one, two = runs.get(f"{kind}_1"), runs.get(f"{kind}_2")
        if one is None or two is None:
            continue
        rows.append((
            f"{dialect} {unit}: 2 processes / 1",
            f"{per_second(two):,.0f} / {per_second(one):,.0f} = "
            f"{per_second(two) / per_second(one):.2f}x",
        ))  # fmt: skip
        rows.append((
            "   CPU-bound ceiling on 2 idle cores: 2 / 1",
            f"{ceiling(two, 2):,.0f} / {ceiling(one, 1):,.0f} = "
            f"{ceiling(two, 2) / ceiling(one, 1):.2f}x",
        ))  # fmt: skip
        for label, run in (("1", one), ("2", two)):
            extra = f" / {a_post(run, 'driver_cpu_s'):.2f}" if "driver_cpu_s" in run else ""
            twice = run.get("answered_twice", run.get("duplicates"))
            rows.append((
                f"   {label} process(es): CPU each: bots / stand-in / db server"
                f"{extra and ' / driver'}",
                f"{a_post(run, 'bots_cpu_s'):.2f} / {a_post(run, 'stand_in_cpu_s'):.2f} / "
                f"{a_post(run, 'db_server_cpu_s'):.2f}{extra} ms; cores busy {busy(run):.2f}"
                f"; twice {twice}; load {run['load']}",
            ))  # fmt: skip
    return rows


def wrong(run: dict[str, Any]) -> bool:
    """Anything posted twice, skipped or unexpected; an interaction unanswered or answered twice."""
    doubled = run.get("duplicates") or run.get("answered_twice")
    lost = run.get("skipped") or run.get("strangers")
    return bool(doubled or lost or run.get("answered", 0) != run.get("asked", 0))


async def run(args: argparse.Namespace) -> None:
    print(f"machine: {machine_line()}; load average {load()}", flush=True)
    dialects = ["sqlite", "postgresql"] if args.backend == "both" else [args.backend]
    results = {dialect: await one_backend(args, dialect) for dialect in dialects}
    rows: Rows = []
    for dialect, runs in results.items():
        rows += once_rows(dialect, args.rate, runs) + throughput_rows(dialect, runs)
    print_rows(rows)
    save(args.json, "sharded", rows, results)
    failed = [f"{d} {n}" for d, runs in results.items() for n, r in runs.items() if wrong(r)]
    if failed:
        raise SystemExit(f"not exactly once: {', '.join(failed)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.sharded", description=__doc__)
    parser.add_argument("--backend", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--guilds", type=int, default=400, help="spread over 4 shards")
    parser.add_argument("--per-guild", type=int, default=5, help="digests due in each guild")
    parser.add_argument("--rate", type=float, default=50.0, help="the bot's one rate, req/s")
    parser.add_argument("--interactions", type=int, default=1000, help="/paper search, each run")
    parser.add_argument("--in-flight", type=int, default=32, help="interactions at a time")
    parser.add_argument("--only", nargs="*", default=[], help="these scenarios only")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if args.guilds < 4 or not 1 <= args.per_guild <= 25:
        parser.error("--guilds must be at least 4 and --per-guild 1 to 25")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
