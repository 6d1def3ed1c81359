"""The lean stand-in of the benchmarks: it answers as the full one does, but keeps no log of
requests or frames and checks no limits; it only counts requests by route and status."""

from __future__ import annotations

import discord
import pytest

from laurel_console.localdiscord.config import Config
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.bare_client import Laurel, connected

POST = "POST /channels/{channel_id}/messages"


@pytest.fixture
def config() -> Config:
    return Config(heartbeat_interval_ms=200, lean=True)


def general(bot: Laurel) -> discord.TextChannel:
    (guild,) = bot.guilds
    channel = discord.utils.get(guild.text_channels, name="general")
    assert channel is not None
    return channel


async def test_lean_answers_the_same_and_only_counts(server: LocalDiscord, bot: Laurel) -> None:
    async with connected(bot, server):
        sent = await general(bot).send("hello", embed=discord.Embed(title="t"))
        assert sent.content == "hello"
        assert [m["content"] for m in server.messages("general")] == ["hello"]
        # Over Discord's 2,000 characters: the full stand-in refuses it with 400; lean serves it.
        await general(bot).send("x" * 2001)
    assert server.requests == []
    assert server.violations == []
    assert server.gateway.frames == []
    assert server.rest.counts[POST, 200] == 2
