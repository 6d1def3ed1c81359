"""Discord's limits, command registry and building blocks, without a network."""

from __future__ import annotations

import time
from datetime import UTC, datetime
from typing import Any

import pytest

from laurel_console.localdiscord.commands import CommandRegistry
from laurel_console.localdiscord.faults import Fault, TokenBucket
from laurel_console.localdiscord.limits import check_limits
from laurel_console.localdiscord.state import Snowflakes, default_world, snowflake_time

MESSAGE = ("POST", "/channels/{channel_id}/messages")
COMMANDS = ("PUT", "/applications/{application_id}/commands")
CALLBACK = ("POST", "/interactions/{interaction_id}/{interaction_token}/callback")


def problems(route: tuple[str, str], body: Any) -> list[tuple[tuple[str | int, ...], str]]:
    return [(tuple(path), code) for path, code, _ in check_limits(*route, body)]


def command(name: str = "paper", description: str = "Find a paper", **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": description, "type": 1, **extra}


@pytest.mark.parametrize("name", ["paper", "best-paper_2025", "论文", "नमस्ते", "สวัสดี", "ü"])
def test_valid_command_names(name: str) -> None:
    assert problems(COMMANDS, [command(name)]) == []


@pytest.mark.parametrize("name", ["Paper", "two words", "", "x" * 33, "emoji🏆", "dot.name"])
def test_invalid_command_names(name: str) -> None:
    assert problems(COMMANDS, [command(name)])[0][0] == (0, "name")


def test_command_descriptions_options_and_choices() -> None:
    assert problems(COMMANDS, [command(description="")]) == [
        ((0, "description"), "BASE_TYPE_MIN_LENGTH")
    ]
    assert problems(COMMANDS, [command(description="d" * 101)])[0][0] == (0, "description")
    option = {"name": "venue", "description": "Venue", "type": 3}
    many = [{**option, "name": f"o{i}"} for i in range(26)]
    assert problems(COMMANDS, [command(options=many)]) == [((0, "options"), "BASE_TYPE_MAX_LENGTH")]
    choices = [{"name": f"c{i}", "value": f"c{i}"} for i in range(26)]
    found = problems(COMMANDS, [command(options=[{**option, "choices": choices}])])
    assert found == [((0, "options", 0, "choices"), "BASE_TYPE_MAX_LENGTH")]
    order = [{**option, "name": "a"}, {**option, "name": "b", "required": True}]
    found = problems(COMMANDS, [command(options=order)])
    assert found == [((0, "options", 1), "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID")]
    group = {
        "name": "award",
        "description": "Awards",
        "type": 2,
        "options": [{"name": "Bad", "description": "x", "type": 1}],
    }
    found = problems(COMMANDS, [command(options=[group])])
    assert found == [((0, "options", 0, "options", 0, "name"), "APPLICATION_COMMAND_INVALID_NAME")]


def test_user_commands_may_have_spaces_and_capitals() -> None:
    assert problems(COMMANDS, [{"name": "Show Paper", "type": 2, "description": ""}]) == []


def test_message_limits() -> None:
    assert problems(MESSAGE, {"content": "x" * 2000}) == []
    assert problems(MESSAGE, {"content": "x" * 2001}) == [(("content",), "BASE_TYPE_MAX_LENGTH")]
    assert problems(MESSAGE, {"content": "x", "nonce": "n" * 26})[0][0] == ("nonce",)
    assert problems(MESSAGE, {"embeds": [{"title": "t"}] * 11})[0][0] == ("embeds",)
    embed = {
        "title": "t" * 257,
        "description": "d" * 4097,
        "footer": {"text": "f" * 2049},
        "author": {"name": "a" * 257},
        "fields": [{"name": "", "value": "v" * 1025}],
    }
    paths = {path for path, _ in problems(MESSAGE, {"embeds": [embed]})}
    assert paths == {
        ("embeds", 0, "title"),
        ("embeds", 0, "description"),
        ("embeds", 0, "footer", "text"),
        ("embeds", 0, "author", "name"),
        ("embeds", 0, "fields", 0, "name"),
        ("embeds", 0, "fields", 0, "value"),
        ("embeds",),
    }
    fields = [{"name": "n", "value": "v"}] * 26
    assert problems(MESSAGE, {"embeds": [{"fields": fields}]}) == [
        (("embeds", 0, "fields"), "BASE_TYPE_MAX_LENGTH")
    ]


def test_callback_limits() -> None:
    choices = [{"name": "n", "value": "v"}] * 26
    assert problems(CALLBACK, {"type": 8, "data": {"choices": choices}}) == [
        (("data", "choices"), "BASE_TYPE_MAX_LENGTH")
    ]
    assert problems(CALLBACK, {"type": 4, "data": {"content": "x" * 2001}}) == [
        (("data", "content"), "BASE_TYPE_MAX_LENGTH")
    ]
    modal = {"custom_id": "m", "title": "t" * 46, "components": []}
    assert problems(CALLBACK, {"type": 9, "data": modal}) == [
        (("data", "title"), "BASE_TYPE_MAX_LENGTH")
    ]


def test_registry_keeps_ids_and_versions_of_unchanged_commands() -> None:
    registry = CommandRegistry(default_world())
    first = registry.overwrite(None, [command("paper"), command("stats", "Stats")])
    second = registry.overwrite(None, [command("paper"), command("stats", "New stats")])
    assert [c["id"] for c in first] == [c["id"] for c in second]
    assert first[0]["version"] == second[0]["version"]
    assert first[1]["version"] != second[1]["version"]
    third = registry.overwrite(None, [command("venue", "Venues")])
    assert third[0]["id"] not in {c["id"] for c in first}
    assert [c["name"] for c in registry.list_for(None)] == ["venue"]


def test_snowflakes_are_time_based_and_increasing() -> None:
    ids = Snowflakes()
    made = [ids.next() for _ in range(5000)]
    assert made == sorted(set(made))
    assert abs((snowflake_time(made[0]) - datetime.now(UTC)).total_seconds()) < 5


def test_fault_descriptions_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown fault kind"):
        Fault.from_json({"kind": "meteor"})
    with pytest.raises(ValueError, match="unknown fault fields"):
        Fault.from_json({"kind": "rate_limit", "sometimes": True})
    with pytest.raises(ValueError, match="only a server_error"):
        Fault("rate_limit", after_store=True)
    fault = Fault.from_json({"kind": "unknown_channel", "channel_id": "42", "times": None})
    assert fault.matches("GET /channels/{channel_id}", 42)
    assert not fault.matches("GET /channels/{channel_id}", 43)


def test_token_bucket() -> None:
    bucket = TokenBucket(rate=1000.0, burst=2)
    assert bucket.take() == 0.0
    assert bucket.take() == 0.0
    wait = bucket.take()
    assert 0 < wait <= 0.001
    time.sleep(0.002)  # the bucket refills on the wall clock; 2 ms is its whole point here
    assert bucket.take() == 0.0
