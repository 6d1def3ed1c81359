"""Several processes starting together on one database (shard clusters) push the command tree
once: the one holding the database's lease pushes; the others leave it to that one."""

from __future__ import annotations

import asyncio
import logging

import pytest

from bot.app import COMMAND_SYNC_LEASE
from bot.settings import BackupSettings, SearchSettings, Settings
from bot.store.bot_state import BotStateRepository
from bot.store.database import Database
from bot.store.sqlite import SqliteDatabase
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.backends import open_sqlite
from tests.support.clock import ManualClock

PUT = "PUT /applications/{application_id}/commands"


async def test_two_bots_starting_together_on_one_database_push_the_tree_once(
    server: LocalDiscord, db: SqliteDatabase, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot.app")
    # Discord takes a second over the push: the other process reaches its own sync while the
    # first push is in flight, before the first recorded it. Without the lease both push.
    server.inject("delay", route=PUT, seconds=1.0, times=None)
    other = await open_sqlite(db.path)  # the second process's own connections
    both_up = asyncio.Barrier(2)

    # Both answer search from FTS5: two processes building one derived index beside one database
    # make their starts seconds apart (one waits on the index, the other finds it locked), and
    # the second then reaches its sync after the first push is over, which is not what this
    # test is about.
    settings = Settings(backups=BackupSettings(enabled=False), search=SearchSettings(engine="fts5"))

    async def one_bot(database: Database) -> None:
        async with laurel_on(server, database, settings, clock=ManualClock()):
            await both_up.wait()  # both ran their setup (the sync) before either stops

    try:
        await asyncio.wait_for(asyncio.gather(one_bot(db), one_bot(other)), timeout=30)
    finally:
        await other.close()

    assert len(server.requests_to(PUT)) == 1
    assert {c["name"] for c in server.world.commands[None]} >= {"about", "paper", "curate"}
    messages = [r.getMessage() for r in caplog.records if r.name == "bot.app"]
    assert sum("command tree synced" in m for m in messages) == 1
    assert sum("is syncing the command tree; not syncing" in m for m in messages) == 1
    # The lease was given up once pushed: a later start takes it (and finds nothing to push).
    assert await BotStateRepository(db).get("lease:" + COMMAND_SYNC_LEASE) is None
