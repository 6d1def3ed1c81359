"""The store refusing a write at the moment a digest fan-out reserves its rows or marks them
sent: locked, read-only, out of space. After the store recovers every due period is posted
exactly once: a refused reserve does not skip the period, and a refused mark is resumed with
the same nonce (Discord gives back the same message), never sent anew.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections import Counter
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest

from bot.app import LaurelBot
from bot.store.database import Database
from bot.store.sql import Connection
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.clock import ManualClock
from tests.support.exactly_once import (
    NINE,
    PATH,
    POST,
    Checked,
    bot,
    clock,
    exactly_once,
    markers,
    run_at,
    subscribe_many,
)
from tests.support.store_faults import Fault, locked, read_only

__all__ = ["bot", "clock"]  # the fixtures, shared with the fan-out rows


@asynccontextmanager
async def ledger_full(db: Database) -> AsyncIterator[None]:
    """Out of space for the ledger: the file capped at its size (as test_store's `full`) and
    the ledger's last page filled with ballast rows, so that its next row or a row that grows
    needs a page there is none of (a small write into free space would otherwise succeed)."""

    def fill(conn: Connection) -> None:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
        sub_id = conn.execute("SELECT min(id) FROM subscriptions").fetchone()[0]
        n = 0
        for size in (2000, 1000, 500, 250, 120, 60, 30, 15, 1):
            while True:
                n += 1
                try:
                    conn.execute(
                        """INSERT INTO digest_ledger (subscription_id, period, status, theme,
                               late, nonce, content, reserved_at)
                           VALUES (?, ?, 'failed', 'ballast', 0, ?, ?, '2000-01-01')""",
                        (sub_id, f"b{n}", f"b{n}", "x" * size),
                    )
                except sqlite3.OperationalError:
                    break

    await db.snapshot(fill)
    yield
    await db.snapshot(lambda conn: conn.execute("PRAGMA max_page_count = 1073741823"))
    await db.snapshot(
        lambda conn: conn.execute("DELETE FROM digest_ledger WHERE theme = 'ballast'")
    )


STORE_FAULTS = [(locked, "locked"), (read_only, "read-only"), (ledger_full, "out of space")]


def store_faults(step: str) -> list[Any]:
    """The three refusals as parameters, each a row of the table under `step`."""
    return [
        pytest.param(f, n, marks=pytest.mark.fault(f"{PATH}: {step}", n), id=n)
        for f, n in STORE_FAULTS
    ]


@pytest.mark.parametrize(("fault", "name"), store_faults("reserve"))
async def test_a_refused_reserve_posts_the_period_once_the_store_recovers(
    bot: LaurelBot,
    server: LocalDiscord,
    db: Database,
    clock: ManualClock,
    checked: Checked,
    fault: Fault,
    name: str,
) -> None:
    subs = await subscribe_many(bot, server)
    async with fault(db):
        await run_at(bot, clock, NINE)
        assert server.requests_to(POST) == []
        assert await bot.digest_engine.ledger.periods_since(NINE - dt.timedelta(days=1)) == set()
        await run_at(bot, clock, NINE + dt.timedelta(minutes=1))  # still refused: still due
    await run_at(bot, clock, NINE + dt.timedelta(minutes=2))
    summary = await exactly_once(bot, server, subs)
    await run_at(bot, clock, NINE + dt.timedelta(minutes=3))
    assert len(markers(server)) == len(subs)
    assert len(server.requests_to(POST)) == len(subs)
    checked(f"no row and no request while refused; the period kept; then {summary}")


@pytest.mark.parametrize(("fault", "name"), store_faults("mark sent"))
async def test_a_refused_mark_settles_with_the_same_nonce_once_the_store_recovers(
    bot: LaurelBot,
    server: LocalDiscord,
    db: Database,
    clock: ManualClock,
    checked: Checked,
    fault: Fault,
    name: str,
) -> None:
    subs = await subscribe_many(bot, server)
    # Every POST is held after the store: the fault comes between the send and the mark.
    server.inject("delay", route=POST, seconds=0.2, after_store=True, times=None)
    clock.set(NINE)
    await bot.digest_engine.ticker.tick()
    await server.wait_for_request(POST)
    async with fault(db):
        await bot.digest_engine.supervisor.drain()
        # All sent; none marked (a full disk may still take a mark that fits its page).
        pending = await bot.digest_engine.ledger.pending_count()
        assert pending == len(subs) or (name == "out of space" and pending > 0)
        assert len(markers(server)) == len(subs)
    server.clear_faults()
    await run_at(bot, clock, NINE + dt.timedelta(minutes=1))
    summary = await exactly_once(bot, server, subs)
    nonces = Counter(r.body["nonce"] for r in server.requests_to(POST))
    # Each unmarked post was re-sent once with its nonce (Discord gave back the same message).
    assert sorted(nonces.values()) == [1] * (len(subs) - pending) + [2] * pending
    checked(f"{pending} sent but unmarked while refused; resumed with the same nonce; {summary}")
