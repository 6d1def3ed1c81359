"""LaurelBot on the loopback Discord, per test: real discord.py, real SQLite, real commands.

At teardown a test fails if the bot sent anything Discord's spec or limits forbid, used a route
the stand-in does not know, the stand-in itself failed, or the bot logged an error.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.app import LaurelBot
from bot.localdiscord.config import Config
from bot.localdiscord.harness import laurel_on
from bot.localdiscord.limits import SpecValidatorProtocol
from bot.localdiscord.server import LocalDiscord
from bot.store.database import Database


@pytest.fixture
async def db(template_db: Path, tmp_path: Path) -> AsyncIterator[Database]:
    copy = tmp_path / "laurel.db"
    copy.write_bytes(template_db.read_bytes())
    async with await Database.open(copy) as database:
        yield database


@pytest.fixture
def config() -> Config:
    return Config(heartbeat_interval_ms=200)


@pytest.fixture
async def server(
    config: Config, spec_validator: SpecValidatorProtocol | None
) -> AsyncIterator[LocalDiscord]:
    local = await LocalDiscord(config=config, validator=spec_validator).start()
    try:
        yield local
    finally:
        await local.stop()
    assert local.errors == []
    assert [r.route for r in local.unhandled] == []
    assert [str(v) for v in local.violations] == []


@pytest.fixture
async def laurel(
    server: LocalDiscord, db: Database, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[LaurelBot]:
    caplog.set_level(logging.WARNING)
    async with laurel_on(server, db) as bot:
        yield bot
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == [], "the bot logged errors"
