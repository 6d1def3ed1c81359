"""The command tree Discord holds is what the bot pushes (issue 12).

The tree was pushed only when its hash changed since the last push recorded in this database:
commands registered elsewhere (another deployment, a manual clean-up) were never pushed again.
Now a start asks Discord what it holds (one GET) and pushes when that differs; `laurel sync`
does the same on demand, and `laurel sync --force` pushes whatever Discord holds.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from bot.cli.sync import sync
from bot.domain.clock import SystemClock
from bot.errors import LaurelError
from bot.settings import load_settings
from bot.store.sqlite import SqliteDatabase
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.clock import ManualClock

PUT = "PUT /applications/{application_id}/commands"
GET = "GET /applications/{application_id}/commands"


async def test_a_start_pushes_again_when_discord_holds_another_tree(
    server: LocalDiscord, db: SqliteDatabase
) -> None:
    async with laurel_on(server, db, clock=SystemClock()):
        pass
    assert len(server.requests_to(PUT)) == 1
    async with laurel_on(server, db, clock=SystemClock()):  # unchanged: one look, no push
        pass
    assert len(server.requests_to(PUT)) == 1
    assert len(server.requests_to(GET)) == 1
    server.world.commands[None] = [c for c in server.world.commands[None] if c["name"] == "about"]
    async with laurel_on(server, db, clock=SystemClock()):  # removed elsewhere: pushed again
        pass
    assert len(server.requests_to(PUT)) == 2
    assert {c["name"] for c in server.world.commands[None]} >= {"about", "paper", "curate"}


@pytest.fixture
def sync_settings(
    server: LocalDiscord, db: SqliteDatabase, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no laurel.toml here
    monkeypatch.setenv("DISCORD_TOKEN", server.token)
    monkeypatch.setenv("LAUREL_DISCORD__API_BASE_URL", server.rest_url)
    monkeypatch.setenv("LAUREL_DISCORD__GATEWAY_URL", server.gateway_url)
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(db.path))


async def test_laurel_sync_pushes_what_discord_lacks_and_force_pushes_anyway(
    server: LocalDiscord, sync_settings: None, capsys: pytest.CaptureFixture[str]
) -> None:
    settings = load_settings(None)
    assert await sync(settings, argparse.Namespace(force=False, clock=ManualClock())) == 0
    assert len(server.requests_to(PUT)) == 1
    assert "pushed" in capsys.readouterr().out

    assert await sync(settings, argparse.Namespace(force=False, clock=ManualClock())) == 0
    assert len(server.requests_to(PUT)) == 1
    assert "Discord holds these commands already" in capsys.readouterr().out

    assert await sync(settings, argparse.Namespace(force=True, clock=ManualClock())) == 0
    assert len(server.requests_to(PUT)) == 2
    assert "pushed" in capsys.readouterr().out


async def test_laurel_sync_says_in_one_line_what_is_wrong(
    server: LocalDiscord, sync_settings: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-the-token")
    with pytest.raises(LaurelError, match=r"^Discord refused the token in DISCORD_TOKEN") as bad:
        await sync(load_settings(None), argparse.Namespace(force=False, clock=ManualClock()))
    assert "\n" not in str(bad.value)
    monkeypatch.setenv("DISCORD_TOKEN", server.token)
    monkeypatch.setenv("LAUREL_DISCORD__API_BASE_URL", "http://127.0.0.1:9/api/v10")
    with pytest.raises(
        LaurelError, match=r"^could not reach Discord at http://127\.0\.0\.1:9"
    ) as away:
        await sync(load_settings(None), argparse.Namespace(force=False, clock=ManualClock()))
    assert "\n" not in str(away.value)
    assert server.requests_to(PUT) == []
