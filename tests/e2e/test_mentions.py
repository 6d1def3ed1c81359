"""No message the bot sends can ping anyone it must not: a walk through every registered
command, every button, select menu and form the answers carry, and a digest with an opted-in
role, checked on the stand-in's recorded payloads (tests/support/mentions.py).

The walk is built from what the bot registered, not from a list here: a new command, option or
button is walked (and checked) without a new test. The same check runs at the teardown of every
test of Laurel on the stand-in (tests/conftest.py, `server`), so the digests' notices, pauses and
retries in the other tests are held to it too.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.settings import ArxivSettings, BackupSettings, Settings
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.config import Config
from laurel_console.localdiscord.interactions import Interaction
from laurel_console.localdiscord.server import LocalDiscord
from laurel_console.localdiscord.state import Channel
from tests.support.mentions import (
    OptInHistory,
    count_messages,
    message_payloads,
    opted_in_roles,
    unsafe_messages,
)

SUBCOMMAND, GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
)
BUTTON, STRING_SELECT, TEXT_INPUT, LINK = 2, 3, 4, 5
SAMPLE_TEXT = "attention"  # finds papers, names nothing: a plausible answer to any text option
OPTED_IN_ROLE = "Member"


@pytest.fixture
def config() -> Config:
    """A long answer window: the walk is about what answers carry, not how fast they come
    (other tests hold the bot to Discord's 3 s), and a loaded machine must not fail it."""
    return Config(heartbeat_interval_ms=200, interaction_window=90.0)


@pytest.fixture
async def walker_bot(
    server: LocalDiscord, db: Database, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[LaurelBot]:
    caplog.set_level(logging.WARNING)
    # arXiv unreachable on purpose (port 9): curating from arXiv answers with its error.
    settings = Settings(
        arxiv=ArxivSettings(
            base_url="http://127.0.0.1:9/api/query", min_interval_seconds=0, retries=0
        ),
        backups=BackupSettings(enabled=False),
    )
    async with laurel_on(server, db, settings, clock=SystemClock()) as bot:
        yield bot


def leaves(command: dict[str, Any]) -> Iterator[tuple[list[str], list[dict[str, Any]]]]:
    """(subcommand path, option definitions) of every invocable leaf of a registered command."""

    def walk(path: list[str], options: list[dict[str, Any]]) -> Iterator[Any]:
        nested = [o for o in options if o["type"] in (SUBCOMMAND, GROUP)]
        if not nested:
            yield path, options
        for option in nested:
            yield from walk([*path, option["name"]], option.get("options", []))

    yield from walk([], command.get("options", []))


def channel_of_type(server: LocalDiscord, types: list[int] | None) -> Channel:
    guild = server.world.default_guild()
    channels = sorted(guild.channels.values(), key=lambda c: c.id)
    return next(c for c in channels if not types or c.type in types)


async def sample_options(
    server: LocalDiscord, name: str, path: list[str], definitions: list[dict[str, Any]], user: int
) -> dict[str, object]:
    """A value for every required option, and the opted-in role for any role option: choices
    and autocomplete as the bot offers them, the rest from the option's type and limits."""
    given: dict[str, object] = {}
    for definition in definitions:
        kind, option = definition["type"], definition["name"]
        if not definition.get("required") and kind != ROLE:
            continue
        if definition.get("choices"):
            given[option] = definition["choices"][0]["value"]
        elif definition.get("autocomplete") and (
            offered := await server.autocomplete(
                name, {**given, option: ""}, option, subcommand=path, user_id=user
            )
        ):
            given[option] = offered[0]["value"]
        elif kind == STRING:
            given[option] = SAMPLE_TEXT[: definition.get("max_length", 100)]
        elif kind in (INTEGER, NUMBER):
            low, high = definition.get("min_value"), definition.get("max_value")
            value = 2024 if low is None else low
            given[option] = value if high is None else min(value, high)
        elif kind == BOOLEAN:
            given[option] = False
        elif kind == USER:
            given[option] = "grace"
        elif kind == CHANNEL:
            given[option] = channel_of_type(server, definition.get("channel_types")).id
        elif kind in (ROLE, MENTIONABLE):
            given[option] = OPTED_IN_ROLE
        elif kind == ATTACHMENT:
            given[option] = ("catalogue.toml", b'[[venues]]\nslug = "x"\n')
    return given


async def settled(server: LocalDiscord, interaction: Interaction) -> None:
    """The bot answered `interaction` and finished whatever the answer started."""
    await interaction.response(timeout=60)
    current = asyncio.current_task()
    while running := [
        t
        for t in asyncio.all_tasks()
        if t is not current
        and not t.done()
        and (t.get_name() == "CommandTree-invoker" or t.get_name().startswith("discord-ui-"))
    ]:
        await asyncio.wait(running, timeout=60)


def next_component(server: LocalDiscord, message_id: int, seen: set[str]) -> dict[str, Any] | None:
    """A button or menu not yet tried on the message as it is now (an answer may have
    changed it), or None."""
    stored = server.store.find(message_id)
    rows: list[dict[str, Any]] = [] if stored is None else stored.payload.get("components", [])
    component: dict[str, Any]
    for component in (c for row in rows for c in row.get("components", [row])):
        if component.get("custom_id") in seen or component.get("disabled"):
            continue
        if component.get("type") == BUTTON and "custom_id" in component:
            return component
        if component.get("type") == STRING_SELECT and component.get("options"):
            return component
    return None


def answers(server: LocalDiscord, interaction: Interaction) -> list[dict[str, Any]]:
    """The messages the bot answered `interaction` with: the original response, followups."""
    found = interaction.followups
    if interaction.original_id is not None:
        stored = server.store.find(interaction.original_id)
        if stored is not None:
            found.insert(0, stored.payload)
    return found


def form_values(modal: dict[str, Any]) -> dict[str, str]:
    """Something in every required text field of a form, within its limits."""
    fields = {}
    for top in modal.get("components", []):
        inner = top.get("components") or [top.get("component", {})]
        for item in inner:
            if item.get("type") == TEXT_INPUT and item.get("required", True):
                fields[item["custom_id"]] = SAMPLE_TEXT.ljust(item.get("min_length", 1), "x")[
                    : item.get("max_length", 4000)
                ]
    return fields


async def follow(
    server: LocalDiscord, interaction: Interaction, user: int, seen: set[str], depth: int
) -> int:
    """Press every button, pick in every menu and fill every form the answer brings, `depth`
    levels down; each component once. Returns how many interactions it made."""
    await settled(server, interaction)
    made = 0
    if interaction.modal is not None:
        submitted = await server.submit(interaction, form_values(interaction.modal))
        return 1 + await follow(server, submitted, user, seen, depth)
    if depth == 0:
        return 0
    for message_id in [int(m["id"]) for m in answers(server, interaction)]:
        while (component := next_component(server, message_id, seen)) is not None:
            custom_id, kind = component["custom_id"], component["type"]
            seen.add(custom_id)
            if kind == BUTTON:
                pressed = await server.press(message_id, custom_id, user_id=user)
            else:
                value = component["options"][0]["value"]
                pressed = await server.choose(message_id, custom_id, [value], user_id=user)
            made += 1 + await follow(server, pressed, user, seen, depth - 1)
    return made


async def test_no_message_the_bot_sends_can_ping_anyone_it_must_not(
    walker_bot: LaurelBot,
    server: LocalDiscord,
    db: Database,
    laurels_db: tuple[Database, OptInHistory] | None,
) -> None:
    owner = server.world.find_user("ada").id  # owns the guild and the application: may do all
    member = server.world.find_user("grace").id  # may do little: the refusals are walked too
    registered = server.commands.list_for(None) + server.commands.list_for(
        server.world.default_guild().id
    )
    walked: list[str] = []
    components = 0
    for user in (owner, member):
        seen: set[str] = set()
        for command in sorted(registered, key=lambda c: c["name"]):
            if command.get("type", 1) != 1:
                continue
            # Removing and undoing last, so that what they remove was there to be walked first.
            for path, definitions in sorted(
                leaves(command), key=lambda leaf: leaf[0][-1:] in (["remove"], ["undo"])
            ):
                options = await sample_options(server, command["name"], path, definitions, user)
                issued = await server.slash(command["name"], options, subcommand=path, user_id=user)
                components += await follow(server, issued, user, seen, depth=2)
                walked.append(" ".join([command["name"], *path]))

    checked = count_messages(server.requests)
    role = server.world.find_role(OPTED_IN_ROLE).id
    assert laurels_db is not None
    opted_in = await opted_in_roles(db, laurels_db[1])
    assert unsafe_messages(server.requests, opted_in) == []
    # The walk reached what matters: the whole tree (each leaf as both users), the buttons
    # and forms, and a digest posted with its opted-in role allowed to be pinged.
    assert {"digest subscribe", "digest post-now", "curate paper add", "paper show"} <= set(walked)
    assert len(walked) == 2 * sum(len(list(leaves(c))) for c in registered if c.get("type", 1) == 1)
    assert components >= 5, components
    assert checked >= len(walked)
    role_posts = [
        payload
        for request in server.requests
        for payload in message_payloads(request)
        if role in {int(r) for r in payload["allowed_mentions"].get("roles", [])}
    ]
    assert role_posts, "no digest was posted with its opted-in role"
