"""Is the bot live? Gateway connected, the bot ready, and the database answering a read.

The report is JSON for `GET /health`, and `laurel health` turns it into an exit code. The search
index is reported too: while it is being rebuilt (after damage, say) the bot is live and its
searches are answered another way, so the status is "degraded", not "unhealthy".
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import asdict, dataclass
from typing import Any, Protocol

import discord

# A read that takes longer than this is as good as no answer for a health check.
STORE_TIMEOUT = 3.0


class Store(Protocol):
    """What the check asks of the database (`bot.store.database.Database` answers it)."""

    async def schema_version(self) -> int: ...


class SearchState(Protocol):
    """What the check asks of the search index (`bot.store.search.index.SearchIndex`)."""

    def health(self) -> tuple[bool, str]: ...


@dataclass(frozen=True, slots=True)
class Check:
    ok: bool
    detail: str


@dataclass(frozen=True, slots=True)
class HealthReport:
    gateway: Check
    ready: Check
    store: Check
    guilds: int
    latency_ms: float | None
    # A sharded deployment's shards no live process runs (with the subscriptions waiting on
    # them): said, but not this process's failure (restarting it would not help).
    layout: str | None = None
    search: Check | None = None  # None: no derived index (FTS5 alone)

    @property
    def healthy(self) -> bool:
        return self.gateway.ok and self.ready.ok and self.store.ok

    @property
    def degraded(self) -> bool:
        """Live, with the search index out of service (searches answered another way)."""
        return self.healthy and self.search is not None and not self.search.ok

    def reason(self) -> str:
        """One line: what is wrong, or a summary of what is right."""
        failed = [f"{name}: {c.detail}" for name, c in self._checks().items() if not c.ok]
        extra = [self.layout] if self.layout else []
        if failed and not self.degraded:
            return "; ".join([*failed, *extra])
        latency = "?" if self.latency_ms is None else f"{self.latency_ms:.0f} ms"
        live = f"gateway {latency}, {self.guilds} server(s), store {self.store.detail}"
        return "; ".join([*failed, live, *extra])

    @property
    def status(self) -> str:
        return "degraded" if self.degraded else "ok" if self.healthy else "unhealthy"

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "reason": self.reason(),
            "checks": {name: asdict(check) for name, check in self._checks().items()},
            "guilds": self.guilds,
            "latency_ms": self.latency_ms,
            "unowned_shards": self.layout,
        }

    def _checks(self) -> dict[str, Check]:
        checks = {"gateway": self.gateway, "ready": self.ready, "store": self.store}
        return checks if self.search is None else {**checks, "search": self.search}


async def check_health(
    client: discord.Client,
    db: Store,
    *,
    search: SearchState | None = None,
    layout: str | None = None,
) -> HealthReport:
    latency = client.latency
    return HealthReport(
        gateway=gateway_check(client),
        ready=Check(client.is_ready(), "ready" if client.is_ready() else "not ready"),
        store=await _check_store(db),
        guilds=len(client.guilds),
        latency_ms=round(latency * 1000, 1) if math.isfinite(latency) else None,
        layout=layout,
        search=None if search is None else Check(*search.health()),
    )


def gateway_check(client: discord.Client) -> Check:
    """Connected: the one gateway connection, or every shard this process owns. A sharded
    client (AutoShardedClient) keeps no `ws` of its own, one per shard (issue 22)."""
    if client.is_closed():
        return Check(False, "not connected")
    if isinstance(client, discord.AutoShardedClient):
        owned = client.shard_ids or range(client.shard_count or 1)
        down = [i for i in owned if i not in client.shards or client.shards[i].is_closed()]
        if down:
            return Check(False, f"shard(s) {', '.join(map(str, down))} not connected")
        return Check(True, f"{len(owned)} shard(s) connected")
    connected = client.ws is not None and client.ws.open
    return Check(connected, "connected" if connected else "not connected")


async def _check_store(db: Store) -> Check:
    try:
        async with asyncio.timeout(STORE_TIMEOUT):
            version = await db.schema_version()
    except TimeoutError:
        return Check(False, f"no answer within {STORE_TIMEOUT:g} s")
    except Exception as exc:  # any failure to read is the answer, not a crash of the check
        return Check(False, f"{type(exc).__name__}: {exc}")
    return Check(True, f"schema {version}")
