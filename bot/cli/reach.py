"""Before logging in: is Discord reachable at all? Retried with backoff, then said in words.

A bot started while the network is still coming up (a container before its DNS, a laptop on
a train) should wait a little rather than fail; one that cannot reach Discord at all should
say so in one line, not in an aiohttp traceback.
"""

from __future__ import annotations

import logging

import aiohttp

from bot.domain.clock import Clock
from bot.errors import LaurelError
from bot.settings import DiscordSettings

log = logging.getLogger(__name__)

MAX_BACKOFF_SECONDS = 60.0
PROBE_TIMEOUT_SECONDS = 10.0


async def wait_for_discord(settings: DiscordSettings, clock: Clock) -> None:
    """Return once `settings.api_base_url` answers (any answer below 500 will do: the probe
    sends no token); raise LaurelError after `connect_attempts` tries without one, waiting
    on `clock` between them."""
    url = f"{settings.api_base_url.rstrip('/')}/gateway"
    delay, attempts = settings.connect_backoff_seconds, settings.connect_attempts
    timeout = aiohttp.ClientTimeout(total=PROBE_TIMEOUT_SECONDS)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        for attempt in range(1, attempts + 1):
            reason = await _probe(session, url)
            if reason is None:
                return
            if attempt == attempts:
                break
            log.warning(
                "cannot reach Discord at %s (%s); trying again in %.3g s (attempt %d of %d)",
                settings.api_base_url, reason, delay, attempt, attempts,
            )  # fmt: skip
            await clock.sleep(delay)
            delay = min(delay * 2, MAX_BACKOFF_SECONDS)
    raise LaurelError(
        f"cannot reach Discord at {settings.api_base_url} ({reason}; {attempts} attempt(s)): "
        "check the network connection, DNS and any proxy, or [discord] api_base_url"
    )


async def _probe(session: aiohttp.ClientSession, url: str) -> str | None:
    """None when `url` answered, else why not, in a few words."""
    try:
        async with session.get(url) as response:
            if response.status < 500:
                return None
            return f"it answered {response.status} {response.reason}"
    except aiohttp.ClientConnectorDNSError:
        return "its name does not resolve"
    except aiohttp.ClientConnectorError as exc:
        return f"connecting failed: {exc.strerror or exc.__class__.__name__}"
    except TimeoutError:
        return f"no answer within {PROBE_TIMEOUT_SECONDS:.0f} s"
    except (aiohttp.ClientError, OSError) as exc:
        return f"{exc.__class__.__name__}: {exc}"
