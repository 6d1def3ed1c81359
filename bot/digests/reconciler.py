"""Exactly-once delivery: reserve the ledger row, pick, render, send with the row's nonce, mark.

A crash at any point leaves either no row (nothing was sent) or a pending row that `settle`
resolves at the next start: sent again with the same nonce while Discord still de-duplicates
it, otherwise looked up in the channel by the marker in the post's footer first.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
import weakref
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal, Protocol

from bot.digests.content import ContentGone, DigestContent
from bot.digests.delivery import ChannelGone, Deliverer, GoneReason, RejectedError, TransientError
from bot.domain.subscriptions import Subscription
from bot.render.digest_posts import Frame, paused_notice, thread_name
from bot.render.i18n import Strings
from bot.settings import DigestSettings
from bot.store.ledger import LedgerEntry, LedgerRepository
from bot.store.subscriptions import SubscriptionRepository

log = logging.getLogger(__name__)
Clock = Callable[[], dt.datetime]
Sleep = Callable[[float], Awaitable[None]]
ResultStatus = Literal["sent", "already", "empty", "paused", "failed", "pending"]


class DigestEvents(Protocol):
    """Who hears of each post as it happens (the Prometheus metrics)."""

    def digest_posted(self, theme: str) -> None: ...
    def digest_failed(self, theme: str) -> None: ...
    def digest_late(self, theme: str) -> None: ...


@dataclass
class DigestStats:
    """Counters for metrics: posts by theme and outcome, pauses by reason, retries."""

    posted: Counter[str] = field(default_factory=Counter)
    late: Counter[str] = field(default_factory=Counter)
    failed: Counter[str] = field(default_factory=Counter)
    empty: Counter[str] = field(default_factory=Counter)
    paused: Counter[str] = field(default_factory=Counter)
    retries: int = 0
    settled: int = 0
    listener: DigestEvents | None = None

    def record_posted(self, theme: str, *, late: bool = False) -> None:
        self.posted[theme] += 1
        if late:
            self.late[theme] += 1
        if self.listener is not None:
            self.listener.digest_posted(theme)
            if late:
                self.listener.digest_late(theme)

    def record_failed(self, theme: str) -> None:
        self.failed[theme] += 1
        if self.listener is not None:
            self.listener.digest_failed(theme)


@dataclass(frozen=True, slots=True)
class PostResult:
    status: ResultStatus
    entry_id: int | None = None
    message_id: int | None = None
    channel_id: int | None = None
    error: str | None = None


class Reconciler:
    def __init__(
        self,
        *,
        settings: DigestSettings,
        subscriptions: SubscriptionRepository,
        ledger: LedgerRepository,
        content: DigestContent,
        deliverer: Deliverer,
        strings: Strings,
        clock: Clock,
        sleep: Sleep = asyncio.sleep,
        events: DigestEvents | None = None,
    ) -> None:
        self._settings = settings
        self._subscriptions = subscriptions
        self._ledger = ledger
        self._content = content
        self._deliverer = deliverer
        self._strings = strings
        self._clock = clock
        self._sleep = sleep
        self._fan_out = asyncio.Semaphore(settings.fan_out_concurrency)
        # Channels that answered 403/404: nothing more goes to them until a resume.
        self.dead_channels: set[int] = set()
        # Posts to one channel go one at a time: the first 403 stops the rest before they go.
        self._channel_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        self.stats = DigestStats(listener=events)
        # Ledger rows being sent or settled right now: a row is never worked on twice at once.
        self.busy: set[int] = set()

    def _channel_lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._channel_locks.get(channel_id)
        if lock is None:
            lock = self._channel_locks[channel_id] = asyncio.Lock()
        return lock

    async def deliver(
        self, sub: Subscription, period: str, *, late: bool, resume: bool = False
    ) -> PostResult:
        """The post of `sub` for `period`, unless the ledger already has it.

        `resume`: the caller's own earlier try reserved the row and then the store refused a
        later write (a mark, a retry's note), so a pending row is settled here rather than
        left to the next start.
        """
        # The whole pipeline (pick, reserve, render, send) is bounded, not just the send: ten
        # thousand posts due at once must not all be rendered and held in memory first.
        async with self._fan_out:
            return await self._deliver(sub, period, late=late, resume=resume)

    async def _deliver(
        self, sub: Subscription, period: str, *, late: bool, resume: bool
    ) -> PostResult:
        assert sub.id is not None
        if sub.channel_id in self.dead_channels:
            return PostResult("paused")
        choose = await self._content.chooser(sub)
        entry, created = await self._ledger.reserve(
            sub.id, period, sub.theme.value, late=late, now=self._clock(), choose=choose
        )
        if not created:
            if resume and entry.status == "pending":
                await self._settle(entry)
            return PostResult("already", entry.id, entry.message_id, sub.channel_id)
        if entry.status == "empty":
            self.stats.empty[sub.theme.value] += 1
            return PostResult("empty", entry.id)
        self.busy.add(entry.id)
        try:
            return await self.send_entry(sub, entry)
        finally:
            self.busy.discard(entry.id)

    async def send_entry(self, sub: Subscription, entry: LedgerEntry) -> PostResult:
        """Render and send a reserved row, retrying transient failures with backoff."""
        frame = Frame(
            sub.theme,
            _shown_period(entry.period),
            sub.language,
            sub.role_id,
            entry.nonce,
            late=entry.late,
        )
        try:
            post = await self._content.render(sub, entry.content, frame)
        except ContentGone as exc:
            return await self._fail(sub, entry, f"content removed: {exc}")
        name = thread_name(frame, self._strings)
        error = "no attempt"
        for attempt in range(self._settings.retry_attempts):
            if sub.channel_id in self.dead_channels:
                return await self._fail(sub, entry, "channel paused")
            if attempt:
                self.stats.retries += 1
                delay = self._settings.retry_base_seconds * 2 ** (attempt - 1)
                await self._sleep(min(delay, self._settings.retry_max_seconds))
                await self._ledger.attempted(entry.id, self._clock())
            try:
                async with self._channel_lock(sub.channel_id):
                    if sub.channel_id in self.dead_channels:
                        return await self._fail(sub, entry, "channel paused")
                    found = None
                    if attempt and self._deliverer.is_forum(sub.channel_id):
                        # A forum post takes no nonce: a try that failed after Discord made
                        # the post (a 5xx after the store) is found, or a retry would double it.
                        found = await self._deliverer.find(
                            sub.channel_id,
                            marker=entry.nonce,
                            since=entry.reserved_at,
                            thread_name=name,
                            limit=self._settings.history_lookup_limit,
                        )
                    message_id = found or await self._deliverer.send(
                        sub.channel_id,
                        post,
                        nonce=entry.nonce,
                        thread_name=name,
                        role_id=sub.role_id,
                    )
            except ChannelGone as exc:
                await self._pause(sub, exc.reason)
                return await self._fail(sub, entry, exc.reason)
            except RejectedError as exc:
                return await self._fail(sub, entry, str(exc))
            except TransientError as exc:
                error = str(exc)
                log.warning("digest %s (%s): %s; retrying", sub.id, entry.period, error)
                continue
            await self._ledger.mark_sent(entry.id, message_id, self._clock())
            self.stats.record_posted(sub.theme.value, late=entry.late)
            return PostResult("sent", entry.id, message_id, sub.channel_id)
        # Still pending: the next start settles it (looked up first, never blindly re-sent).
        await self._ledger.note_error(entry.id, error)
        self.stats.record_failed(sub.theme.value)
        log.warning("digest %s (%s) not delivered after retries: %s", sub.id, entry.period, error)
        return PostResult("pending", entry.id, error=error)

    async def _fail(self, sub: Subscription, entry: LedgerEntry, error: str) -> PostResult:
        await self._ledger.mark_failed(entry.id, error, self._clock())
        self.stats.record_failed(sub.theme.value)
        log.warning("digest %s (%s) failed: %s", sub.id, entry.period, error)
        return PostResult("failed", entry.id, error=error)

    async def _pause(self, sub: Subscription, reason: GoneReason) -> None:
        self.dead_channels.add(sub.channel_id)
        paused = await self._subscriptions.pause_channel(sub.channel_id, reason)
        if not paused:
            return  # another post to this channel already paused it and told the admins
        self.stats.paused[reason] += len(paused)
        ids = [s.id for s in paused]
        log.warning("channel %s answered %s: paused digests %s", sub.channel_id, reason, ids)
        text = "\n".join(
            paused_notice(s.channel_id, s.theme, reason, s.language, self._strings) for s in paused
        )
        await self._deliverer.notify_admins(sub.guild_id, sub.channel_id, text)

    async def settle(self, entry: LedgerEntry) -> None:
        """Resolve a row left pending (by a previous run, or by retries that ran out)."""
        if entry.id in self.busy:
            return
        self.busy.add(entry.id)
        try:
            async with self._fan_out:
                await self._settle(entry)
        finally:
            self.busy.discard(entry.id)

    async def _settle(self, entry: LedgerEntry) -> None:
        sub = await self._subscriptions.get(entry.subscription_id)
        if sub is None:
            return  # removed since; its rows went with it
        self.stats.settled += 1
        if sub.status != "active":
            await self._fail(sub, entry, f"paused ({sub.paused_reason})")
        elif not await self._already_there(sub, entry):
            await self.send_entry(sub, entry)

    async def _already_there(self, sub: Subscription, entry: LedgerEntry) -> bool:
        """True once the row is settled without a new post: found in the channel, or too old.

        Within Discord's nonce window a plain re-send is safe and cheaper than a lookup (except
        in forums: a forum post takes no nonce, so it is always looked up).
        """
        now = self._clock()
        last = max(entry.reserved_at, entry.attempted_at or entry.reserved_at)
        window = dt.timedelta(seconds=self._settings.nonce_window_seconds)
        frame = Frame(
            sub.theme, _shown_period(entry.period), sub.language, sub.role_id, entry.nonce
        )
        if now - last <= window and not self._deliverer.is_forum(sub.channel_id):
            return False
        try:
            found = await self._deliverer.find(
                sub.channel_id,
                marker=entry.nonce,
                since=entry.reserved_at,
                thread_name=thread_name(frame, self._strings),
                limit=self._settings.history_lookup_limit,
            )
        except ChannelGone as exc:
            await self._pause(sub, exc.reason)
            await self._fail(sub, entry, exc.reason)
            return True
        except (TransientError, RejectedError) as exc:
            log.warning("digest %s: lookup failed (%s); left pending", sub.id, exc)
            return True
        if found is not None:
            await self._ledger.mark_sent(entry.id, found, now)
            self.stats.record_posted(sub.theme.value, late=entry.late)
            return True
        if now - entry.reserved_at > dt.timedelta(hours=self._settings.catch_up_hours):
            await self._fail(sub, entry, "expired: not sent within the catch-up window")
            return True
        return False


def _shown_period(period: str) -> str:
    """A manual post's period ("now-20261129T1830") reads as its date."""
    if period.startswith("now-"):
        stamp = period.removeprefix("now-")
        return f"{stamp[0:4]}-{stamp[4:6]}-{stamp[6:8]}"
    return period
