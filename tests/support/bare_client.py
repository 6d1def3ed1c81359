"""A bare discord.py client on the stand-in (tests/localdiscord): not LaurelBot, which is told
its API base by its settings, but discord.py's own Client with a command tree."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord import app_commands

from laurel_console.localdiscord.server import LocalDiscord


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
