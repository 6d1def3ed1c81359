"""Injected faults against discord.py's own handling: 429s, 5xx before and after the store,
lost access, and the optional global limiter."""

from __future__ import annotations

import asyncio

import discord
import pytest

from laurel_console.localdiscord.faults import Fault
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.bare_client import Laurel, connected
from tests.support.control_api import (
    CREATE,
    general,
)


async def test_a_429_is_retried_by_discord_py_and_stores_one_message(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        server.inject("rate_limit", route=CREATE, retry_after=0.05)
        await general(bot).send("once")
        assert [r.status for r in server.requests_to(CREATE)] == [429, 200]
        assert [m["content"] for m in server.messages("general")] == ["once"]
        limited = server.requests_to(CREATE)[0]
        assert limited.response == {
            "message": "You are being rate limited.",
            "retry_after": 0.05,
            "global": False,
        }


async def test_a_global_429_is_waited_out(server: LocalDiscord, bot: Laurel) -> None:
    async with connected(bot, server):
        server.inject("global_rate_limit", retry_after=0.05)
        await general(bot).send("after the wait")
        assert [r.status for r in server.requests_to(CREATE)] == [429, 200]
        assert server.requests_to(CREATE)[0].response["global"] is True


async def test_a_5xx_after_the_store_duplicates_a_retry_without_a_fixed_nonce(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        server.inject("server_error", route=CREATE, status=503, after_store=True)
        with pytest.raises(discord.DiscordServerError):
            await general(bot).send("digest")
        await general(bot).send("digest")  # the caller's retry
        assert [m["content"] for m in server.messages("general")] == ["digest", "digest"]


async def test_a_5xx_after_the_store_with_a_nonce_stores_once(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        server.inject("server_error", route=CREATE, status=503, after_store=True)
        with pytest.raises(discord.DiscordServerError):
            await general(bot).send("digest", nonce="ledger-41")
        retried = await general(bot).send("digest", nonce="ledger-41")
        (stored,) = server.messages("general")
        assert stored["id"] == str(retried.id)


async def test_discord_py_sends_a_random_nonce_of_its_own(
    server: LocalDiscord, bot: Laurel
) -> None:
    # Messageable.send() makes up a nonce (64 random bits, as a string, enforced) when given
    # none, so its own retry of a 500 is safe; a caller's retry is a new send(), a new nonce.
    # discord.py sleeps 1 s before retrying a 500: the one slow test here.
    async with connected(bot, server):
        server.inject("server_error", route=CREATE, status=500, after_store=True)
        await general(bot).send("digest")
        first, retry = server.requests_to(CREATE)
        assert first.body["nonce"].isdigit()
        assert first.body["enforce_nonce"] is True
        assert retry.body["nonce"] == first.body["nonce"]
        assert len(server.messages("general")) == 1


async def test_a_5xx_before_the_store_stores_nothing(server: LocalDiscord, bot: Laurel) -> None:
    async with connected(bot, server):
        server.inject("server_error", route=CREATE, status=503)
        with pytest.raises(discord.DiscordServerError):
            await general(bot).send("lost")
        assert server.messages("general") == []


@pytest.mark.parametrize(
    ("kind", "error", "code"),
    [
        ("missing_access", discord.Forbidden, 50001),
        ("missing_permissions", discord.Forbidden, 50013),
        ("unknown_channel", discord.NotFound, 10003),
    ],
)
async def test_channel_errors(
    server: LocalDiscord, bot: Laurel, kind: str, error: type[discord.HTTPException], code: int
) -> None:
    async with connected(bot, server):
        channel = general(bot)
        server.inject(kind, channel_id=channel.id, times=None)
        with pytest.raises(error) as caught:
            await channel.send("hello")
        assert caught.value.code == code
        with pytest.raises(error):
            await channel.fetch_message(1)
        server.clear_faults()
        await channel.send("hello again")


async def test_the_global_limiter_answers_429_beyond_its_rate(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        server.limit_rate(50.0, burst=1)  # one request per 20 ms
        for i in range(3):
            await general(bot).send(f"m{i}")
        assert len(server.messages("general")) == 3
        statuses = [r.status for r in server.requests_to(CREATE)]
        assert statuses.count(200) == 3
        assert 429 in statuses
        limited = next(r for r in server.requests_to(CREATE) if r.status == 429)
        assert limited.response["global"] is True
        assert limited.response["retry_after"] <= 0.02


async def test_a_delay_holds_the_request_and_then_serves_it_once(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        server.inject("delay", route=CREATE, seconds=0.05)
        held = asyncio.create_task(general(bot).send("slow"))
        record = await server.wait_for_request(CREATE)  # answered only after the delay
        assert record.fault == "delay"
        assert record.status == 200
        sent = await held
        (stored,) = server.messages("general")
        assert stored["id"] == str(sent.id)


async def test_a_delay_after_the_store_stores_before_it_answers(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        server.inject("delay", route=CREATE, seconds=0.2, after_store=True)
        held = asyncio.create_task(general(bot).send("stored first"))
        created = await bot.wait_for("message", timeout=5)  # the gateway's MESSAGE_CREATE
        assert created.content == "stored first"
        assert not held.done()  # stored, and the client still waits for its answer
        await held
        assert len(server.messages("general")) == 1


@pytest.mark.parametrize(
    "options",
    [
        {"kind": "delay"},
        {"kind": "delay", "seconds": -1},
        {"kind": "rate_limit", "seconds": 1},
        {"kind": "missing_access", "after_store": True},
    ],
)
def test_a_delay_needs_seconds_and_only_a_delay_has_them(options: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"delay|after the store"):
        Fault.from_json(options)


async def test_interaction_answers_are_not_bound_by_the_global_limiter(
    server: LocalDiscord, bot: Laurel
) -> None:
    # Discord: "Interaction endpoints are not bound to the bot's Global Rate Limit."
    @bot.tree.command(description="Answer at once")
    async def ping(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("pong")

    async with connected(bot, server):
        await bot.tree.sync()
        server.limit_rate(1.0, burst=1)  # one request a second for everything else
        await general(bot).send("uses the only token")
        for _ in range(3):
            assert (await (await server.slash("ping")).message())["content"] == "pong"
        limited = [r for r in server.requests if r.fault == "limiter"]
        assert limited == []
        await general(bot).send("over the limit: waits for the next token")
        assert 429 in [r.status for r in server.requests_to(CREATE)]  # the limiter is on
