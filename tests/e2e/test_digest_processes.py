"""`laurel run` killed with SIGKILL in the middle of a digest fan-out, then started again.

The stand-in is its own process and keeps every message; the bot is killed after some posts
were stored, while a POST is held after the store (Discord has it, the bot never heard), and
while one is held before the store. After the last start every subscription's post is in the
stand-in exactly once: no duplicates, nothing lost.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import sqlite3
import subprocess
import sys
import urllib.parse
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

from bot.domain.subscriptions import Subscription, Theme
from bot.store.database import Database
from bot.store.subscriptions import SubscriptionRepository
from tests.support.processes import Stand, bot_env, control, kill, run_bot, until

POST = "POST /channels/{channel_id}/messages"
MARKER = re.compile(r"(L\d+-[0-9a-f]{6})$")
# Channel name -> subscriptions in it (threads and forums included): the guild's maximum, 25.
LAYOUT = {"general": 8, "announcements": 7, "reading-group": 6, "papers-forum": 4}


def _env(stand: Stand, database: Path) -> dict[str, str]:
    return bot_env(
        stand,
        database,
        LAUREL_DIGESTS__TICK_SECONDS="1",
        # Slow enough that a kill lands in the middle of the fan-out.
        LAUREL_DIGESTS__REQUESTS_PER_SECOND="5",
        LAUREL_DIGESTS__RETRY_BASE_SECONDS="0.1",
    )


def _bot(stand: Stand, database: Path) -> subprocess.Popen[str]:
    return run_bot(_env(stand, database))


def _subscribe(database: Path, world: dict[str, Any]) -> int:
    """Subscriptions whose time came a moment ago (made before it): due at the next start."""
    guild = world["guilds"][0]
    channels = {c["name"]: int(c["id"]) for c in guild["channels"]}
    now = dt.datetime.now(dt.UTC)
    minute = now.replace(second=0, microsecond=0)

    async def add() -> int:
        async with await Database.open(database) as db:
            repo = SubscriptionRepository(db)
            count = 0
            for name, many in LAYOUT.items():
                for n in range(many):
                    theme = Theme.TEST_OF_TIME if n % 3 == 2 else Theme.PAPER_OF_THE_DAY
                    sub = {
                        "guild_id": int(guild["id"]),
                        "channel_id": channels[name],
                        "theme": theme,
                        "time": minute.time(),
                        "timezone": "UTC",
                        "created_by": 1,
                        "created_at": minute - dt.timedelta(minutes=10),
                    }
                    await repo.add(Subscription.model_validate(sub))
                    count += 1
            return count

    return asyncio.run(add())


def _all_messages(stand: Stand) -> list[dict[str, Any]]:
    world = control(f"{stand.control}world")
    found = []
    for channel in world["guilds"][0]["channels"]:
        query = urllib.parse.urlencode({"channel_id": channel["id"]})
        found += control(f"{stand.control}messages?{query}")["messages"]
    return found


def _markers(stand: Stand) -> list[str]:
    """The ledger marker of every digest post in the stand-in, one per message."""
    markers = []
    for message in _all_messages(stand):
        footers = [e.get("footer", {}).get("text", "") for e in message.get("embeds", [])]
        found = [m[1] for f in footers if (m := MARKER.search(f))]
        markers += found[-1:]
    return markers


def _ledger(database: Path) -> dict[str, str]:
    conn = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
    try:
        return dict(conn.execute("SELECT nonce, status FROM digest_ledger").fetchall())
    finally:
        conn.close()


def _held(stand: Stand) -> list[dict[str, Any]]:
    query = urllib.parse.urlencode({"route": POST})
    return [
        r for r in control(f"{stand.control}requests?{query}")["requests"] if r["fault"] == "delay"
    ]


def test_sigkill_during_a_fan_out_neither_duplicates_nor_loses_a_post(
    stand: Stand, tmp_path: Path
) -> None:
    database = tmp_path / "laurel.db"
    env = _env(stand, database)
    init = [sys.executable, "-m", "bot", "db", "init"]
    subprocess.run(init, env=env, check=True, capture_output=True)
    world = control(f"{stand.control}world")
    channels = {c["name"]: c["id"] for c in world["guilds"][0]["channels"]}
    total = _subscribe(database, world)

    # 1. Killed after a few posts were stored.
    bot = _bot(stand, database)
    try:
        until(lambda: len(_markers(stand)) >= 3, "the first posts")
    finally:
        kill(bot)
    stored = len(_markers(stand))
    assert stored < total, "the fan-out finished before the kill; slow it down"

    # 2. Killed while two POSTs are in flight: one held after the store (Discord has it, the
    # bot never heard), one held before it (nothing reached the channel).
    hold = {"kind": "delay", "route": POST, "seconds": 600}
    for channel, after_store in (("general", True), ("announcements", False)):
        body = {**hold, "after_store": after_store, "channel_id": channels[channel]}
        control(f"{stand.control}faults", body)
    bot = _bot(stand, database)
    try:
        held = until(lambda: len(_held(stand)) == 2 and _held(stand), "two POSTs held")
        general = f"/{channels['general']}/messages"
        nonce = next(r["body"]["nonce"] for r in held if r["path"].endswith(general))
        until(
            lambda: any(m.get("nonce") == nonce for m in _all_messages(stand)),
            "the post held after the store to be stored",
        )
    finally:
        kill(bot)

    # 3. Started again: everything settles, once.
    bot = _bot(stand, database)
    try:
        until(
            lambda: Counter(_ledger(database).values()) == Counter({"sent": total}),
            "every post to be marked sent",
        )
        markers = _markers(stand)
    finally:
        kill(bot)
    assert len(markers) == total
    assert Counter(markers).most_common(1)[0][1] == 1  # no duplicates
    assert set(markers) == set(_ledger(database))  # nothing lost
