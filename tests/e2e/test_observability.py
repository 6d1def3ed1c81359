"""The bot's /health and /metrics on 127.0.0.1, scraped while it runs on the stand-in."""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import logging
import math
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from prometheus_client import REGISTRY
from prometheus_client.parser import text_string_to_metric_families

from bot.app import LaurelBot
from bot.backups import JOB_ID
from bot.domain.clock import SystemClock
from bot.errors import UserError
from bot.observability.health import check_health
from bot.observability.server import OpsServer
from bot.settings import (
    BackupSettings,
    DatabaseSettings,
    HealthSettings,
    MetricsSettings,
    Settings,
)
from bot.store import migrations
from bot.store.sqlite import SqliteDatabase
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.digest_delivery import subscribe

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def _settings(*, metrics: bool = True) -> Settings:
    return Settings(
        health=HealthSettings(port=0),
        metrics=MetricsSettings(enabled=metrics, port=0),
    )


LATEST_SCHEMA = migrations.available()[-1].version


@pytest.fixture
async def laurel(
    server: LocalDiscord, db: SqliteDatabase, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[LaurelBot]:
    """The bot with metrics on, as one serving /metrics runs (off, it records none)."""
    settings = _settings().model_copy(update={"backups": BackupSettings(enabled=False)})
    async with laurel_on(server, db, settings, clock=SystemClock()) as bot:
        yield bot
    assert [r.getMessage() for r in caplog.get_records("call") if r.levelno >= logging.ERROR] == []


@pytest.fixture
async def ops(laurel: LaurelBot, db: SqliteDatabase) -> AsyncIterator[OpsServer]:
    server = OpsServer(_settings(), health=lambda: check_health(laurel, db), metrics=laurel.metrics)
    async with server:
        yield server


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def _scrape(ops: OpsServer) -> Samples:
    status, text = await _get(ops.urls["/metrics"])
    assert status == 200
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_a_served_command_is_counted_and_timed(
    laurel: LaurelBot, server: LocalDiscord, ops: OpsServer
) -> None:
    completed = asyncio.ensure_future(laurel.wait_for("app_command_completion", timeout=5))
    await (await server.slash("about")).message()
    await completed
    samples = await _scrape(ops)
    assert samples[("laurel_commands_total", (("command", "about"), ("outcome", "ok")))] == 1
    assert samples[("laurel_command_duration_seconds_count", (("command", "about"),))] == 1
    assert samples[("laurel_command_duration_seconds_sum", (("command", "about"),))] > 0
    assert samples[("laurel_guilds", ())] == len(laurel.guilds) >= 1
    latency = samples[("laurel_gateway_latency_seconds", ())]
    assert math.isnan(latency) or 0 <= latency < 5  # NaN until a heartbeat is acknowledged


async def test_a_users_mistake_and_a_bug_are_counted_apart(
    laurel: LaurelBot, server: LocalDiscord, ops: OpsServer, caplog: pytest.LogCaptureFixture
) -> None:
    @app_commands.command(name="oops", description="A mistake")
    async def oops(interaction: discord.Interaction) -> None:
        raise UserError("error-guild-only")

    @app_commands.command(name="boom", description="A bug")
    async def boom(interaction: discord.Interaction) -> None:
        raise RuntimeError("bug")

    laurel.tree.add_command(oops)
    laurel.tree.add_command(boom)
    await laurel.tree.sync()
    await (await server.slash("oops")).message()
    await (await server.slash("boom")).message()
    mistake = ("laurel_commands_total", (("command", "oops"), ("outcome", "user_error")))
    bug = ("laurel_commands_total", (("command", "boom"), ("outcome", "error")))
    samples = await _scrape(ops)  # the handler counts a failure before it answers
    assert samples[mistake] == samples[bug] == 1
    assert ("laurel_commands_total", (("command", "oops"), ("outcome", "ok"))) not in samples
    caplog.clear()  # the bug's traceback was the point


async def test_digest_metrics_and_the_pending_source_are_exposed(
    laurel: LaurelBot, ops: OpsServer
) -> None:
    pending = [3]

    async def count_pending() -> int:
        return pending[0]

    laurel.metrics.set_pending_source(count_pending)
    laurel.metrics.digest_posted("daily-paper")
    laurel.metrics.digest_posted("daily-paper")
    laurel.metrics.digest_failed("weekly-award")
    laurel.metrics.digest_late("daily-paper")
    samples = await _scrape(ops)
    assert samples[("laurel_digests_posted_total", (("theme", "daily-paper"),))] == 2
    assert samples[("laurel_digests_failed_total", (("theme", "weekly-award"),))] == 1
    assert samples[("laurel_digests_late_total", (("theme", "daily-paper"),))] == 1
    assert samples[("laurel_ledger_pending", ())] == 3
    pending[0] = 0
    assert (await _scrape(ops))[("laurel_ledger_pending", ())] == 0  # read at every scrape
    # The bot's metrics live in its own registry, not the process-wide default one.
    assert REGISTRY.get_sample_value("laurel_ledger_pending") is None


async def test_health_is_live_then_not_once_the_bot_closes(
    laurel: LaurelBot, db: SqliteDatabase, ops: OpsServer
) -> None:
    status, body = await _get(ops.urls["/health"])
    assert status == 200
    report: dict[str, Any] = json.loads(body)
    assert report["status"] == "ok"
    assert report["checks"]["store"] == {"ok": True, "detail": f"schema {LATEST_SCHEMA}"}
    assert report["guilds"] == len(laurel.guilds)
    await laurel.close()
    status, body = await _get(ops.urls["/health"])
    assert status == 503
    assert "gateway: not connected" in body


async def test_health_reports_a_closed_store(laurel: LaurelBot, db: SqliteDatabase) -> None:
    await db.close()
    report = await check_health(laurel, db)
    assert not report.healthy
    assert report.reason() == "store: StoreError: the database is closed"


async def test_metrics_off_serves_health_alone_and_one_address_serves_both(
    laurel: LaurelBot, db: SqliteDatabase
) -> None:
    health = lambda: check_health(laurel, db)  # noqa: E731
    async with OpsServer(_settings(metrics=False), health=health, metrics=laurel.metrics) as alone:
        assert set(alone.urls) == {"/health"}
        assert (await _get(alone.urls["/health"]))[0] == 200
    async with OpsServer(_settings(), health=health, metrics=laurel.metrics) as first:
        port = int(first.urls["/health"].rsplit(":", 1)[1].split("/")[0])
    shared = Settings(
        health=HealthSettings(port=port), metrics=MetricsSettings(enabled=True, port=port)
    )
    async with OpsServer(shared, health=health, metrics=laurel.metrics) as both:
        assert both.urls["/health"].replace("/health", "/metrics") == both.urls["/metrics"]
        assert (await _get(both.urls["/metrics"]))[0] == 200


async def test_the_bot_schedules_its_backups_at_setup(
    server: LocalDiscord, db: SqliteDatabase, tmp_path: Path
) -> None:
    settings = Settings(
        database=DatabaseSettings(path=db.path, backup_dir=tmp_path / "backups"),
        backups=BackupSettings(interval_hours=12),
    )
    async with laurel_on(server, db, settings, clock=SystemClock()) as bot:
        assert bot.scheduler is not None  # the system clock: a live scheduler
        job = bot.scheduler.get_job(JOB_ID)
        assert job.trigger.interval == dt.timedelta(hours=12)
        assert str(job.trigger.timezone) == "UTC"
    async with laurel_on(
        server, db, clock=SystemClock()
    ) as bot:  # a harness run without settings keeps none
        assert bot.scheduler is not None
        assert bot.scheduler.get_job(JOB_ID) is None


async def test_a_posted_digest_is_counted_and_pending_reads_the_ledger(
    laurel: LaurelBot, server: LocalDiscord, ops: OpsServer
) -> None:
    guild = server.world.default_guild()
    sub = await subscribe(laurel, server, "general")
    posted = ("laurel_digests_posted_total", (("theme", "paper-of-the-day"),))
    assert posted not in await _scrape(ops)
    result = await laurel.digests.post_now(sub, requested_by=guild.owner_id)
    assert result.status == "sent"
    samples = await _scrape(ops)
    assert samples[posted] == 1
    assert samples[("laurel_ledger_pending", ())] == 0
    assert len(server.messages("general")) == 1
