"""The stand-in's control API called from a test, and the bare client's #general channel."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord

from laurel_console.localdiscord.server import LocalDiscord
from tests.support.bare_client import Laurel


async def call(server: LocalDiscord, method: str, path: str, body: object = None) -> Any:
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, f"{server.base_url}/_control{path}", json=body) as response,
    ):
        return response.status, await response.json() if response.status != 204 else None


CREATE = "POST /channels/{channel_id}/messages"


def general(bot: Laurel) -> discord.TextChannel:
    channel = discord.utils.get(bot.get_all_channels(), name="general")
    assert isinstance(channel, discord.TextChannel)
    return channel
