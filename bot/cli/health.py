"""`laurel health`: ask the running bot whether it is live; the container's HEALTHCHECK.

Exit 0 when the bot reports healthy, 1 otherwise, with one line saying why either way.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import aiohttp

from bot.errors import LaurelError
from bot.observability.server import health_url
from bot.settings import Settings

# Docker's HEALTHCHECK has its own timeout; answer well inside the default 30 s.
TIMEOUT = 5.0


def register(commands: Any) -> None:
    health = commands.add_parser(
        "health", help="ask the running bot whether it is live (exit 0) or not (exit 1)"
    )
    health.set_defaults(handler=check)


async def check(settings: Settings, args: argparse.Namespace) -> int:
    if not settings.health.enabled:
        raise LaurelError("unhealthy: the health endpoint is disabled ([health] enabled = false)")
    url = health_url(settings)
    try:
        async with (
            aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT)) as session,
            session.get(url) as response,
        ):
            body = await response.text()
            status = response.status
    except TimeoutError:
        raise LaurelError(f"unhealthy: no answer from {url} within {TIMEOUT:g} s") from None
    except aiohttp.ClientConnectorError as exc:
        why = exc.os_error.strerror or type(exc.os_error).__name__
        raise LaurelError(f"unhealthy: no bot answering at {url} ({why})") from None
    except aiohttp.ClientError as exc:
        raise LaurelError(f"unhealthy: {url} failed: {exc}") from None
    try:
        report = json.loads(body)
        reason = str(report["reason"])
    except (ValueError, KeyError, TypeError):
        raise LaurelError(f"unhealthy: {url} answered {status} with no health report") from None
    if status != 200 or report.get("status") != "ok":
        raise LaurelError(f"unhealthy: {reason}")
    print(f"healthy: {reason}")
    return 0
