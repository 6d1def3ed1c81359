"""Answering a slash command while Discord misbehaves: the first answer (the interaction
callback) and the answer that completes a deferral, under 429s, 5xx before and after the
store, slow answers, 403 and 404. Each case: the user sees one answer (or, where Discord itself
dropped the interaction, nothing and no stray message), never two."""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.app import LaurelBot
from bot.settings import BackupSettings, DiscordSettings, Settings
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.interactions import CALLBACK, settled

ANSWER = "answer"
COMPLETE = "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
Checked = Any  # the `checked` fixture: a callable taking one string


def visible(server: LocalDiscord) -> list[dict[str, Any]]:
    """Every message in #general, where the commands are issued."""
    return server.messages("general")


def statuses(server: LocalDiscord, route: str) -> list[int]:
    return [r.status for r in server.requests_to(route)]


async def about(server: LocalDiscord) -> list[dict[str, Any]]:
    await server.slash("about")
    await settled(server)
    return visible(server)


# -- the first answer ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("fault", "options", "seen"),
    [
        pytest.param(
            "rate_limit",
            {"route": CALLBACK, "retry_after": 0.05},
            [429, 200],
            marks=pytest.mark.fault(ANSWER, "429 on the route"),
            id="429-route",
        ),
        pytest.param(
            "global_rate_limit",
            {"retry_after": 0.05},
            [429, 200],
            marks=pytest.mark.fault(ANSWER, "429 global"),
            id="429-global",
        ),
        pytest.param(
            "server_error",
            {"route": CALLBACK, "status": 503},
            [503, 200],
            marks=pytest.mark.fault(ANSWER, "503 before the store"),
            id="5xx-before",
        ),
        pytest.param(
            "delay",
            {"route": CALLBACK, "seconds": 0.3, "after_store": True},
            [200],
            marks=pytest.mark.fault(ANSWER, "slow answer (0.3 s after the store)"),
            id="slow",
        ),
    ],
)
async def test_the_answer_arrives_once(
    laurel: LaurelBot,
    server: LocalDiscord,
    checked: Checked,
    fault: str,
    options: dict[str, Any],
    seen: list[int],
) -> None:
    server.inject(fault, **options)
    (answer,) = await about(server)
    assert answer["embeds"][0]["title"]
    assert statuses(server, CALLBACK) == seen
    checked(f"callbacks {seen}; one answer, the /about embed")


@pytest.mark.fault(ANSWER, "500 after the store")
async def test_a_5xx_after_the_store_leaves_one_answer(
    laurel: LaurelBot, server: LocalDiscord, checked: Checked, expected_errors: list[str]
) -> None:
    server.inject("server_error", route=CALLBACK, status=500, after_store=True)
    (answer,) = await about(server)
    assert answer["embeds"][0]["title"]
    assert statuses(server, CALLBACK)[:2] == [500, 400]  # the retry: already acknowledged
    checked(f"callbacks {statuses(server, CALLBACK)}; one answer, no apology after it")


@pytest.mark.fault(ANSWER, "404 unknown interaction (Discord too slow)")
async def test_an_interaction_that_expired_in_transit_leaves_nothing(
    laurel: LaurelBot, server: LocalDiscord, checked: Checked, caplog: pytest.LogCaptureFixture
) -> None:
    server.config.interaction_window = 0.1
    server.inject("delay", route=CALLBACK, seconds=0.2)
    assert await about(server) == []
    codes = [r.response["code"] for r in server.requests_to(CALLBACK)]
    assert codes == [10062]  # the answer too late; no apology tried after it
    expired = [r for r in caplog.records if "expired before the bot answered" in r.getMessage()]
    assert [r.levelno for r in expired] == [logging.WARNING]  # a fault of load, not a bug
    checked("10062 for the answer; no apology tried; nothing posted; logged as a warning")


@pytest.mark.parametrize(
    ("kind", "status"),
    [
        pytest.param("missing_access", 403, marks=pytest.mark.fault(ANSWER, "403 once"), id="403"),
        pytest.param("unknown_channel", 404, marks=pytest.mark.fault(ANSWER, "404 once"), id="404"),
    ],
)
async def test_a_refused_answer_is_replaced_by_an_apology(
    laurel: LaurelBot,
    server: LocalDiscord,
    checked: Checked,
    expected_errors: list[str],
    kind: str,
    status: int,
) -> None:
    server.inject(kind, route=CALLBACK)
    expected_errors.append("unexpected error")
    (apology,) = await about(server)
    assert "error" in apology["content"].lower()
    assert apology["flags"] & 64  # ephemeral: only the user sees it
    assert statuses(server, CALLBACK) == [status, 200]
    checked(f"callbacks [{status}, 200]; one ephemeral apology with an error id")


