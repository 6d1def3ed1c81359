"""Every component the bot ever sent answers (issue 12, defect 13): an old Confirm or Cancel
after a restart (a history page button still turns its page), a second press of Confirm, a
form opened before a restart, and a forged button id (defect 12) each get a short private
answer in the presser's language, never Discord's silent "This interaction failed"."""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any

import pytest

import bot.commands
from bot.app import LaurelBot
from bot.commands.paper_buttons import PaperButton
from bot.domain.clock import SystemClock
from bot.render.i18n import Strings
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.interactions import Interaction
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import (
    FORM,
    MASKED_ARXIV,
    ada,
    curate,
    curators_writes,
    settings_for,
)
from tests.support.interactions import EPHEMERAL

# Every prefix of a custom_id the bot makes for a component that lives only in memory.
IN_MEMORY_PREFIXES = {"curate:confirm", "curate:cancel", "curate:again"}
LANGUAGES = {"en-US": "en", "zh-TW": "zh-TW", "zh-CN": "zh-CN"}


def custom_ids(message: dict[str, Any]) -> list[str]:
    return [str(c["custom_id"]) for row in message["components"] for c in row["components"]]


def prefix(custom_id: str) -> str:
    return ":".join(custom_id.split(":")[:2])


async def expired(interaction: Interaction, locale: str) -> None:
    answer = await interaction.message(timeout=3)
    assert answer["flags"] & EPHEMERAL
    want = Strings.load().text("component-expired", LANGUAGES[locale])  # type: ignore[arg-type]
    assert answer["content"] == want


@pytest.fixture
def quiet(caplog: pytest.LogCaptureFixture) -> pytest.LogCaptureFixture:
    caplog.set_level(logging.WARNING)
    return caplog


async def test_every_component_sent_before_a_restart_answers_after_it(
    server: LocalDiscord, db: Database, quiet: pytest.LogCaptureFixture
) -> None:
    await curators_writes(db, server)  # more writes than one history page holds
    async with laurel_on(server, db, settings_for(), clock=SystemClock()):
        preview = await (await curate(server, "paper remove", {"paper": MASKED_ARXIV})).message()
        history = await (await curate(server, "history")).message()
        form = await curate(server, "paper add", {"venue": "ICML", "year": 2025, "award": "best"})
        await form.response()
    sent = custom_ids(preview)
    assert {prefix(c) for c in sent} == IN_MEMORY_PREFIXES - {"curate:again"}  # a form's own
    _, following = custom_ids(history)  # the history's pages are persistent: Next still works
    async with laurel_on(server, db, settings_for(), clock=SystemClock()):
        for locale in LANGUAGES:
            for custom_id in sent:
                pressed = await server.press(preview, custom_id, user_id=ada(server), locale=locale)
                await expired(pressed, locale)
            await expired(await server.submit(form, FORM, locale=locale), locale)
        paged = await (await server.press(history, following, user_id=ada(server))).message()
        assert paged["embeds"][0]["footer"]["text"].startswith("Page 2 of ")
    assert await db.fetchone("SELECT 1 FROM papers WHERE title = ?", (FORM["title"],)) is None
    assert [r.getMessage() for r in quiet.records if r.levelno >= logging.ERROR] == []


async def test_a_second_press_of_confirm_is_answered_and_writes_nothing(
    server: LocalDiscord, db: Database, quiet: pytest.LogCaptureFixture
) -> None:
    async with laurel_on(server, db, settings_for(), clock=SystemClock()):
        preview = await (await curate(server, "paper remove", {"paper": MASKED_ARXIV})).message()
        confirm = next(c for c in custom_ids(preview) if c.startswith("curate:confirm"))
        first = await server.press(preview, confirm, user_id=ada(server))
        assert (await first.message())["embeds"][0]["title"] == "Removed"
        # A client still showing the old buttons (the edit not yet shown there) sends more presses.
        stored = server.driver.store.find(int(preview["id"]))
        assert stored is not None
        stored.payload["components"] = preview["components"]
        audit = await db.fetchone("SELECT count(*) FROM audit")
        for locale in LANGUAGES:
            for custom_id in custom_ids(preview):
                again = await server.press(preview, custom_id, user_id=ada(server), locale=locale)
                await expired(again, locale)
        assert tuple(await db.fetchone("SELECT count(*) FROM audit") or ()) == tuple(audit or ())
    assert [r.getMessage() for r in quiet.records if r.levelno >= logging.ERROR] == []


async def test_a_forged_button_id_past_the_largest_id_is_refused_cleanly(
    server: LocalDiscord, db: Database, quiet: pytest.LogCaptureFixture
) -> None:
    async with laurel_on(server, db, settings_for(), clock=SystemClock()):
        shown = await (
            await server.slash("paper", {"paper": MASKED_ARXIV}, subcommand="show")
        ).message()
        stored = server.driver.store.find(int(shown["id"]))
        assert stored is not None
        forged = "paper:open:9999999999999999999"
        stored.payload["components"][0]["components"][0]["custom_id"] = forged
        for locale in LANGUAGES:
            await expired(await server.press(shown, forged, locale=locale), locale)
    assert [r.getMessage() for r in quiet.records if r.levelno >= logging.ERROR] == []


# Strings in bot/commands shaped like a custom_id that are not one: the audit's actor.
NOT_CUSTOM_IDS = {"discord:"}


def prefixes_in_source() -> set[str]:
    """Every `word:word` (or `word:` before a placeholder) a string in bot/commands opens with."""
    found: set[str] = set()
    for path in Path(bot.commands.__file__).parent.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for match in re.finditer(r'[rf]{0,2}"([a-z]+:)([a-z]+|\{)', text):
            found.add(match[1] + ("" if match[2] == "{" else match[2]))
    return found - NOT_CUSTOM_IDS


async def test_every_custom_id_prefix_the_bot_makes_is_answered_after_a_restart(
    laurel: LaurelBot,
) -> None:
    """In memory (walked above after a restart), or a dynamic item that is registered again."""
    templates = [
        p.pattern
        for p in laurel._connection._view_store._dynamic_items  # no public list
    ]
    # A paper button's id is made from its class's action: each action is a prefix of its own.
    actions = {f"paper:{button.action}" for button in PaperButton.__subclasses__()}
    assert len(actions) == 5  # abstract, sources, another, similar, open
    made = prefixes_in_source() - {"paper:"} | actions
    assert len(made) >= 9
    for found in made:
        dynamic = any(t.startswith(found) for t in templates)
        assert dynamic or found in IN_MEMORY_PREFIXES, found
