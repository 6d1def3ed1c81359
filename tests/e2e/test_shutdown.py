"""Every aiohttp session the bot opens is closed when it stops: after a normal run, and after a
start that failed inside discord.py's login (setup_hook), which never got as far as running."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest

from bot.domain.clock import SystemClock
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord

SYNC = "PUT /applications/{application_id}/commands"


@pytest.fixture
def sessions(monkeypatch: pytest.MonkeyPatch) -> list[aiohttp.ClientSession]:
    """Every ClientSession made during the test (discord.py's, Laurel's, any other)."""
    opened: list[aiohttp.ClientSession] = []
    original = aiohttp.ClientSession.__init__

    def record(self: aiohttp.ClientSession, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        opened.append(self)

    monkeypatch.setattr(aiohttp.ClientSession, "__init__", record)
    return opened


async def test_a_stopped_bot_leaves_no_session_open(
    server: LocalDiscord, db: Database, sessions: list[aiohttp.ClientSession]
) -> None:
    async with laurel_on(server, db, clock=SystemClock()):
        await (await server.slash("about")).message()
        assert len(sessions) >= 2  # discord.py's HTTP client and the bot's own
    assert [s for s in sessions if not s.closed] == []


async def test_a_start_that_fails_in_setup_leaves_no_session_open(
    server: LocalDiscord, db: Database, sessions: list[aiohttp.ClientSession]
) -> None:
    server.inject("missing_access", route=SYNC)  # the command sync, in setup_hook, is refused
    with pytest.raises(discord.Forbidden):
        async with laurel_on(server, db, clock=SystemClock()):
            pass
    assert len(sessions) >= 2
    assert [s for s in sessions if not s.closed] == []
