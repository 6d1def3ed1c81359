"""The knobs of the stand-in: timings and limits that tests shrink and benchmarks widen."""

from __future__ import annotations

from dataclasses import dataclass

# Gateway intents that Discord treats as privileged (the bot must be granted them).
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_PRESENCES = 1 << 8
INTENT_MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = INTENT_GUILD_MEMBERS | INTENT_GUILD_PRESENCES | INTENT_MESSAGE_CONTENT
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DIRECT_MESSAGES = 1 << 12
# Every intent bit Discord documents for API v10 (0-16, 20, 21, 24, 25); others close with 4013.
KNOWN_INTENTS = (1 << 17) - 1 | 1 << 20 | 1 << 21 | 1 << 24 | 1 << 25


@dataclass
class Config:
    """Timings are in seconds unless the name says otherwise.

    The defaults are Discord's own numbers where Discord publishes one; tests set the windows
    tiny instead of sleeping through them.
    """

    heartbeat_interval_ms: int = 41_250
    # Discord answers 10062 "Unknown interaction" to a first callback later than this.
    interaction_window: float = 3.0
    # Interaction tokens (and so followups and @original) stay valid this long.
    interaction_token_lifetime: float = 15 * 60
    # "checked for uniqueness in the past few minutes" (Discord's docs give no exact number,
    # so this is deliberately on the short side: a bot must not rely on a longer one).
    nonce_window: float = 120.0
    # How long a dropped session stays resumable.
    resume_window: float = 120.0
    # Events kept per session for replay on RESUME.
    resume_buffer: int = 1_000
    # GET /gateway/bot: the shard count Discord recommends (`shards`) and how many shards may
    # IDENTIFY at once (`session_start_limit.max_concurrency`); `remaining` counts down from
    # `session_start_total` with every IDENTIFY. The stand-in does not delay IDENTIFYs.
    recommended_shards: int = 1
    max_concurrency: int = 1
    session_start_total: int = 1000
    # Close an unsharded IDENTIFY with 4011 (Sharding required) when the bot is in more guilds
    # than this (Discord's threshold is 2,500); None never requires sharding.
    sharding_required_above: int | None = None
    # Close an IDENTIFY with 4010 (Invalid shard) when its shard count differs from that of
    # another live session. Off by default, so that a bot changing its shard count while its
    # old sessions are still resumable is not refused.
    enforce_shard_count: bool = False
    # Privileged intents this application has been granted in the developer portal.
    granted_intents: int = 0
    # Reported in X-RateLimit-* headers; generous, so that discord.py never waits by default.
    bucket_limit: int = 1_000
    bucket_window: float = 1.0
    # Per-attachment limit announced in interactions (Discord's default for unboosted guilds).
    attachment_size_limit: int = 10 * 1024 * 1024
    # Answer requests that break the spec or Discord's limits with 400 50035, as Discord would.
    # When False they are still recorded in `violations` but served.
    reject_violations: bool = True
    # Before playing the user, the driver waits until no request is being answered and then
    # yields to the event loop this many times: a person never clicks a button in the same
    # millisecond the message appears, and discord.py registers a view only after reading the
    # answer that carried it. No wall-clock sleep is involved.
    settle_iterations: int = 20
    # For benchmarks: serve without checking requests against the spec or Discord's limits,
    # keep no log of requests (only counts by route and status, in `RestLayer.counts`), decode
    # no responses and log no gateway frames. What it answers is the same; what it costs is
    # what a benchmark reports beside the bot's figures (benchmarks/standin.py measures it).
    lean: bool = False
