"""LaurelBot on the loopback Discord, per test: real discord.py, real SQLite, real commands.
(`db`, `config` and `server` come from tests/conftest.py.)

At teardown a test fails if the bot sent anything Discord's spec or limits forbid, used a route
the stand-in does not know, the stand-in itself failed, or the bot logged an error.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import AsyncIterator

import pytest

from bot.app import LaurelBot
from bot.domain.clock import Clock, SystemClock
from bot.settings import Settings
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.clock import ManualClock


@pytest.fixture
def laurel_settings() -> Settings | None:
    """The settings `laurel` starts with; None: the harness's own. A test that needs others
    parametrizes this name (`@pytest.mark.parametrize("laurel_settings", [...])`)."""
    return None


@pytest.fixture
def laurel_time() -> dt.datetime | None:
    """Where `laurel`'s clock starts. None: the system clock, with a live scheduler. A time
    (parametrize this name): a ManualClock there, which the test reads and moves through
    `laurel.clock`, and no scheduler, so nothing fires by the wall clock."""
    return None


@pytest.fixture
async def laurel(
    server: LocalDiscord,
    db: Database,
    caplog: pytest.LogCaptureFixture,
    laurel_settings: Settings | None,
    laurel_time: dt.datetime | None,
) -> AsyncIterator[LaurelBot]:
    caplog.set_level(logging.WARNING)
    clock: Clock = ManualClock(laurel_time) if laurel_time is not None else SystemClock()
    async with laurel_on(server, db, laurel_settings, clock=clock) as bot:
        yield bot
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == [], "the bot logged errors"
