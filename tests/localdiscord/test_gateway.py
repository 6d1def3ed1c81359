"""The gateway with the real discord.py client: READY, the guild cache, resuming, re-identifying."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from laurel_console.localdiscord import gateway as op
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.bare_client import Laurel, connected


async def test_ready_and_guild_create_fill_discord_py_cache(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        assert bot.user is not None
        assert bot.user.id == server.world.bot.id
        assert bot.user.bot
        assert bot.application_id == server.application_id
        (guild,) = bot.guilds
        assert guild.name == "Laurel Lab"
        kinds = {c.name: c.type for c in guild.channels}
        assert kinds == {
            "general": discord.ChannelType.text,
            "announcements": discord.ChannelType.news,
            "papers-forum": discord.ChannelType.forum,
        }
        (thread,) = guild.threads
        assert (thread.name, thread.parent) == (
            "reading-group",
            guild.get_channel(thread.parent_id),
        )
        roles = {r.name: r for r in guild.roles}
        assert roles["@everyone"].id == guild.id
        assert roles["Admin"].permissions.manage_guild
        assert not roles["Member"].permissions.manage_guild
        assert roles["Laurel"].is_bot_managed()
        assert guild.member_count == 3
        assert guild.me is not None
        assert guild.me.guild_permissions.embed_links
        # Without the presences intent Discord sends only the bot's own member.
        assert [m.id for m in guild.members] == [server.world.bot.id]
        identify = next(f for f in server.gateway.frames if f.op == op.IDENTIFY)
        assert identify.d["intents"] == discord.Intents.default().value


async def test_transport_is_zlib_stream_and_heartbeats_are_acknowledged(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        (connection,) = server.gateway.connections
        assert connection.request.query["compress"] == "zlib-stream"
        assert connection.request.query["v"] == "10"
        # discord.py heartbeats as soon as it gets HELLO, then every interval.
        assert server.gateway.heartbeats >= 1
        assert bot.latency < 1.0


async def test_a_dropped_connection_is_resumed_and_keeps_working(
    server: LocalDiscord, bot: Laurel
) -> None:
    resumed = asyncio.Event()
    bot.event(_setter("on_resumed", resumed))

    @bot.tree.command(description="Say hello")
    async def hello(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("hi")

    async with connected(bot, server):
        await bot.tree.sync()
        session_id = next(iter(server.gateway.sessions))
        mark = len(server.gateway.frames)
        assert await server.drop_gateway() == 1
        resume = await server.gateway.wait_frame("in", op.RESUME, after=mark)
        assert resume.d["session_id"] == session_id
        await server.gateway.wait_frame("out", op.DISPATCH, t="RESUMED", after=mark)
        await asyncio.wait_for(resumed.wait(), 5)
        assert not any(f.op == op.IDENTIFY for f in server.gateway.frames[mark:])
        interaction = await server.slash("hello")
        assert (await interaction.message())["content"] == "hi"


async def test_events_sent_while_disconnected_are_replayed_on_resume(
    server: LocalDiscord, bot: Laurel
) -> None:
    @bot.tree.command(description="Say hello")
    async def hello(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("hi")

    async with connected(bot, server):
        await bot.tree.sync()
        (connection,) = server.gateway.connections
        connection.session = None  # keep the session from seeing this socket close
        session = next(iter(server.gateway.sessions.values()))
        session.connection = None  # as if the socket had died unnoticed
        interaction = await server.slash("hello")  # buffered, not sent
        mark = len(server.gateway.frames)
        connection.abort()
        await server.gateway.wait_frame("in", op.RESUME, after=mark)
        assert (await interaction.message())["content"] == "hi"


async def test_a_failed_resume_makes_discord_py_identify_again(
    server: LocalDiscord, bot: Laurel
) -> None:
    @bot.tree.command(description="Say hello")
    async def hello(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("hi")

    async with connected(bot, server):
        await bot.tree.sync()
        server.fail_next_resume()
        mark = len(server.gateway.frames)
        await server.drop_gateway(code=4000)
        await server.gateway.wait_frame("in", op.RESUME, after=mark)
        invalid = await server.gateway.wait_frame("out", op.INVALID_SESSION, after=mark)
        assert invalid.d is False
        await server.gateway.wait_frame("in", op.IDENTIFY, after=mark)
        await server.gateway.wait_frame("out", op.DISPATCH, t="READY", after=mark)
        await server.gateway.wait_frame("out", op.DISPATCH, t="GUILD_CREATE", after=mark)
        interaction = await server.slash("hello")
        assert (await interaction.message())["content"] == "hi"


async def test_op_7_reconnect_is_followed_by_a_resume(server: LocalDiscord, bot: Laurel) -> None:
    async with connected(bot, server):
        mark = len(server.gateway.frames)
        await server.gateway.request_reconnect()
        await server.gateway.wait_frame("in", op.RESUME, after=mark)
        await server.gateway.wait_frame("out", op.DISPATCH, t="RESUMED", after=mark)


async def test_privileged_intents_not_granted_close_with_4014(server: LocalDiscord) -> None:
    client = Laurel(intents=discord.Intents.all())
    with pytest.raises(discord.PrivilegedIntentsRequired):
        async with connected(client, server):
            pass


async def test_a_granted_privileged_intent_is_accepted(server: LocalDiscord) -> None:
    server.config.granted_intents = discord.Intents(members=True, presences=True).value
    intents = discord.Intents.default()
    intents.members = intents.presences = True
    client = Laurel(intents=intents, chunk_guilds_at_startup=False)
    async with connected(client, server):
        (guild,) = client.guilds
        assert {m.name for m in guild.members} == {"Laurel", "ada", "grace"}


async def test_a_wrong_token_fails_login(server: LocalDiscord, bot: Laurel) -> None:
    with pytest.raises(discord.LoginFailure):
        await bot.login("not-the-token")
    await bot.close()


def _setter(name: str, event: asyncio.Event):
    async def handler() -> None:
        event.set()

    handler.__name__ = name
    return handler


async def test_an_uncompressed_connection_speaks_plain_json(server: LocalDiscord) -> None:
    url = f"{server.gateway_url}?v=10&encoding=json"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        hello = await ws.receive_json()
        assert hello["op"] == op.HELLO
        assert hello["d"]["heartbeat_interval"] == 200
        await ws.send_json({"op": op.HEARTBEAT, "d": None})
        assert (await ws.receive_json())["op"] == op.HEARTBEAT_ACK
        await ws.send_json(
            {"op": op.IDENTIFY, "d": {"token": server.token, "intents": 1, "properties": {}}}
        )
        ready = await ws.receive_json()
        assert (ready["t"], ready["s"]) == ("READY", 1)
        assert ready["d"]["resume_gateway_url"] == server.gateway_url
        guild = await ws.receive_json()
        assert (guild["t"], guild["s"], guild["d"]["name"]) == ("GUILD_CREATE", 2, "Laurel Lab")


async def test_identify_with_a_wrong_token_closes_with_4004(server: LocalDiscord) -> None:
    url = f"{server.gateway_url}?v=10&encoding=json"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.receive_json()
        await ws.send_json({"op": op.IDENTIFY, "d": {"token": "nope", "intents": 1}})
        closing = await ws.receive()
        assert closing.type is aiohttp.WSMsgType.CLOSE
        assert closing.data == 4004
