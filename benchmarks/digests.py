"""Digest fan-out: `python -m benchmarks.digests [--subs N] [--concurrency C] [--rate R]
[--json PATH]`.

N subscriptions (10,000 by default) are due in the same minute, each in its own channel of
N/25 guilds (a guild holds at most 25). The real LaurelBot (discord.py, SQLite, the ledger,
the renderers) posts them to the LocalDiscord stand-in in this process; a fake clock makes
them due, nothing waits for the wall-clock minute. Two runs, ratios first:

1. the stand-in unlimited and the bot's own pacing off: the fan-out rate as a multiple of
   Discord's global limit of 50 requests/s (how much headroom the bot has over the limit);
2. the stand-in enforcing R requests/s (50, Discord's limit) and the bot pacing itself at R:
   the fan-out time against the theoretical N/R seconds (the target: within 5%).

The stand-in shares the event loop with the bot, so run 1 measures both together.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import logging
import tempfile
import time
from collections import Counter
from pathlib import Path

from benchmarks.report import Rows, machine_line, print_rows, save
from bot.catalog.bundled import load_bundled_into
from bot.domain.subscriptions import MAX_SUBSCRIPTIONS_PER_GUILD, Subscription, Theme
from bot.localdiscord.config import Config
from bot.localdiscord.harness import laurel_on
from bot.localdiscord.server import LocalDiscord
from bot.localdiscord.state import Perm
from bot.settings import DigestSettings, Settings
from bot.store.database import Database
from bot.store.subscriptions import SubscriptionRepository

DISCORD_GLOBAL_LIMIT = 50.0
POST = "POST /channels/{channel_id}/messages"
HOUR_MS = 3_600_000  # a heartbeat interval that never comes round during a run
NINE = dt.time(9, 0)


class Clock:
    def __init__(self, now: dt.datetime) -> None:
        self.now = now

    def __call__(self) -> dt.datetime:
        return self.now


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


async def fan_out(
    server: LocalDiscord, db: Database, settings: DigestSettings, due: dt.datetime
) -> tuple[float, float, int, Counter[int]]:
    """Make everything due at `due` and post it.

    Returns wall seconds, CPU seconds of this process (bot and stand-in, all threads), posts
    stored and the statuses the stand-in answered.
    """
    clock = Clock(due - dt.timedelta(seconds=30))
    before = len(server.requests)
    async with laurel_on(server, db, Settings(digests=settings), clock=clock) as bot:
        await bot.digests.tick()  # builds the schedule: nothing is due yet
        await bot.digests.drain()
        clock.now = due
        start, cpu = time.perf_counter(), time.process_time()
        await bot.digests.tick()
        await bot.digests.drain()
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
        posted = sum(bot.digests.stats.posted.values())
        pending = await bot.digests.pending_count()
    statuses = Counter(r.status for r in server.requests[before:] if r.route == POST)
    if pending:
        print(f"  warning: {pending} posts left pending")
    return seconds, cpu, posted, statuses


async def run(args: argparse.Namespace) -> None:
    print(f"machine: {machine_line()}")
    logging.basicConfig(level=logging.ERROR)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "laurel.db"
        async with await Database.open(path) as db:
            await load_bundled_into(db)
            server = await LocalDiscord(config=Config(heartbeat_interval_ms=HOUR_MS)).start()
            try:
                places = build_world(server, args.subs)
                day = dt.datetime(2026, 1, 5, tzinfo=dt.UTC)
                start = time.perf_counter()
                await subscribe(db, places, day)
                print(f"{args.subs:,} subscriptions in {len(places) // 25 or 1:,} guilds "
                      f"({time.perf_counter() - start:.1f} s to store)")  # fmt: skip

                free = DigestSettings(
                    requests_per_second=None, fan_out_concurrency=args.concurrency
                )
                due = dt.datetime.combine(day.date(), NINE, dt.UTC)
                seconds, cpu, posted, statuses = await fan_out(server, db, free, due)
                rate = posted / seconds
                print(f"\n1. unlimited stand-in, no pacing, {args.concurrency} in flight:")
                print(f"   {posted:,} posts in {seconds:.1f} s = {rate:,.0f} posts/s; "
                      f"statuses {dict(statuses)}")  # fmt: skip
                print(f"   CPU {cpu / max(posted, 1) * 1e3:.1f} ms a post (bot and stand-in), "
                      f"{cpu / seconds:.0%} of one core")  # fmt: skip

                server.limit_rate(args.rate)
                paced = DigestSettings(
                    requests_per_second=args.rate, fan_out_concurrency=args.concurrency
                )
                limited, _, posted2, statuses2 = await fan_out(
                    server, db, paced, due + dt.timedelta(days=1)
                )
                theory = args.subs / args.rate
                print(f"\n2. stand-in enforcing {args.rate:g}/s, bot pacing at {args.rate:g}/s:")
                print(f"   {posted2:,} posts in {limited:.1f} s; theoretical {theory:.1f} s; "
                      f"statuses {dict(statuses2)}")  # fmt: skip
            finally:
                await server.stop()

    deviation = limited / theory - 1
    verdict = "within 5%" if abs(deviation) <= 0.05 else "NOT within 5%"
    rows: Rows = [
        ("subscriptions due in the same minute", f"{args.subs:,}"),
        (f"1. unlimited, {args.concurrency} in flight: posts/s", f"{rate:,.0f} ({seconds:.1f} s)"),
        (f"fan-out rate / Discord's {DISCORD_GLOBAL_LIMIT:g} req/s limit",
         f"{rate / DISCORD_GLOBAL_LIMIT:.1f}x"),
        ("CPU a post (bot and stand-in), share of one core",
         f"{cpu / max(posted, 1) * 1e3:.1f} ms, {cpu / seconds:.0%}"),
        (f"2. limited to {args.rate:g}/s: fan-out time / theoretical N/R",
         f"{limited:.1f} s / {theory:.1f} s = {limited / theory:.3f}x ({verdict})"),
        ("429s answered while limited", f"{statuses2.get(429, 0):,}"),
        ("posts missing (run 1, run 2)", f"{args.subs - posted}, {args.subs - posted2}"),
    ]  # fmt: skip
    print_rows(rows)
    if cpu / seconds < 0.8:
        print("  note: the process got under 80% of a core in run 1: the machine is busy, and")
        print("  both numbers measure the contention as much as the bot")
    figures = {
        "subscriptions": args.subs,
        "concurrency": args.concurrency,
        "rate_limit": args.rate,
        "unlimited": {"seconds": seconds, "cpu_s": cpu, "posted": posted, "per_s": rate,
                      "statuses": {str(k): v for k, v in statuses.items()}},
        "limited": {"seconds": limited, "theoretical_s": theory, "posted": posted2,
                    "statuses": {str(k): v for k, v in statuses2.items()}},
    }  # fmt: skip
    save(args.json, "digests", rows, figures)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.digests", description=__doc__)
    parser.add_argument("--subs", type=int, default=10_000, help="subscriptions due at once")
    parser.add_argument("--concurrency", type=int, default=50, help="posts in flight")
    parser.add_argument("--rate", type=float, default=DISCORD_GLOBAL_LIMIT, help="limit, req/s")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    if args.subs < 1:
        parser.error("--subs must be at least 1")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
