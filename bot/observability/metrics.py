"""Prometheus metrics, in a registry of their own (never the library's global default one).

Metric names (all prefixed `laurel_`):

name                                   type       labels            what
laurel_commands_total                  counter    command, outcome  slash commands served
laurel_command_duration_seconds        histogram  command           dispatch to end of command
laurel_components_total                counter    component, outcome  persistent buttons pressed
laurel_component_duration_seconds      histogram  component         press to end of its answer
laurel_gateway_latency_seconds         gauge                        heartbeat round trip
laurel_guilds                          gauge                        servers the bot is in
laurel_digests_posted_total            counter    theme             digests delivered
laurel_digests_failed_total            counter    theme             digests given up on
laurel_digests_late_total              counter    theme             posted after their time
laurel_digests_empty_total             counter    theme             due with nothing to post
laurel_digests_paused_total            counter    reason            subscriptions paused (403/404)
laurel_digest_retries_total            counter                      sends tried again
laurel_digest_rows_settled_total       counter                      pending rows settled
laurel_ledger_pending                  gauge                        ledger rows not settled
laurel_backups_total                   counter    outcome           scheduled backups
laurel_last_backup_timestamp_seconds   gauge                        Unix time of the last good one
laurel_search_index_faults_total       counter    operation         index failures (each rebuilt)

`outcome` is `ok`, `user_error` (the person's mistake, answered), `fault` (an operational
fault: the database refused or is unusable, arXiv is down; answered) or `error` (a bug) for
commands and components (a component is named by its custom_id's prefix, e.g. `paper:open`),
and `ok` or `error` for backups. A gauge whose source is not connected or failed reads NaN.

With metrics off (`[metrics] enabled = false`, the default) the bot's Metrics records nothing
and prometheus_client is not even imported (a start is that much shorter).
"""

from __future__ import annotations

import datetime as dt
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal

import discord

if TYPE_CHECKING:
    from prometheus_client import CollectorRegistry

log = logging.getLogger(__name__)

CommandOutcome = Literal["ok", "user_error", "fault", "error"]
PendingSource = Callable[[], Awaitable[int]]
# Where a command's start time is kept on the interaction (discord.py's `extras` is for this).
STARTED = "laurel.started"
# Discord gives an interaction 3 s for its first answer: resolve the buckets around that.
COMMAND_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0, 30.0)


def _finite_or_nan(value: float) -> float:
    return value if math.isfinite(value) else math.nan


def _served(
    kinds: Any, what: str, count_help: str, seconds_help: str, registry: CollectorRegistry
) -> tuple[Any, Any]:
    """How many of `what` were served, by outcome, and how long each took."""
    served = kinds.Counter(f"laurel_{what}s", count_help, [what, "outcome"], registry=registry)
    seconds = kinds.Histogram(
        f"laurel_{what}_duration_seconds",
        seconds_help,
        [what],
        buckets=COMMAND_BUCKETS,
        registry=registry,
    )
    return served, seconds


