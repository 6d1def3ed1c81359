"""The bot's own HTTP endpoints: `GET /health` and, when enabled, `GET /metrics`.

Health is on by default and metrics off, each on its own [health] / [metrics] address; when the
two addresses are the same, one listener serves both. Health does not depend on metrics being
enabled: the container's HEALTHCHECK must work on a default configuration. Port 0 picks a free
port (see `OpsServer.urls`), which is what the tests use.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Self

from aiohttp import web

from bot.errors import LaurelError
from bot.observability.health import HealthReport
from bot.observability.metrics import Metrics
from bot.observability.probe import url_host
from bot.observability.redact import Redactor
from bot.settings import Settings

log = logging.getLogger(__name__)

HealthSource = Callable[[], Awaitable[HealthReport]]


class OpsServer:
    def __init__(self, settings: Settings, *, health: HealthSource, metrics: Metrics) -> None:
        self._health = health
        self._metrics = metrics
        # What leaves by HTTP is redacted as the log is: an engine's error in the store check
        # must not carry the database password out (issue 22).
        self._redact = Redactor(settings.database.secrets())
        routes: dict[tuple[str, int], list[web.RouteDef]] = {}
        if settings.health.enabled:
            address = (settings.health.host, settings.health.port)
            routes.setdefault(address, []).append(web.get("/health", self._serve_health))
        if settings.metrics.enabled:
            address = (settings.metrics.host, settings.metrics.port)
            routes.setdefault(address, []).append(web.get("/metrics", self._serve_metrics))
        self._routes = routes
        self._runners: list[web.AppRunner] = []
        self.urls: dict[str, str] = {}  # path -> URL it is served at, once started

    async def start(self) -> Self:
        try:
            for (host, port), routes in self._routes.items():
                app = web.Application()
                app.add_routes(routes)
                runner = web.AppRunner(app, access_log=None)
                await runner.setup()
                self._runners.append(runner)
                site = web.TCPSite(runner, host, port)
                try:
                    await site.start()
                except OSError as exc:
                    raise LaurelError(
                        f"cannot listen on {host}:{port} for {', '.join(r.path for r in routes)}"
                        f" ({exc.strerror}): choose another port in [health] / [metrics]"
                    ) from None
                for route in routes:
                    self.urls[route.path] = f"http://{url_host(host)}:{site.port}{route.path}"
        except BaseException:
            await self.stop()
            raise
        for path, url in self.urls.items():
            log.info("serving %s at %s", path, url)
        return self

    async def stop(self) -> None:
        runners, self._runners = self._runners, []
        for runner in runners:
            await runner.cleanup()

    async def __aenter__(self) -> Self:
        return await self.start()

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    async def _serve_health(self, request: web.Request) -> web.Response:
        report = await self._health()
        return web.Response(
            text=self._redact(json.dumps(report.to_json())),
            status=200 if report.healthy else 503,
            content_type="application/json",
        )

    async def _serve_metrics(self, request: web.Request) -> web.Response:
        from prometheus_client import CONTENT_TYPE_LATEST  # loaded by the bot's Metrics already

        body = self._redact((await self._metrics.render()).decode()).encode()
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