@pytest.mark.fault(ANSWER, "403 every time")
async def test_no_answer_possible_posts_nothing(
    laurel: LaurelBot, server: LocalDiscord, checked: Checked, expected_errors: list[str]
) -> None:
    server.inject("missing_access", route=CALLBACK, times=None)
    expected_errors.append("unexpected error")
    assert await about(server) == []
    assert statuses(server, CALLBACK) == [403, 403]
    checked("the answer and the apology refused; nothing posted; logged with an error id")


# -- completing a deferral ---------------------------------------------------------------------
# Every search counts as slow: it defers.
DEFERS_AT_ONCE = Settings(
    discord=DiscordSettings(defer_after_seconds=0.0), backups=BackupSettings(enabled=False)
)
deferring = pytest.mark.parametrize("laurel_settings", [DEFERS_AT_ONCE], ids=["deferring"])


async def deferred_search(server: LocalDiscord) -> Any:
    interaction = await server.slash("paper", {"query": "attention"}, subcommand="search")
    await settled(server)
    assert interaction.deferred
    return interaction


@pytest.mark.parametrize(
    ("fault", "options", "seen"),
    [
        pytest.param(
            "rate_limit",
            {"route": COMPLETE, "retry_after": 0.05},
            [429, 200],
            marks=pytest.mark.fault("deferred answer", "429 on the route"),
            id="429-route",
        ),
        pytest.param(
            "global_rate_limit",
            {"route": COMPLETE, "retry_after": 0.05},
            [429, 200],
            marks=pytest.mark.fault("deferred answer", "429 global"),
            id="429-global",
        ),
        pytest.param(
            "server_error",
            {"route": COMPLETE, "status": 502},
            [502, 200],
            marks=pytest.mark.fault("deferred answer", "502 before the store"),
            id="5xx-before",
        ),
        pytest.param(
            "server_error",
            {"route": COMPLETE, "status": 500, "after_store": True},
            [500, 200],
            marks=pytest.mark.fault("deferred answer", "500 after the store"),
            id="5xx-after",
        ),
        pytest.param(
            "delay",
            {"route": COMPLETE, "seconds": 0.3, "after_store": True},
            [200],
            marks=pytest.mark.fault("deferred answer", "slow answer (0.3 s after the store)"),
            id="slow",
        ),
    ],
)
@deferring
async def test_the_deferred_answer_arrives_once(
    laurel: LaurelBot,
    server: LocalDiscord,
    checked: Checked,
    fault: str,
    options: dict[str, Any],
    seen: list[int],
) -> None:
    server.inject(fault, **options)
    interaction = await deferred_search(server)
    (answer,) = visible(server)
    assert answer["id"] == str(interaction.original_id)
    assert answer["embeds"]
    assert not answer["flags"] & 128  # no longer "thinking" (LOADING)
    assert interaction.followups == []
    assert statuses(server, COMPLETE) == seen
    checked(f"edits {seen}; one answer in place of the 'thinking' message, no followup")


@pytest.mark.parametrize(
    ("kind", "status"),
    [
        pytest.param(
            "missing_access",
            403,
            marks=pytest.mark.fault("deferred answer", "403 once"),
            id="403",
        ),
        pytest.param(
            "unknown_channel",
            404,
            marks=pytest.mark.fault("deferred answer", "404 once"),
            id="404",
        ),
    ],
)
@deferring
async def test_a_refused_deferred_answer_becomes_an_apology(
    laurel: LaurelBot,
    server: LocalDiscord,
    checked: Checked,
    expected_errors: list[str],
    kind: str,
    status: int,
) -> None:
    server.inject(kind, route=COMPLETE)
    expected_errors.append("unexpected error")
    interaction = await deferred_search(server)
    (apology,) = visible(server)
    assert apology["id"] == str(interaction.original_id)
    assert "error" in apology["content"].lower()
    assert statuses(server, COMPLETE)[0] == status
    checked(f"edit {status}; the 'thinking' message becomes one apology with an error id")
