"""Two `laurel run` shard processes (shards 0-1 and 2-3 of 4) on one database (a SQLite file;
a PostgreSQL database) against one stand-in process with 4 shards and 200 guilds; one is killed
with SIGKILL mid-fan-out and started again (issue 15, "Shows"). Every digest is in Discord
exactly once after, none skipped, and the two processes together never sent faster than the
bot's one rate.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import subprocess
import sys
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from bot.domain.shards import shard_of
from bot.domain.subscriptions import Subscription, Theme
from bot.render.digest_posts import marker_in
from bot.store.subscriptions import SubscriptionRepository
from tests.support.processes import Stand, bot_env, control, kill, run_bot, until
from tests.support.shared_store import SharedStore, shared_store

__all__ = ["shared_store"]  # fixtures: the test on both backends

COUNT = 4
GUILDS = 200  # fifty on each shard; two digests each: 400 due in the same minute
RATE = 80.0  # the bot's one rate: 40/s for each process
POST = "POST /channels/{channel_id}/messages"


@contextmanager
def sharded_stand_in() -> Iterator[Stand]:
    """`python -m laurel_console.localdiscord` with 4 recommended shards and 200 spread guilds."""
    argv = [sys.executable, "-m", "laurel_console.localdiscord", "--port", "0"]
    argv += ["--guilds", str(GUILDS), "--shards", str(COUNT), "--max-concurrency", str(COUNT)]
    with subprocess.Popen(argv, stdout=subprocess.PIPE, text=True) as process:
        try:
            assert process.stdout is not None
            lines = dict(process.stdout.readline().split(maxsplit=1) for _ in range(4))
            yield Stand(lines["control"].strip(), lines["REST"].strip(), lines["token"].strip())
        finally:
            process.terminate()


def subscribe(store: SharedStore, world: dict[str, Any]) -> dict[int, int]:
    """Two digests in each spread guild's #general, due this minute: sub id -> its shard."""
    minute = dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)

    async def add() -> dict[int, int]:
        made = {}
        async with await store.open() as db:
            repository = SubscriptionRepository(db)
            for guild in spread(world):
                general = [c for c in guild["channels"] if c["name"] == "general"]
                for theme in (Theme.PAPER_OF_THE_DAY, Theme.TEST_OF_TIME):
                    sub = {
                        "guild_id": int(guild["id"]),
                        "channel_id": int(general[0]["id"]),
                        "theme": theme,
                        "time": minute.time(),
                        "timezone": "UTC",
                        "created_by": 1,
                        "created_at": minute - dt.timedelta(minutes=10),
                    }
                    added = await repository.add(Subscription.model_validate(sub))
                    assert added.id is not None
                    made[added.id] = shard_of(added.guild_id, COUNT)
        return made

    return asyncio.run(add())


def spread(world: dict[str, Any]) -> list[dict[str, Any]]:
    """The guilds `--guilds` added ("Guild 0".."Guild 199"), not the stand-in's own."""
    return [g for g in world["guilds"] if re.fullmatch(r"Guild \d+", g["name"])]


def start(stand: Stand, store: SharedStore, shards: str) -> subprocess.Popen[str]:
    env = bot_env(
        stand,
        store.path,
        **store.env(),
        LAUREL_BACKUPS__ENABLED="false",
        LAUREL_DIGESTS__TICK_SECONDS="1",
        LAUREL_DIGESTS__RETRY_BASE_SECONDS="0.1",
        LAUREL_DIGESTS__REQUESTS_PER_SECOND=str(RATE),
        LAUREL_DISCORD__SHARD_IDS=shards,
        LAUREL_DISCORD__SHARD_COUNT=str(COUNT),
    )
    return run_bot(env, stderr=subprocess.DEVNULL)


def posts(stand: Stand) -> list[dict[str, Any]]:
    query = urllib.parse.urlencode({"route": POST})
    return list(control(f"{stand.control}requests?{query}")["requests"])


def markers(stand: Stand, world: dict[str, Any]) -> Counter[str]:
    """The ledger marker of every digest message the stand-in stored, counted."""
    found: Counter[str] = Counter()
    for guild in world["guilds"]:
        for channel in guild["channels"]:
            query = urllib.parse.urlencode({"channel_id": channel["id"]})
            for message in control(f"{stand.control}messages?{query}")["messages"]:
                footers = [e.get("footer", {}).get("text", "") for e in message.get("embeds", [])]
                found.update([m for f in footers if (m := marker_in(f))][-1:])
    return found


def busiest_second(at: list[float]) -> int:
    at = sorted(at)
    return max((sum(1 for t in at[i:] if t < start + 1.0) for i, start in enumerate(at)), default=0)


@pytest.mark.fault("digest fan-out, 2 shard processes (SIGKILL)", "one killed, restarted")
def test_a_shard_process_killed_mid_fan_out_and_restarted_posts_each_digest_once(
    shared_store: SharedStore, checked: Callable[[str], None]
) -> None:
    with sharded_stand_in() as stand:
        world = control(f"{stand.control}world")
        assert len(spread(world)) == GUILDS
        subs = subscribe(shared_store, world)
        low_subs = {s for s, shard in subs.items() if shard < 2}
        assert len(low_subs) == len(subs) // 2 == GUILDS
        began = time.monotonic()
        low, high = start(stand, shared_store, "0-1"), start(stand, shared_store, "2-3")
        try:
            # Killed once a quarter of its digests are out: the rest are due, reserved or in
            # flight at the moment of the kill.
            def low_sent() -> int:
                rows = shared_store.ledger()
                return sum(1 for s in low_subs if rows.get(s, ("", ""))[1] == "sent")

            until(lambda: low_sent() >= len(low_subs) // 4, "a quarter of 0-1's digests sent")
            kill(low)
            at_kill = low_sent()
            assert at_kill < len(low_subs)  # killed mid-fan-out, not after it
            low = start(stand, shared_store, "0-1")
            until(
                lambda: (
                    Counter(s for _, s in shared_store.ledger().values()) == {"sent": len(subs)}
                ),
                "every digest marked sent",
                grace=120,
            )
            took = time.monotonic() - began
        finally:
            for process in (low, high):
                if process.poll() is None:
                    kill(process)
        found = markers(stand, world)
        sent = posts(stand)

    rows = shared_store.ledger()
    assert set(rows) == set(subs)  # none skipped
    assert sum(found.values()) == len(subs)  # nothing else, nothing twice
    assert set(found) == {nonce for nonce, _ in rows.values()}
    assert set(found.values()) == {1}
    busiest = busiest_second([r["at"] for r in sent])
    assert busiest <= RATE * 1.1 + 2  # one rate between the two processes, as Discord counts
    checked(
        f"{shared_store.dialect}: {len(subs)} digests, 2 processes, 0-1 SIGKILLed after "
        f"{at_kill} of its {len(low_subs)} and restarted: {took:.1f} s, {len(sent)} POSTs, "
        f"busiest second {busiest}, duplicates 0, skipped 0"
    )
