from __future__ import annotations

import logging
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.commands.errors import describe
from bot.errors import LaurelError, StoreBusy, StoreFull, StoreReadOnly, UserError, WriteRefused
from bot.render.i18n import Strings

STRINGS = Strings.load()
TW = discord.Locale.taiwan_chinese
EN = discord.Locale.american_english


def test_user_error_is_told_in_the_users_language() -> None:
    text, outcome = describe(UserError("error-cooldown", seconds=5), STRINGS, TW)
    assert outcome == "user_error"
    assert text == "請稍候，5 秒後再試。"


def test_an_english_laurel_error_inside_a_command_is_a_fault_told_in_the_users_language() -> None:
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="x", description="x", callback=_noop
    )
    wrapped = app_commands.CommandInvokeError(command, LaurelError("no paper #42"))
    text, outcome = describe(wrapped, STRINGS, TW)
    assert outcome == "fault"
    assert "no paper" not in text
    assert text.startswith("我目前無法完成這項操作")


def test_missing_permissions_names_them() -> None:
    text, outcome = describe(app_commands.MissingPermissions(["manage_guild"]), STRINGS, EN)
    assert outcome == "user_error"
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
        text, outcome = describe(wrapped, STRINGS, EN)
    assert outcome == "error"
    assert "secret internals" not in text
    (record,) = caplog.records
    error_id = record.getMessage().split()[-1]
    assert f"`{error_id}`" in text
    assert record.exc_info is not None
    assert record.exc_info[0] is ZeroDivisionError


async def _noop(interaction: discord.Interaction) -> None:
    """A callback for building commands in tests."""


CN = discord.Locale.chinese
NOTHING_CHANGED = {EN: "Nothing was changed", TW: "沒有任何變更", CN: "没有任何更改"}


@pytest.mark.parametrize(
    ("kind", "reason"),
    [
        (StoreBusy, {EN: "database is busy", TW: "資料庫目前忙碌中", CN: "数据库目前正忙"}),
        (StoreReadOnly, {EN: "database is read-only", TW: "唯讀", CN: "只读"}),
        (StoreFull, {EN: "disk is full", TW: "磁碟空間已滿", CN: "磁盘空间已满"}),
    ],
)
def test_a_refused_write_is_told_in_the_users_language(
    kind: type[WriteRefused], reason: dict[discord.Locale, str], caplog: pytest.LogCaptureFixture
) -> None:
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="x", description="x", callback=_noop
    )
    error = kind("the operator's reason")
    wrapped = app_commands.CommandInvokeError(command, error)
    for locale, words in reason.items():
        with caplog.at_level(logging.WARNING):
            text, outcome = describe(wrapped, STRINGS, locale)
        assert outcome == "fault"  # a clear answer, not an apology with an error id
        assert words in text
        assert NOTHING_CHANGED[locale] in text
        assert str(error) not in text  # the operator's English reason goes to the log
    assert [r.levelno for r in caplog.records] == [logging.WARNING] * 3
    assert all(str(error) in r.getMessage() for r in caplog.records)
