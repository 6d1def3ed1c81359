"""`laurel run` killed during a digest fan-out: the bot process with its log read as it
comes, subscriptions due at start, and what the stand-in and the ledger hold afterwards."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import sqlite3
import threading
import urllib.parse
import urllib.request
from collections import Counter
from contextlib import closing
from pathlib import Path
from typing import Any

from bot.domain.subscriptions import Subscription, Theme
from bot.render.digest_posts import marker_in
from bot.store.subscriptions import SubscriptionRepository
from tests.support.backends import open_sqlite
from tests.support.processes import Stand, bot_env, control, kill, run_bot

RECEIVED = re.compile(r"has received .*'nonce': '(L\d+-[0-9a-f]{6})'")
# In id order, which is the order the fan-out starts them: the first two channels each get a
# POST held by the stand-in, and the posts queued behind it hold their fan-out slots, so
# #general goes one post at a time and the forum's posts wait for a slot.
LAYOUT = {"announcements": 7, "reading-group": 6, "general": 8, "papers-forum": 4}


class Bot:
    """`laurel run` with its stderr (JSON log lines) read as it comes, so the pipe never fills."""

    def __init__(self, stand: Stand, database: Path, **settings: str) -> None:
        env = bot_env(
            stand,
            database,
            LAUREL_BACKUPS__ENABLED="false",
            LAUREL_LOGGING__FORMAT="json",
            LAUREL_DIGESTS__TICK_SECONDS="1",
            LAUREL_DIGESTS__RETRY_BASE_SECONDS="0.1",
            **{f"LAUREL_{k.upper()}": v for k, v in settings.items()},
        )
        self.lines: list[str] = []
        self.process = run_bot(env)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)

    def received(self) -> set[str]:
        """Nonces of the posts whose answer reached the bot (discord.py logs it at DEBUG)."""
        return {m[1] for line in list(self.lines) if (m := RECEIVED.search(line))}

    def kill(self) -> None:
        self.process.kill()
        self.process.wait(timeout=10)
        self._reader.join(timeout=10)  # it stops at the end of the dead process's stderr
        kill(self.process)  # reaped already; this closes the pipe


def subscribe_due(database: Path, world: dict[str, Any]) -> int:
    """Subscriptions whose time came a moment ago (made before it): due at the next start."""
    guild = world["guilds"][0]
    channels = {c["name"]: int(c["id"]) for c in guild["channels"]}
    minute = dt.datetime.now(dt.UTC).replace(second=0, microsecond=0)

    async def add() -> int:
        async with await open_sqlite(database) as db:
            repo, count = SubscriptionRepository(db), 0
            for name, many in LAYOUT.items():
                for n in range(many):
                    sub = {
                        "guild_id": int(guild["id"]),
                        "channel_id": channels[name],
                        "theme": Theme.TEST_OF_TIME if n % 3 == 2 else Theme.PAPER_OF_THE_DAY,
                        "time": minute.time(),
                        "timezone": "UTC",
                        "created_by": 1,
                        "created_at": minute - dt.timedelta(minutes=10),
                    }
                    await repo.add(Subscription.model_validate(sub))
                    count += 1
            return count

    return asyncio.run(add())


def _messages(stand: Stand) -> list[dict[str, Any]]:
    world = control(f"{stand.control}world")
    found = []
    for channel in world["guilds"][0]["channels"]:
        query = urllib.parse.urlencode({"channel_id": channel["id"]})
        found += control(f"{stand.control}messages?{query}")["messages"]
    return found


def posted_markers(stand: Stand) -> Counter[str]:
    """The ledger marker of every digest post in the stand-in, counted."""
    found: Counter[str] = Counter()
    for message in _messages(stand):
        footers = [e.get("footer", {}).get("text", "") for e in message.get("embeds", [])]
        found.update([m for f in footers if (m := marker_in(f))][-1:])
    return found


def ledger_rows(database: Path) -> dict[int, tuple[str, str]]:
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as conn:
        rows = conn.execute("SELECT subscription_id, nonce, status FROM digest_ledger")
        return {int(sub): (nonce, status) for sub, nonce, status in rows}
