"""Metrics on their own: separate registries, sources read at scrape time, a clear bind error."""

from __future__ import annotations

import datetime as dt
import math
import socket

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.errors import LaurelError
from bot.observability.health import Check, HealthReport
from bot.observability.metrics import Metrics
from bot.observability.server import OpsServer
from bot.settings import HealthSettings, MetricsSettings, Settings


def _values(text: bytes) -> dict[str, float]:
    return {
        s.name: s.value
        for family in text_string_to_metric_families(text.decode())
        for s in family.samples
        if not s.labels
    }


async def test_two_bots_count_apart_and_unknown_gauges_read_nan() -> None:
    first, second = Metrics(), Metrics()
    first.digest_posted("daily")
    assert first.registry.get_sample_value("laurel_digests_posted_total", {"theme": "daily"}) == 1
    assert (
        second.registry.get_sample_value("laurel_digests_posted_total", {"theme": "daily"}) is None
    )
    values = _values(await second.render())
    assert math.isnan(values["laurel_ledger_pending"])  # no source connected yet
    assert math.isnan(values["laurel_gateway_latency_seconds"])


async def test_gateway_sources_are_read_when_scraped() -> None:
    metrics = Metrics()
    state = {"latency": math.inf, "guilds": 0}
    metrics.watch_gateway(lambda: state["latency"], lambda: int(state["guilds"]))
    assert math.isnan(_values(await metrics.render())["laurel_gateway_latency_seconds"])
    state.update(latency=0.042, guilds=7)
    values = _values(await metrics.render())
    assert values["laurel_gateway_latency_seconds"] == 0.042
    assert values["laurel_guilds"] == 7


async def test_a_failing_pending_source_reads_nan_and_the_scrape_still_answers(
    caplog: pytest.LogCaptureFixture,
) -> None:
    metrics = Metrics()

    async def broken() -> int:
        raise RuntimeError("ledger unavailable")

    metrics.set_pending_source(broken)
    metrics.digest_failed("weekly")
    values = _values(await metrics.render())
    assert math.isnan(values["laurel_ledger_pending"])
    assert "could not count pending ledger rows" in caplog.text


async def test_a_taken_port_is_a_clear_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        settings = Settings(health=HealthSettings(port=port), metrics=MetricsSettings())

        async def health() -> HealthReport:
            ok = Check(True, "")
            return HealthReport(ok, ok, ok, 0, None)

        server = OpsServer(settings, health=health, metrics=Metrics())
        with pytest.raises(LaurelError, match=rf"cannot listen on 127.0.0.1:{port} for /health"):
            await server.start()


def test_the_digest_engines_counts_read_back_by_name_and_label() -> None:
    metrics = Metrics()
    assert metrics.value("laurel_digests_empty_total", theme="new-awards") == 0  # not yet seen
    metrics.digest_empty("new-awards")
    metrics.digest_paused("forbidden", 3)
    metrics.digest_retried()
    metrics.digest_retried()
    metrics.digest_settled()
    assert metrics.value("laurel_digests_empty_total", theme="new-awards") == 1
    assert metrics.value("laurel_digests_paused_total", reason="forbidden") == 3
    assert metrics.value("laurel_digests_paused_total", reason="not-found") == 0
    assert metrics.value("laurel_digest_retries_total") == 2
    assert metrics.value("laurel_digest_rows_settled_total") == 1


async def test_metrics_off_take_every_call_and_record_nothing() -> None:
    off = Metrics(enabled=False)
    off.digest_posted("daily")
    off.digest_failed("daily")
    off.digest_late("daily")
    off.backup_done(True, at=dt.datetime(2026, 3, 2, tzinfo=dt.UTC))
    off.backup_done(False, at=dt.datetime(2026, 3, 2, tzinfo=dt.UTC))
    off.digest_empty("daily")
    off.digest_paused("forbidden", 2)
    off.digest_retried()
    off.digest_settled()
    off.watch_gateway(lambda: 0.1, lambda: 1)

    async def pending() -> int:
        return 3

    off.set_pending_source(pending)
    # Nothing to scrape: the registry is a stand-in that holds no samples.
    assert not hasattr(off.registry, "get_sample_value")
    assert Metrics().registry.get_sample_value("laurel_guilds") is not None  # NaN, but there
    with pytest.raises(RuntimeError, match="metrics are off"):
        off.value("laurel_digests_posted_total", theme="daily")
