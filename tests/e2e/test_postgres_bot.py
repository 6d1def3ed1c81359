"""Laurel on PostgreSQL, on the stand-in (issue 15): the same bot, the same commands, the
bundled catalogue loaded into PostgreSQL; a command answered, a digest posted once and not
again after a restart on the same database."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.domain.subscriptions import Subscription, Theme
from bot.settings import DigestSettings, SearchSettings, Settings
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.backends import open_postgres
from tests.support.clock import ManualClock
from tests.support.postgres import Copies, PostgresServer
from tests.support.processes import (
    GRACE,
    Stand,
    asked_about,
    bot_env,
    kill,
    run_bot,
    sync_count,
    until,
)

POST = "POST /channels/{channel_id}/messages"
NINE = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC)
SETTINGS = Settings(
    search=SearchSettings(in_memory=True),
    digests=DigestSettings(requests_per_second=None, retry_base_seconds=0.01),
)


@pytest.fixture
async def db(postgres_server: PostgresServer, postgres_bundled: Copies) -> AsyncIterator[Database]:
    """The bundled catalogue in a PostgreSQL database of this test's own (the stand-in's
    teardown reads it too)."""
    name = postgres_bundled.take()
    try:
        async with await open_postgres(postgres_server.url(name)) as database:
            yield database
    finally:
        postgres_server.drop_database(name)


async def test_the_bot_on_postgresql_answers_and_posts_a_digest_once(
    server: LocalDiscord, db: Database, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    clock = ManualClock(NINE - dt.timedelta(minutes=1))
    async with laurel_on(server, db, SETTINGS, clock=clock) as bot:
        interaction = await server.slash("about")
        (embed,) = (await interaction.message())["embeds"]
        assert "875 awards to 870 papers" in embed["fields"][0]["value"]

        found = await server.slash("paper", {"query": "attention"}, subcommand="search")
        assert (await found.message())["embeds"], "a search answered from the derived index"

        guild = server.world.default_guild()
        sub = await bot.subscriptions.add(
            Subscription.model_validate(
                {
                    "guild_id": guild.id,
                    "channel_id": server.channel("general").id,
                    "theme": Theme.PAPER_OF_THE_DAY,
                    "time": dt.time(9, 0),
                    "timezone": "UTC",
                    "created_by": guild.owner_id,
                    "created_at": clock.now(),
                }
            )
        )
        bot.digests.scheduled(sub)
        clock.set(NINE)
        await bot.digest_engine.run_due()
        assert sub.id is not None
        (row,) = await bot.digest_engine.ledger.of_subscription(sub.id)
        assert row.status == "sent", row.error
    # A restart on the same database, at the same minute: the ledger has the post already.
    async with laurel_on(server, db, SETTINGS, clock=clock) as again:
        await again.digest_engine.run_due()
    posts = [r for r in server.requests_to(POST) if r.path.endswith(f"/{sub.channel_id}/messages")]
    assert [p.body["nonce"] for p in posts] == [row.nonce]  # posted once, by the first run
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], "the bot logged errors"


def test_laurel_run_on_postgresql_loads_answers_refuses_a_second_and_survives_a_kill(
    stand: Stand, postgres_url: str, tmp_path: Path
) -> None:
    """`laurel run` with [database] url: it loads the bundled catalogue into the empty
    database, syncs once, answers; a second unsharded bot is refused by the advisory lock; the
    first, killed with SIGKILL, leaves no stale lock and starts again without pushing again."""
    env = bot_env(
        stand,
        tmp_path / "unused.db",
        LAUREL_DATABASE__URL=postgres_url,
        LAUREL_SEARCH__IN_MEMORY="true",
    )
    first = run_bot(env)
    try:
        until(lambda: sync_count(stand) == 1, "the first bot to sync its commands")
        assert asked_about(stand)["embeds"][0]["title"] == "Laurel"
        assert not (tmp_path / "unused.db").exists()  # the URL won over the path

        second = run_bot(env)
        _, err = second.communicate(timeout=GRACE)
        assert second.returncode == 1
        assert "already running on postgresql://" in err

        kill(first)
        first = run_bot(env)
        assert asked_about(stand)["embeds"][0]["title"] == "Laurel"
        assert sync_count(stand) == 1  # the tree it recorded in PostgreSQL was not pushed again
    finally:
        kill(first)
