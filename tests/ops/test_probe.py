"""`laurel health`'s probe: how it reads each kind of answer, and which command lines take it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from aiohttp import web

from bot.errors import LaurelError
from bot.observability.probe import is_health_command, probe
from bot.settings import HealthSettings, Settings

Answer = Callable[[web.Request], Awaitable[web.Response]]


async def _serve(answer: Answer) -> AsyncIterator[Settings]:
    app = web.Application()
    app.router.add_get("/health", answer)
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        yield Settings(health=HealthSettings(port=site.port))
    finally:
        await runner.cleanup()


async def _probe(answer: Answer) -> str:
    async for settings in _serve(answer):
        return await asyncio.to_thread(probe, settings)  # blocking, as in its own process
    raise AssertionError("unreachable")


async def test_a_healthy_report_is_one_line() -> None:
    async def ok(request: web.Request) -> web.Response:
        return web.json_response({"status": "ok", "reason": "gateway 3 ms, 1 server(s)"})

    assert await _probe(ok) == "healthy: gateway 3 ms, 1 server(s)"


async def test_an_unhealthy_report_gives_its_reason() -> None:
    async def down(request: web.Request) -> web.Response:
        body = {"status": "unhealthy", "reason": "gateway: not connected"}
        return web.json_response(body, status=503)

    with pytest.raises(LaurelError, match=r"^unhealthy: gateway: not connected$"):
        await _probe(down)


async def test_something_else_on_the_port_is_not_a_bot() -> None:
    async def other(request: web.Request) -> web.Response:
        return web.Response(text="<html>hello</html>")

    with pytest.raises(LaurelError, match=r"answered 200 with no health report"):
        await _probe(other)


def test_disabled_health_is_unhealthy_without_asking() -> None:
    with pytest.raises(LaurelError, match=r"disabled"):
        probe(Settings(health=HealthSettings(enabled=False)))


@pytest.mark.parametrize(
    ("argv", "short"),
    [
        (["health"], True),
        (["--config", "x.toml", "health"], True),
        (["--config=x.toml", "health"], True),
        (["health", "--help"], False),
        (["db", "health"], False),
        (["run"], False),
        ([], False),
    ],
)
def test_only_a_plain_health_command_takes_the_short_path(argv: list[str], short: bool) -> None:
    assert is_health_command(argv) is short


async def test_a_degraded_report_is_live_and_says_so() -> None:
    """A search index being rebuilt (issue 22): answered another way meanwhile, so live."""
    from bot.observability.health import Check, HealthReport

    ok = Check(True, "fine")
    report = HealthReport(ok, ok, ok, 1, 3.0, search=Check(False, "degraded: rebuilding"))
    assert (report.healthy, report.degraded) == (True, True)

    async def degraded(request: web.Request) -> web.Response:
        return web.json_response(report.to_json())

    line = await _probe(degraded)
    assert line.startswith("healthy, degraded: search: degraded: rebuilding; gateway 3 ms")
    assert report.to_json()["status"] == "degraded"
    assert report.to_json()["checks"]["search"] == {"ok": False, "detail": "degraded: rebuilding"}
    down = HealthReport(Check(False, "not connected"), ok, ok, 0, None, search=report.search)
    assert down.to_json()["status"] == "unhealthy"
    assert down.reason() == "gateway: not connected; search: degraded: rebuilding"
