"""The base of every persistent button (bot.commands.buttons): a press's error reaches the
central handler (a short private answer in the presser's language), and every press is counted
by its component and outcome, as commands are."""

from __future__ import annotations

import asyncio

import pytest

from bot.app import LaurelBot
from bot.settings import BackupSettings, MetricsSettings, Settings
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.interactions import EPHEMERAL
from tests.support.paper_views import custom_ids, show_picked


@pytest.fixture
def laurel_settings() -> Settings:
    """Metrics on (off, the default, they record nothing): the counts are what is tested."""
    return Settings(metrics=MetricsSettings(enabled=True), backups=BackupSettings(enabled=False))


async def _counted(bot: LaurelBot, component: str, outcome: str) -> float | None:
    """The press count, once the bot has counted it (just after it answered)."""
    labels = {"component": component, "outcome": outcome}
    for _ in range(300):
        value = bot.metrics.registry.get_sample_value("laurel_components_total", labels)
        if value is not None:
            return value
        await asyncio.sleep(0.01)
    return None


async def test_a_press_and_a_refused_press_are_answered_and_counted_apart(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    message = await show_picked(server, "masked")
    abstract = custom_ids(message)[0]
    assert abstract.startswith("paper:abstract:")
    shown = await (await server.press(message, abstract)).message()
    assert shown["embeds"][0]["title"]
    assert await _counted(laurel, "paper:abstract", "ok") == 1

    # A button on an old message, for a paper no longer in the catalogue.
    stored = server.driver.store.find(int(message["id"]))
    assert stored is not None
    forged = "paper:abstract:999999"
    stored.payload["components"][0]["components"][0]["custom_id"] = forged
    refused = await (await server.press(message, forged, locale="zh-TW")).message()
    assert refused["flags"] & EPHEMERAL
    assert refused["content"] == "論文 #999999 已不在目錄中。"
    assert await _counted(laurel, "paper:abstract", "user_error") == 1
    assert await _counted(laurel, "paper:abstract", "ok") == 1  # not counted twice

    timed = laurel.metrics.registry.get_sample_value(
        "laurel_component_duration_seconds_count", {"component": "paper:abstract"}
    )
    assert timed == 2
    # Presses are not commands: the command counter has no row for them.
    unknown = {"command": "unknown", "outcome": "ok"}
    assert laurel.metrics.registry.get_sample_value("laurel_commands_total", unknown) is None
