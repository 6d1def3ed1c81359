"""Direct messages through discord.py: `POST /users/@me/channels`, then the DM's messages."""

from __future__ import annotations

import discord
import pytest

from laurel_console.localdiscord.server import LocalDiscord
from tests.support.bare_client import Laurel, connected

OPEN_DM = "POST /users/@me/channels"


async def test_a_member_is_sent_a_direct_message_in_one_channel_per_user(
    server: LocalDiscord, bot: Laurel
) -> None:
    ada = server.world.find_user("ada")
    async with connected(bot, server):
        guild = bot.get_guild(server.world.default_guild().id)
        assert guild is not None
        user = await guild.fetch_member(ada.id)  # as the bot finds a guild's owner
        first = await user.send("Your #general digest is paused.")
        second = await user.send("And another.")
        (opened,) = server.requests_to(OPEN_DM)  # discord.py keeps the channel it was given
        assert opened.body == {"recipient_id": ada.id}
        assert opened.status == 200
        assert opened.response["type"] == 1
        assert [u["id"] for u in opened.response["recipients"]] == [str(ada.id)]
        assert "guild_id" not in opened.response
        dm = server.world.dms[ada.id]
        assert str(dm.id) == opened.response["id"] == str(first.channel.id)
        assert [m["content"] for m in server.messages(dm.id)] == [
            "Your #general digest is paused.",
            "And another.",
        ]
        assert [m["id"] for m in server.messages(dm.id)] == [str(first.id), str(second.id)]
        assert server.messages(dm.id)[0]["author"]["id"] == str(server.world.bot.id)
        # No other member's DM was opened, and no guild channel got the message.
        assert list(server.world.dms) == [ada.id]
        assert server.messages("general") == []
        assert server.violations == []
        assert server.unhandled == []


async def test_a_user_who_refuses_direct_messages_answers_50007(
    server: LocalDiscord, bot: Laurel
) -> None:
    grace = server.world.find_user("grace")
    grace.accepts_dms = False
    async with connected(bot, server):
        channel = await bot.create_dm(discord.Object(grace.id))
        with pytest.raises(discord.Forbidden) as caught:
            await channel.send("hello?")
        assert caught.value.code == 50007
        assert server.messages(server.world.dms[grace.id].id) == []


async def test_an_unknown_recipient_is_unknown_user(server: LocalDiscord, bot: Laurel) -> None:
    async with connected(bot, server):
        route = discord.http.Route("POST", "/users/@me/channels")
        with pytest.raises(discord.NotFound) as caught:
            await bot.http.request(route, json={"recipient_id": "12345"})
        assert caught.value.code == 10013
        assert server.world.dms == {}
