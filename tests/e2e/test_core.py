"""LaurelBot's core on the loopback Discord: command sync, the command tree, errors, faults."""

from __future__ import annotations

import asyncio
import logging
import re

import discord
import pytest
from discord import app_commands

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.errors import UserError
from bot.settings import DiscordSettings, Settings
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord

SYNC = "PUT /applications/{application_id}/commands"
CREATE = "POST /channels/{channel_id}/messages"
NAME = re.compile(r"^[-_\w]{1,32}$")


async def test_the_tree_is_synced_once_and_not_again_while_unchanged(
    server: LocalDiscord, db: Database
) -> None:
    async with laurel_on(server, db, clock=SystemClock()):
        pass
    async with laurel_on(server, db, clock=SystemClock()):
        pass
    assert len(server.requests_to(SYNC)) == 1


async def test_every_command_and_option_is_described_named_and_translated(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    (synced,) = server.requests_to(SYNC)
    commands = synced.body
    assert isinstance(commands, list)
    assert {c["name"] for c in commands} >= {"about", "help"}

    def check(entry: dict[str, object], where: str) -> None:
        name, description = str(entry["name"]), str(entry.get("description", ""))
        assert NAME.match(name), where
        assert name == name.lower(), where
        assert 1 <= len(description) <= 100, where
        for field in ("name_localizations", "description_localizations"):
            localized = entry.get(field) or {}
            assert isinstance(localized, dict)
            assert {"zh-TW", "zh-CN"} <= set(localized), f"{where}: {field}"
        for option in entry.get("options") or []:  # type: ignore[attr-defined]
            check(option, f"{where} {option['name']}")

    for command in commands:
        check(command, f"/{command['name']}")


async def _add(bot: LaurelBot, command: app_commands.Command) -> None:  # type: ignore[type-arg]
    bot.tree.add_command(command)
    await bot.tree.sync()


async def test_an_unexpected_error_gets_an_apology_with_an_id_and_a_logged_traceback(
    laurel: LaurelBot, server: LocalDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    @app_commands.command(name="boom", description="Fails")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("internal detail")

    await _add(laurel, boom)
    message = await (await server.slash("boom")).message()
    assert message["flags"] & 64  # ephemeral
    assert "internal detail" not in message["content"]
    error_id = re.search(r"`([0-9a-f]{8})`", message["content"])
    assert error_id is not None
    (record,) = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert error_id[1] in record.getMessage()
    assert record.exc_info is not None
    assert "internal detail" in str(record.exc_info[1])
    caplog.clear()  # the error was the point of this test


async def test_a_users_mistake_is_answered_in_their_language_even_after_a_defer(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    @app_commands.command(name="slow", description="Defers, then finds a mistake")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True)
        raise UserError("error-cooldown", seconds=7)

    await _add(laurel, slow)
    interaction = await server.slash("slow", locale="zh-TW")
    message = await interaction.message()
    assert message["content"] == "請稍候，7 秒後再試。"
    assert message["flags"] & 64


class _Heard(logging.Handler):
    """Sets an event when a matching record is logged (logging runs on the event loop's thread)."""

    def __init__(self, needle: str) -> None:
        super().__init__(logging.WARNING)
        self.needle = needle
        self.event = asyncio.Event()

    def emit(self, record: logging.LogRecord) -> None:
        if self.needle in record.getMessage():
            self.event.set()


async def test_an_expired_interaction_is_logged_not_raised(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    @app_commands.command(name="late", description="Answers after the window")
    async def late(interaction: discord.Interaction) -> None:
        server.config.interaction_window = 0.0  # the 3 seconds have passed
        raise UserError("error-guild-only")

    heard = _Heard("expired before the error could be shown")
    logging.getLogger("bot.commands.errors").addHandler(heard)
    try:
        await _add(laurel, late)
        interaction = await server.slash("late")
        async with asyncio.timeout(5):
            await heard.event.wait()
    finally:
        logging.getLogger("bot.commands.errors").removeHandler(heard)
    assert not interaction.acknowledged


def _general(bot: LaurelBot) -> discord.TextChannel:
    channel = discord.utils.get(bot.get_all_channels(), name="general")
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_a_429_on_a_channel_post_leaves_exactly_one_message(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    server.inject("rate_limit", route=CREATE, retry_after=0.05)
    await _general(laurel).send("once")
    assert [r.status for r in server.requests_to(CREATE)] == [429, 200]
    assert [m["content"] for m in server.messages("general")] == ["once"]


async def test_a_5xx_after_the_store_leaves_exactly_one_message(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    server.inject("server_error", route=CREATE, status=500, after_store=True)
    await _general(laurel).send("once")  # discord.py retries with the same enforced nonce
    assert [r.status for r in server.requests_to(CREATE)] == [500, 200]
    assert [m["content"] for m in server.messages("general")] == ["once"]


async def test_a_dropped_gateway_is_resumed_and_the_next_command_answered(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    await server.drop_gateway()
    interaction = await server.slash("about")
    (embed,) = (await interaction.message())["embeds"]
    assert embed["title"] == "Laurel"
    assert laurel.ws is not None
    assert laurel.is_ready()


async def test_a_development_guild_gets_the_commands_instead_of_the_world(
    server: LocalDiscord, db: Database
) -> None:
    (guild,) = server.world.guilds.values()
    settings = Settings(discord=DiscordSettings(dev_guild_id=guild.id))
    async with laurel_on(server, db, settings, clock=SystemClock()):
        pass
    assert server.requests_to(SYNC) == []
    (synced,) = server.requests_to("PUT /applications/{application_id}/guilds/{guild_id}/commands")
    assert {c["name"] for c in synced.body} >= {"about", "help"}
