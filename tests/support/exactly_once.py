"""The digest fan-out on the stand-in under a manual clock: many subscriptions, a run at a
given moment, and the check that every subscription got exactly one post."""

from __future__ import annotations

import datetime as dt
import logging
from collections import Counter
from collections.abc import AsyncIterator, Callable

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.app import LaurelBot
from bot.domain.subscriptions import Subscription, Theme
from bot.render.digest_posts import marker_in
from bot.settings import BackupSettings, DigestSettings, Settings
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.clock import ManualClock

PATH = "digest fan-out"
POST = "POST /channels/{channel_id}/messages"
CHANNELS = ("general", "announcements", "reading-group")
PER_CHANNEL = 4
NINE = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC)
Checked = Callable[[str], None]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(NINE - dt.timedelta(minutes=1))


@pytest.fixture
async def bot(
    server: LocalDiscord,
    db: Database,
    clock: ManualClock,
    caplog: pytest.LogCaptureFixture,
    expected_errors: list[str],
) -> AsyncIterator[LaurelBot]:
    caplog.set_level(logging.WARNING)
    digests = DigestSettings(requests_per_second=None, retry_base_seconds=0.01)
    settings = Settings(digests=digests, backups=BackupSettings(enabled=False))
    # The tests drive every tick on the fake clock: a tick fired by the wall clock (each
    # minute, or on_ready's wake) in the middle of a case would add a send to its counts. So
    # the scheduler is started paused before the bot sees it: it holds the jobs (the cases
    # that count jobs see them) and fires none.
    scheduler = AsyncIOScheduler(timezone="UTC")
    scheduler.start(paused=True)
    async with laurel_on(server, db, settings, clock=clock, scheduler=scheduler) as running:
        yield running
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert [m for m in errors if not m.startswith(tuple(expected_errors) or ("\0",))] == []


async def subscribe_many(bot: LaurelBot, server: LocalDiscord) -> list[Subscription]:
    """PER_CHANNEL subscriptions in each channel, all due at 09:00 UTC, two themes mixed."""
    guild = server.world.default_guild()
    subs = []
    for name in CHANNELS:
        for n in range(PER_CHANNEL):
            theme = Theme.TEST_OF_TIME if n % 2 else Theme.PAPER_OF_THE_DAY
            sub = Subscription.model_validate(
                {
                    "guild_id": guild.id,
                    "channel_id": server.channel(name).id,
                    "theme": theme,
                    "time": dt.time(9, 0),
                    "timezone": "UTC",
                    "created_by": guild.owner_id,
                    "created_at": bot.digests.now(),
                }
            )
            added = await bot.subscriptions.add(sub)
            bot.digests.scheduled(added)
            subs.append(added)
    return subs


async def run_at(bot: LaurelBot, clock: ManualClock, moment: dt.datetime) -> None:
    clock.set(moment)
    await bot.digest_engine.run_due()


def markers(server: LocalDiscord) -> list[str]:
    """The ledger marker of every digest post the stand-in stored, one per message."""
    found = []
    for name in CHANNELS:
        for message in server.messages(name):
            footers = [e.get("footer", {}).get("text", "") for e in message.get("embeds", [])]
            found += [m for f in footers if (m := marker_in(f))][-1:]
    return found


async def exactly_once(
    bot: LaurelBot, server: LocalDiscord, subs: list[Subscription], periods: int = 1
) -> str:
    """Each subscription's rows are sent, and each row's post is stored exactly once."""
    stored = Counter(markers(server))
    rows = []
    for sub in subs:
        assert sub.id is not None
        mine = await bot.digest_engine.ledger.of_subscription(sub.id)
        assert [r.status for r in mine] == ["sent"] * periods, (sub.id, [r.error for r in mine])
        rows += mine
    by_id = {int(m["id"]): m for name in CHANNELS for m in server.messages(name)}
    for row in rows:
        assert stored[row.nonce] == 1, row
        assert row.message_id in by_id
    assert sum(stored.values()) == len(rows)  # and nothing else was posted
    return f"{len(rows)} posts in {len(CHANNELS)} channels, each stored once and marked sent"
