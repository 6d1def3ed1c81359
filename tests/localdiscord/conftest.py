"""The stand-in on a free port, and the real discord.py client pointed at it.

Every test ends by checking that the client made no request the stand-in does not know and
broke neither Discord's spec nor its limits; a test that breaks them on purpose empties
`server.violations` once it has looked at them.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord
import pytest
import yarl
from discord import app_commands

from laurel_console.localdiscord.server import LocalDiscord


@pytest.fixture
def server(server: LocalDiscord, monkeypatch: pytest.MonkeyPatch) -> LocalDiscord:
    """The stand-in of tests/conftest.py, with discord.py's own URLs pointed at it: these
    tests use a bare client, not LaurelBot (which is told its API base by its settings)."""
    monkeypatch.setattr(discord.http.Route, "BASE", server.rest_url)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(server.gateway_url)
    )
    return server


class Laurel(discord.Client):
    """A bare bot: default intents, a command tree, and no two-second wait before on_ready."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("intents", discord.Intents.default())
        super().__init__(guild_ready_timeout=0.01, **options)
        self.tree = app_commands.CommandTree(self)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py sleeps 5 s before every IDENTIFY but the first (Discord's identify rate
        limit); the stand-in has no such limit, so a re-identify test need not wait."""


@asynccontextmanager
async def connected(client: discord.Client, server: LocalDiscord) -> AsyncIterator[None]:
    """Log in, connect and wait for on_ready; close on the way out."""
    await client.login(server.token)
    task = asyncio.create_task(client.connect())
    try:
        async with asyncio.timeout(5):
            ready = asyncio.create_task(client.wait_until_ready())
            await asyncio.wait({ready, task}, return_when=asyncio.FIRST_COMPLETED)
        if task.done():
            ready.cancel()
            task.result()  # raises what stopped the client
        yield
    finally:
        await client.close()
        await task


@pytest.fixture
def bot() -> Laurel:
    return Laurel()
