"""Slow answers are deferred in time and still arrive; fast ones are not deferred."""

from __future__ import annotations

import pytest

from bot.app import LaurelBot
from bot.settings import BackupSettings, DiscordSettings, Settings
from laurel_console.localdiscord.server import LocalDiscord

# Every piece of work counts as slow: it defers.
DEFERS_AT_ONCE = Settings(
    discord=DiscordSettings(defer_after_seconds=0.0), backups=BackupSettings(enabled=False)
)


async def test_a_fast_search_is_answered_without_a_deferral(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    interaction = await server.slash("paper", {"query": "attention"}, subcommand="search")
    message = await interaction.message()
    assert not interaction.deferred
    assert message["embeds"]


@pytest.mark.parametrize("laurel_settings", [DEFERS_AT_ONCE], ids=["deferring"])
@pytest.mark.parametrize(
    ("command", "options", "subcommand"),
    [
        ("paper", {"query": "attention"}, "search"),
        ("stats", {}, "institutions"),
        ("stats", {}, "authors"),
        ("stats", {"venue": "neurips", "year": 2024}, "edition"),  # a chart, as an attachment
        ("stats", {"year": 2024}, "compare"),
    ],
)
async def test_slow_work_is_deferred_then_answered(
    laurel: LaurelBot,
    server: LocalDiscord,
    command: str,
    options: dict[str, object],
    subcommand: str,
) -> None:
    interaction = await server.slash(command, options, subcommand=subcommand)
    message = await interaction.message()
    assert interaction.deferred
    assert message["embeds"]
    if subcommand in ("edition", "compare"):  # the chart arrives with the edit
        chart = {"edition": "trend.png", "compare": "compare.png"}[subcommand]
        assert [a["filename"] for a in message["attachments"]] == [chart]