class _Unrecorded:
    """What each prometheus_client class is when metrics are off: the same calls, no record."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def labels(self, *args: Any, **kwargs: Any) -> _Unrecorded:
        return self

    def inc(self, *args: Any, **kwargs: Any) -> None:
        pass

    observe = set = set_function = inc


class _Off:
    CollectorRegistry = Counter = Gauge = Histogram = _Unrecorded


class Metrics:
    registry: CollectorRegistry

    def __init__(self, *, enabled: bool = True) -> None:
        """`enabled`: whether anything will ever read these (the [metrics] setting)."""
        kinds: Any = _Off
        if enabled:
            import prometheus_client as kinds
        CollectorRegistry, Counter, Gauge = kinds.CollectorRegistry, kinds.Counter, kinds.Gauge
        self.registry = r = CollectorRegistry()
        self.enabled = enabled
        self._commands, self._command_seconds = _served(
            kinds, "command", "Slash commands served", "Time from dispatch to the command's end", r
        )
        self._components, self._component_seconds = _served(
            kinds,
            "component",
            "Persistent buttons pressed",
            "Time from a press to its answer's end",
            r,
        )
        self._gateway_latency = Gauge(
            "laurel_gateway_latency_seconds", "Gateway heartbeat round trip", registry=r
        )
        self._guilds = Gauge("laurel_guilds", "Servers the bot is in", registry=r)
        self._posted = Counter("laurel_digests_posted", "Digests posted", ["theme"], registry=r)
        self._failed = Counter("laurel_digests_failed", "Digests given up", ["theme"], registry=r)
        self._late = Counter("laurel_digests_late", "Digests posted late", ["theme"], registry=r)
        self._empty = Counter(
            "laurel_digests_empty", "Digests due with nothing to post", ["theme"], registry=r
        )
        self._paused = Counter(
            "laurel_digests_paused", "Subscriptions paused by Discord", ["reason"], registry=r
        )
        self._retries = Counter("laurel_digest_retries", "Digest sends tried again", registry=r)
        self._settled = Counter(
            "laurel_digest_rows_settled", "Pending ledger rows settled", registry=r
        )
        self._pending = Gauge("laurel_ledger_pending", "Ledger rows not yet settled", registry=r)
        self._backups = Counter("laurel_backups", "Scheduled backups", ["outcome"], registry=r)
        self._last_backup = Gauge(
            "laurel_last_backup_timestamp_seconds", "Unix time of the last good backup", registry=r
        )
        for gauge in (self._gateway_latency, self._guilds, self._pending, self._last_backup):
            gauge.set(math.nan)
        self._index_faults = Counter(
            "laurel_search_index_faults",
            "Failures of the search index (it is rebuilt after each)",
            ["operation"],
            registry=r,
        )
        self._pending_source: PendingSource | None = None

    # -- commands ----------------------------------------------------------------------------

    @staticmethod
    def command_started(interaction: discord.Interaction) -> None:
        interaction.extras[STARTED] = time.perf_counter()

    def command_finished(self, interaction: discord.Interaction, outcome: CommandOutcome) -> None:
        command = interaction.command
        name = command.qualified_name if command is not None else "unknown"
        self._commands.labels(command=name, outcome=outcome).inc()
        started = interaction.extras.get(STARTED)
        if isinstance(started, float):
            self._command_seconds.labels(command=name).observe(time.perf_counter() - started)

    def component_finished(self, component: str, outcome: CommandOutcome, seconds: float) -> None:
        """A persistent button's press was answered (or refused, or failed) after `seconds`."""
        self._components.labels(component=component, outcome=outcome).inc()
        self._component_seconds.labels(component=component).observe(seconds)

    # -- the gateway, read when scraped ----------------------------------------------------------

    def watch_gateway(self, latency: Callable[[], float], guilds: Callable[[], int]) -> None:
        self._gateway_latency.set_function(lambda: _finite_or_nan(latency()))
        self._guilds.set_function(lambda: float(guilds()))

    # -- digests, fed by the digest engine -------------------------------------------------------

    def digest_posted(self, theme: str) -> None:
        self._posted.labels(theme=theme).inc()

    def digest_failed(self, theme: str) -> None:
        self._failed.labels(theme=theme).inc()

    def digest_late(self, theme: str) -> None:
        self._late.labels(theme=theme).inc()

    def digest_empty(self, theme: str) -> None:
        self._empty.labels(theme=theme).inc()

    def digest_paused(self, reason: str, subscriptions: int) -> None:
        self._paused.labels(reason=reason).inc(subscriptions)

    def digest_retried(self) -> None:
        self._retries.inc()

    def digest_settled(self) -> None:
        self._settled.inc()

    def value(self, name: str, **labels: str) -> float:
        """The current value of a sample (`laurel_digests_posted_total`, theme=...): 0 when
        nothing was counted yet. What the exposition would show, read without scraping.
        Metrics that are off have nothing to read: asking is a mistake, said at once."""
        if not self.enabled:
            raise RuntimeError("metrics are off ([metrics] enabled = false): nothing is counted")
        found = self.registry.get_sample_value(name, labels)
        return 0.0 if found is None else found

    def set_pending_source(self, source: PendingSource) -> None:
        """`source()` counts the ledger rows not yet settled; it is awaited at every scrape."""
        self._pending_source = source

    # -- the search index ------------------------------------------------------------------------

    def search_index_fault(self, operation: str) -> None:
        """The index failed to `operation` ("search" or "write"): answered without it, rebuilt."""
        self._index_faults.labels(operation=operation).inc()

    # -- backups ---------------------------------------------------------------------------------

    def backup_done(self, ok: bool, *, at: dt.datetime) -> None:
        """A backup made (or failed) at `at`, by the clock of whoever made it."""
        self._backups.labels(outcome="ok" if ok else "error").inc()
        if ok:
            self._last_backup.set(at.timestamp())

    # -- exposition ------------------------------------------------------------------------------

    async def render(self) -> bytes:
        """The text exposition format, with the awaited sources read first."""
        from prometheus_client import generate_latest

        await self._refresh_pending()
        return generate_latest(self.registry)

    async def _refresh_pending(self) -> None:
        if self._pending_source is None:
            return
        try:
            self._pending.set(await self._pending_source())
        except Exception:
            # A scrape must not fail as a whole for one source; NaN says "unknown".
            log.warning("could not count pending ledger rows", exc_info=True)
            self._pending.set(math.nan)
