"""LaurelBot on the loopback Discord, per test: real discord.py, real SQLite, real commands.
(`db`, `config` and `server` come from tests/conftest.py.)

At teardown a test fails if the bot sent anything Discord's spec or limits forbid, used a route
the stand-in does not know, the stand-in itself failed, or the bot logged an error.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator

import pytest

from bot.app import LaurelBot
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord


@pytest.fixture
async def laurel(
    server: LocalDiscord, db: Database, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[LaurelBot]:
    caplog.set_level(logging.WARNING)
    async with laurel_on(server, db) as bot:
        yield bot
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == [], "the bot logged errors"
