"""A real DEBUG run of `laurel run` on the stand-in: discord.py logs every gateway payload and
every REST route at DEBUG, and not one interaction or webhook token reaches the log."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from tests.support.processes import GRACE, bot_env, control, run_bot, stand_in, until

# Answered at once (a callback), deferred and then edited or followed up (webhook routes).
COMMANDS: list[dict[str, Any]] = [
    {"name": "about"},
    {"name": "help"},
    {"name": "paper", "subcommand": "random"},
    {"name": "paper", "subcommand": "search", "options": {"query": "diffusion"}},
    {"name": "curate", "subcommand": "export", "options": {"format": "csv"}},
    {"name": "digest", "subcommand": "list"},
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize("form", ["text", "json"])
def test_no_interaction_token_reaches_a_debug_log(tmp_path: Path, form: str) -> None:
    log_path = tmp_path / "bot.log"  # a file, not a pipe: a DEBUG log would fill a pipe
    with stand_in() as stand:
        world = control(f"{stand.control}world")
        user = world["users"][0]["id"]
        env = bot_env(
            stand,
            tmp_path / "laurel.db",
            LAUREL_HEALTH__PORT=str(_free_port()),
            LAUREL_LOGGING__LEVEL="DEBUG",
            LAUREL_LOGGING__FORMAT=form,
            LAUREL_CURATION__USER_IDS=f"[{user}]",  # so that /curate answers it
        )
        with log_path.open("w") as log_file:
            bot = run_bot(env, stdout=None, stderr=log_file)
        try:
            until(lambda: "READY" in log_path.read_text() or bot.poll() is not None, "READY")
            assert bot.poll() is None, log_path.read_text()[-2000:]
            tokens = []
            for command in COMMANDS:
                body = {**command, "user_id": user, "wait": True, "timeout": GRACE}
                answered = control(f"{stand.control}interactions", body)
                tokens.append(answered["token"])
            # /curate export defers, then sends its file as a followup: a webhook route.
            requests = until(
                lambda: _with_webhooks(control(f"{stand.control}requests")), "a followup"
            )
            # The stand-in records a request when it arrives; discord.py logs it once answered.
            # Stopped before then, the bot never writes that line (seen once, under load).
            until(lambda: "/webhooks/" in log_path.read_text(), "the followup in the DEBUG log")
        finally:
            bot.terminate()
            bot.wait(timeout=GRACE)
    log = log_path.read_text()
    routes = " ".join(str(r["route"]) for r in requests)
    assert "INTERACTION_CREATE" in log  # the DEBUG log did show the gateway payloads
    assert "/callback" in log  # and the interaction routes
    assert "/webhooks/" in routes  # (a command did answer through a webhook route)
    assert "/webhooks/" in log
    for token in tokens:
        assert token not in log
        assert token[16:40] not in log  # no part of it either (past the common prefix)
    assert stand.token not in log


def _with_webhooks(answer: dict[str, Any]) -> list[dict[str, Any]] | None:
    found: list[dict[str, Any]] = answer["requests"]
    return found if any("/webhooks/" in str(r["route"]) for r in found) else None
