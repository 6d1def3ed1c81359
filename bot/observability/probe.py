"""Ask a running bot for its health: what `laurel health` (the container's HEALTHCHECK) runs.

Kept light on purpose: Docker runs it every 30 s, and loading the whole bot (discord.py,
matplotlib, the commands) to ask one HTTP question costs seconds of CPU each time; this module
needs only the standard library and the settings (`bot/__main__.py` takes the short path to it).
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from bot.errors import LaurelError
from bot.settings import Settings, load_settings

# Docker's HEALTHCHECK has its own timeout (30 s by default); answer well inside it.
TIMEOUT = 5.0


def url_host(host: str) -> str:
    """Where a client on this machine reaches a listener bound to `host`."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def health_url(settings: Settings) -> str:
    return f"http://{url_host(settings.health.host)}:{settings.health.port}/health"


def probe(settings: Settings) -> str:
    """One line on a healthy bot; LaurelError with one line saying why not, otherwise."""
    if not settings.health.enabled:
        raise LaurelError("unhealthy: the health endpoint is disabled ([health] enabled = false)")
    url = health_url(settings)
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as exc:  # 503 and its report are an answer, not a failure
        status, body = exc.code, exc.read()
    except urllib.error.URLError as exc:
        why = getattr(exc.reason, "strerror", None) or str(exc.reason)
        raise LaurelError(f"unhealthy: no bot answering at {url} ({why})") from None
    except TimeoutError:
        raise LaurelError(f"unhealthy: no answer from {url} within {TIMEOUT:g} s") from None
    except OSError as exc:
        raise LaurelError(f"unhealthy: {url} failed: {exc.strerror or exc}") from None
    try:
        report = json.loads(body)
        reason = str(report["reason"])
    except (ValueError, KeyError, TypeError):
        raise LaurelError(f"unhealthy: {url} answered {status} with no health report") from None
    if status != 200 or report.get("status") not in ("ok", "degraded"):
        raise LaurelError(f"unhealthy: {reason}")
    if report.get("status") == "degraded":  # live: a search index being rebuilt, say
        return f"healthy, degraded: {reason}"
    return f"healthy: {reason}"


def main(argv: Sequence[str]) -> int:
    """`laurel [--config PATH] health`, without loading the rest of the command line."""
    parser = argparse.ArgumentParser(prog="laurel")
    parser.add_argument("--config", type=Path)
    parser.add_argument("command", choices=["health"])
    args = parser.parse_args(argv)
    try:
        print(probe(load_settings(args.config)))
    except LaurelError as exc:
        print(f"laurel: {exc}", file=sys.stderr)
        return 1
    return 0


def is_health_command(argv: Sequence[str]) -> bool:
    """Whether `argv` is exactly `[--config PATH] health` (anything else takes the full CLI)."""
    rest = list(argv)
    if rest[:1] == ["--config"]:
        rest = rest[2:]
    elif rest[:1] and rest[0].startswith("--config="):
        rest = rest[1:]
    return rest == ["health"]
