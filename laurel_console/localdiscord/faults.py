"""Faults that tests and the control API inject: rate limits, server errors, lost access, slow
answers, gateway drops and failed resumes; and an optional global request limiter for benchmarks."""

from __future__ import annotations

import math
import time
from dataclasses import asdict, dataclass, fields
from typing import Any

from laurel_console.localdiscord import errors

KINDS = frozenset(
    {
        "rate_limit",
        "global_rate_limit",
        "server_error",
        "missing_access",
        "missing_permissions",
        "unknown_channel",
        "delay",
    }
)
SERVER_ERRORS = {
    500: "Internal Server Error",
    502: "Bad Gateway",
    503: "Service Unavailable",
    504: "Gateway Timeout",
}


@dataclass
class Fault:
    """One injected failure.

    `route` is a route key such as "POST /channels/{channel_id}/messages" (None: any route);
    `channel_id` narrows it to requests about that channel. It hits `times` requests (None:
    until cleared). A server_error with `after_store` lets the request take effect and only
    then answers with `status`, so a retry without a nonce stores the message twice. A `delay`
    holds the request for `seconds` and then serves it normally: before the store, as a slow
    network would (the interaction window can pass meanwhile), or with `after_store`, holding
    only the answer back: a request in flight when its sender dies.
    """

    kind: str
    route: str | None = None
    channel_id: int | None = None
    times: int | None = 1
    status: int = 500
    after_store: bool = False
    retry_after: float = 0.05
    scope: str = "user"  # a route 429's X-RateLimit-Scope: "user" or "shared"
    seconds: float = 0.0  # how long a delay holds the request
    hits: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown fault kind {self.kind!r}; known: {sorted(KINDS)}")
        if self.kind == "server_error" and self.status not in SERVER_ERRORS:
            raise ValueError(f"server_error status must be one of {sorted(SERVER_ERRORS)}")
        if self.after_store and self.kind not in ("server_error", "delay"):
            raise ValueError("only a server_error or a delay can come after the store")
        if (self.kind == "delay") != (self.seconds > 0):
            raise ValueError("a delay, and only a delay, takes seconds > 0")
        if not 0 <= self.seconds <= 600:
            raise ValueError("a delay holds a request 0 to 600 seconds")
        if self.scope not in ("user", "shared"):
            raise ValueError("scope must be 'user' or 'shared'")

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Fault:
        known = {f.name for f in fields(cls)} - {"hits"}
        unknown = set(data) - known
        if unknown:
            raise ValueError(f"unknown fault fields {sorted(unknown)}; known: {sorted(known)}")
        values = dict(data)
        if values.get("channel_id") is not None:
            values["channel_id"] = int(values["channel_id"])
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        if self.channel_id is not None:
            data["channel_id"] = str(self.channel_id)
        return data

    def matches(self, route_key: str, channel_id: int | None) -> bool:
        if self.route is not None and self.route != route_key:
            return False
        return self.channel_id is None or self.channel_id == channel_id

    def error(self) -> errors.DiscordError:
        """The answer for the 4xx kinds (429s and 5xx are built by the REST layer)."""
        if self.kind == "missing_access":
            return errors.missing_access()
        if self.kind == "missing_permissions":
            return errors.missing_permissions()
        if self.kind == "unknown_channel":
            return errors.unknown_channel()
        raise ValueError(f"{self.kind} is not a plain error")


class TokenBucket:
    """A global limit of `rate` requests per second with bursts up to `burst`."""

    def __init__(self, rate: float, burst: int | None = None) -> None:
        if rate <= 0:
            raise ValueError("rate must be positive")
        self.rate = rate
        self.burst = burst or max(1, math.ceil(rate))
        self._tokens = float(self.burst)
        self._stamp = time.monotonic()

    def take(self) -> float:
        """0.0 when a request may go now; otherwise the seconds until one may."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._stamp) * self.rate)
        self._stamp = now
        if self._tokens >= 1:
            self._tokens -= 1
            return 0.0
        return (1 - self._tokens) / self.rate


class FaultPlan:
    """The faults in force. The server consults it on every request and gateway resume."""

    def __init__(self) -> None:
        self.faults: list[Fault] = []
        self.resume_failures = 0
        self.limiter: TokenBucket | None = None

    def add(self, fault: Fault) -> Fault:
        self.faults.append(fault)
        return fault

    def inject(self, kind: str, **options: Any) -> Fault:
        return self.add(Fault(kind, **options))

    def clear(self) -> None:
        self.faults.clear()
        self.resume_failures = 0

    def take(self, route_key: str, channel_id: int | None) -> Fault | None:
        """The first fault this request hits, counted; spent faults are removed."""
        for fault in self.faults:
            if fault.matches(route_key, channel_id):
                fault.hits += 1
                if fault.times is not None and fault.hits >= fault.times:
                    self.faults.remove(fault)
                return fault
        return None

    def fail_next_resume(self, count: int = 1) -> None:
        self.resume_failures += count

    def take_resume_failure(self) -> bool:
        if self.resume_failures <= 0:
            return False
        self.resume_failures -= 1
        return True

    def limit_rate(self, rate: float | None, burst: int | None = None) -> None:
        """Enforce `rate` requests/second across all routes but the interaction endpoints, which
        Discord exempts from its global limit (global 429s); None turns it off."""
        self.limiter = None if rate is None else TokenBucket(rate, burst)
