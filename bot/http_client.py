"""discord.py's HTTP client with its rate-limit bucket sweep amortised.

discord.py keeps one `Ratelimit` per (bucket, major parameter): a digest fan-out makes one per
channel. Once there are 256 or more, `HTTPClient.get_ratelimit` scans every bucket for inactive
ones (idle for 300 s) each time it creates another (`_try_clear_expired_ratelimits`), so posting
to N new channels costs O(N^2) `is_inactive` calls, and none of them can find anything to drop
during the fan-out itself (nothing made in it is 300 s old). At 10,000 channels that sweep was
38% of the bot's CPU (issue 14).

`SweepingHTTPClient` sweeps the same way and drops the same buckets, but only once as many new
buckets have been made since the last sweep as the sweep left behind (and at least 256): each
sweep is paid for by at least half as many creations, so the cost per new bucket is constant,
and the map never holds more than twice its live buckets plus 256. The proposal for discord.py
itself is in docs/ratelimit-sweep.md.

LaurelBot installs it for its own client only (`LaurelBot._get_state`); nothing is patched
globally.
"""

from __future__ import annotations

from discord.http import HTTPClient

# discord.py's own threshold: below it, no sweep at all.
SWEEP_FLOOR = 256


class SweepingHTTPClient(HTTPClient):
    """An `HTTPClient` whose bucket sweep runs at most once per `max(256, survivors)` new
    buckets. `sweeps` and `buckets_scanned` count the work, for tests and benchmarks."""

    sweeps: int = 0
    buckets_scanned: int = 0
    buckets_created: int = 0
    _since_sweep: int = 0
    _survivors: int = 0

    @classmethod
    def replacing(cls, http: HTTPClient) -> SweepingHTTPClient:
        """A client with the same settings as `http` (made by `discord.Client.__init__`),
        before it has logged in or made a request."""
        return cls(
            http.loop,
            http.connector or None,
            proxy=http.proxy,
            proxy_auth=http.proxy_auth,
            unsync_clock=not http.use_clock,
            http_trace=http.http_trace,
            max_ratelimit_timeout=http.max_ratelimit_timeout,
        )

    def _try_clear_expired_ratelimits(self) -> None:
        # Called by `get_ratelimit` right after it made a bucket.
        self.buckets_created += 1
        self._since_sweep += 1
        if len(self._buckets) < SWEEP_FLOOR:
            return
        if self._since_sweep < max(SWEEP_FLOOR, self._survivors):
            return
        self.sweeps += 1
        self.buckets_scanned += len(self._buckets)
        inactive = [key for key, bucket in self._buckets.items() if bucket.is_inactive()]
        for key in inactive:
            del self._buckets[key]
        self._since_sweep = 0
        self._survivors = len(self._buckets)
