from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.commands.errors import describe
from bot.errors import LaurelError, UserError
from bot.render.i18n import Strings

STRINGS = Strings.load()
TW = discord.Locale.taiwan_chinese
EN = discord.Locale.american_english


def test_user_error_is_told_in_the_users_language() -> None:
    text, expected = describe(UserError("error-cooldown", seconds=5), STRINGS, TW)
    assert expected
    assert text == "請稍候，5 秒後再試。"


def test_laurel_error_inside_a_command_is_shown_as_is() -> None:
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="x", description="x", callback=_noop
    )
    wrapped = app_commands.CommandInvokeError(command, LaurelError("no paper #42"))
    assert describe(wrapped, STRINGS, EN) == ("no paper #42", True)


def test_missing_permissions_names_them() -> None:
    text, expected = describe(app_commands.MissingPermissions(["manage_guild"]), STRINGS, EN)
    assert expected
    assert "manage_guild" in text


def test_unexpected_error_gets_an_id_and_a_logged_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="x", description="x", callback=_noop
    )
    try:
        raise ZeroDivisionError("secret internals")
    except ZeroDivisionError as exc:
        wrapped = app_commands.CommandInvokeError(command, exc)
    with caplog.at_level(logging.ERROR):
        text, expected = describe(wrapped, STRINGS, EN)
    assert not expected
    assert "secret internals" not in text
    (record,) = caplog.records
    error_id = record.getMessage().split()[-1]
    assert f"`{error_id}`" in text
    assert record.exc_info is not None
    assert record.exc_info[0] is ZeroDivisionError


async def _noop(interaction: discord.Interaction) -> None:
    """A callback for building commands in tests."""
