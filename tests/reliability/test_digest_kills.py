"""`laurel run` killed with SIGKILL in the middle of a digest fan-out, then started again.

One real bot process against one stand-in process (which keeps every message), killed once
at a moment chosen so that posts are at every step of the pipeline at the same time:

- before reserve: due, but waiting for a fan-out slot or for the store, so no ledger row;
- after reserve, before send: a pending row queued behind its channel's earlier post;
- a send in flight before the store: a POST held by the stand-in, nothing stored yet;
- a send in flight after the store: a POST stored and held, the bot never heard back;
- after send, before mark: the bot got its answer (discord.py's DEBUG log says so), but the
  mark waits on the database's write lock, which the test holds.

Each step is a row of the table: it checks that the kill caught posts in that step and that,
after the next start, each of them is in the stand-in exactly once. One process setup serves
all five rows (a bot start costs seconds; the suite must stay short).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.support.digest_kills import (
    Bot,
    ledger_rows,
    posted_markers,
    subscribe_due,
)
from tests.support.processes import Stand, control, stand_in, until

PATH = "digest fan-out (SIGKILL)"
POST = "POST /channels/{channel_id}/messages"
SLOTS = 14  # announcements and reading-group, and one of #general's at a time

BEFORE_RESERVE = "before reserve"
AFTER_RESERVE = "after reserve, before send"
IN_FLIGHT_BEFORE = "send in flight, before the store"
IN_FLIGHT_AFTER = "send in flight, after the store"
BEFORE_MARK = "after send, before mark"


@dataclass
class Outcome:
    """What the kill caught (subscription ids by step) and what the stand-in held at the end."""

    caught: dict[str, set[int]] = field(default_factory=dict)
    markers: Counter[str] = field(default_factory=Counter)
    ledger: dict[int, tuple[str, str]] = field(default_factory=dict)  # sub -> (nonce, status)
    total: int = 0


def _posts(stand: Stand) -> list[dict[str, Any]]:
    query = urllib.parse.urlencode({"route": POST})
    return list(control(f"{stand.control}requests?{query}")["requests"])


@pytest.fixture(scope="module")
def stand() -> Iterator[Stand]:
    with stand_in() as running:
        yield running


def _caught(stand: Stand, bot: Bot, database: Path, subs: set[int]) -> dict[str, set[int]]:
    """Which step each subscription's post was at, seen from outside while the bot lives."""
    ledger = ledger_rows(database)
    by_nonce = {nonce: sub for sub, (nonce, _) in ledger.items()}
    posts = _posts(stand)
    requested = {r["body"]["nonce"] for r in posts}
    held = [r for r in posts if r["fault"] == "delay"]
    stored = set(posted_markers(stand))
    pending = {sub for sub, (_, status) in ledger.items() if status == "pending"}
    return {
        BEFORE_RESERVE: subs - set(ledger),
        AFTER_RESERVE: {s for s in pending if ledger[s][0] not in requested},
        IN_FLIGHT_BEFORE: {by_nonce[r["body"]["nonce"]] for r in held}
        - {by_nonce[n] for n in stored if n in by_nonce},
        IN_FLIGHT_AFTER: {by_nonce[r["body"]["nonce"]] for r in held}
        & {by_nonce[n] for n in stored if n in by_nonce},
        BEFORE_MARK: {by_nonce[n] for n in bot.received() if n in by_nonce} & pending,
    }


@pytest.fixture(scope="module")
def killed(stand: Stand, tmp_path_factory: pytest.TempPathFactory) -> Outcome:
    """The fan-out killed once with posts at every step, then started again to the end."""
    database = tmp_path_factory.mktemp("kills") / "laurel.db"
    env = {**os.environ, "LAUREL_DATABASE__PATH": str(database)}
    env.pop("LAUREL_CONFIG", None)
    subprocess.run([sys.executable, "-m", "bot", "db", "init"], env=env, check=True,
                   capture_output=True)  # fmt: skip
    world = control(f"{stand.control}world")
    channels = {c["name"]: c["id"] for c in world["guilds"][0]["channels"]}
    outcome = Outcome(total=subscribe_due(database, world))
    subs = set(range(1, outcome.total + 1))
    assert subs == set(_subscribe_ids(database))
    # One POST held before the store, one after it: each holds its channel (posts to one
    # channel go one at a time) and so do the rows queued behind it.
    for channel, after_store in (("announcements", False), ("reading-group", True)):
        fault = {"kind": "delay", "route": POST, "seconds": 600, "after_store": after_store,
                 "channel_id": channels[channel]}  # fmt: skip
        control(f"{stand.control}faults", fault)

    bot = Bot(
        stand,
        database,
        logging__level="DEBUG",
        digests__requests_per_second="5",
        digests__fan_out_concurrency=str(SLOTS),
    )
    try:
        until(lambda: len([r for r in _posts(stand) if r["fault"] == "delay"]) == 2,
               "two POSTs held")  # fmt: skip
        until(lambda: posted_markers(stand), "a first post in #general")
        with closing(sqlite3.connect(database, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")  # what the bot writes next waits (busy_timeout)
            try:
                until(
                    lambda: _caught(stand, bot, database, subs)[BEFORE_MARK],
                    "a post answered but not marked",
                )
                bot.kill()
                # Taken again once the bot is dead and before the lock goes: nothing moves.
                outcome.caught = _caught(stand, bot, database, subs)
            finally:
                other.execute("ROLLBACK")
    finally:
        if bot.process.poll() is None:
            bot.kill()

    bot = Bot(stand, database, digests__requests_per_second="50")
    try:
        until(
            lambda: (
                Counter(s for _, s in ledger_rows(database).values()) == {"sent": outcome.total}
            ),
            "every post to be marked sent",
        )
        outcome.markers = posted_markers(stand)
        outcome.ledger = ledger_rows(database)
    finally:
        bot.kill()
    return outcome


def _subscribe_ids(database: Path) -> list[int]:
    with closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as conn:
        return [int(r[0]) for r in conn.execute("SELECT id FROM subscriptions")]


@pytest.mark.parametrize(
    "step",
    [
        pytest.param(s, marks=pytest.mark.fault(PATH, s), id=s.split(",")[0].replace(" ", "-"))
        for s in (BEFORE_RESERVE, AFTER_RESERVE, IN_FLIGHT_BEFORE, IN_FLIGHT_AFTER, BEFORE_MARK)
    ],
)
def test_a_post_killed_at_this_step_is_in_the_channel_once_after_the_restart(
    killed: Outcome, checked: Callable[[str], None], step: str
) -> None:
    caught = killed.caught[step]
    assert caught, f"the kill caught no post {step}"
    for sub in caught:
        nonce, status = killed.ledger[sub]
        assert status == "sent"
        assert killed.markers[nonce] == 1, (sub, nonce)
    # And the whole fan-out: every subscription's one post, nothing else.
    assert len(killed.ledger) == killed.total
    assert sum(killed.markers.values()) == killed.total
    assert set(killed.markers) == {nonce for nonce, _ in killed.ledger.values()}
    checked(
        f"{len(caught)} of {killed.total} posts caught here; after the restart each once; "
        f"all {killed.total} once"
    )
