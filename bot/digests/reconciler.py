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
from dataclasses import dataclass
from typing import Literal, Protocol

from bot.digests.content import ContentGone, DigestContent
from bot.digests.delivery import ChannelGone, Deliverer, GoneReason, RejectedError, TransientError
from bot.digests.periods import Period
from bot.domain.clock import Clock
from bot.domain.ledger import LedgerEntry
from bot.domain.subscriptions import Subscription
from bot.render.digest_posts import Frame, Post, paused_notice, thread_name
from bot.render.i18n import Strings
from bot.settings import DigestSettings
from bot.store.ledger import LedgerRepository
from bot.store.subscriptions import SubscriptionRepository

log = logging.getLogger(__name__)
ResultStatus = Literal["sent", "already", "empty", "paused", "failed", "pending"]


class DigestEvents(Protocol):
    """Who hears of each post as it happens: the Prometheus metrics, the one place the
    engine's counts go (tests read them there too)."""

    def digest_posted(self, theme: str) -> None: ...
    def digest_failed(self, theme: str) -> None: ...
    def digest_late(self, theme: str) -> None: ...
    def digest_empty(self, theme: str) -> None: ...
    def digest_paused(self, reason: str, subscriptions: int) -> None: ...
    def digest_retried(self) -> None: ...
    def digest_settled(self) -> None: ...


@dataclass(frozen=True, slots=True)
class PostResult:
    status: ResultStatus
    entry_id: int | None = None
    message_id: int | None = None
    channel_id: int | None = None
    error: str | None = None
    period: Period | None = None  # set by `/digest post-now`: which scheduled post it made


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
        events: DigestEvents,
    ) -> None:
        self._settings = settings
        self._subscriptions = subscriptions
        self._ledger = ledger
        self._content = content
        self._deliverer = deliverer
        self._strings = strings
        self._clock = clock
        self._events = events
        self._fan_out = asyncio.Semaphore(settings.fan_out_concurrency)
        # Channels that answered 403/404: nothing more goes to them until a resume.
        self._dead_channels: set[int] = set()
        # Posts to one channel go one at a time: the first 403 stops the rest before they go.
        self._channel_locks: weakref.WeakValueDictionary[int, asyncio.Lock] = (
            weakref.WeakValueDictionary()
        )
        # Ledger rows being sent or settled right now: a row is never worked on twice at once.
        self._busy: set[int] = set()
        # A graceful stop under way: no new row is reserved; those reserved are finished.
        self._stopping = False

    # -- what the rest of the engine asks and tells ------------------------------------------
    def in_hand(self) -> frozenset[int]:
        """The ledger rows being sent or settled right now."""
        return frozenset(self._busy)

    def reopen(self, channel_id: int) -> None:
        """A subscription in `channel_id` was resumed or made: posts may go there again."""
        self._dead_channels.discard(channel_id)

    def is_closed(self, channel_id: int) -> bool:
        """Whether `channel_id` answered 403/404 and was not reopened since."""
        return channel_id in self._dead_channels

    def stop_reserving(self) -> None:
        """A graceful stop (issue 22, item 12): posts not reserved yet are left to the next
        start (they are due there still); those reserved are sent and marked."""
        self._stopping = True

    async def drain_marks(self) -> None:
        """Wait until every ledger write handed to the group commit is committed."""
        await self._ledger.writes.drain()

    # -- one period's post -------------------------------------------------------------------
    async def deliver(
        self, sub: Subscription, period: Period, *, late: bool, resume: bool = False
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
        self, sub: Subscription, period: Period, *, late: bool, resume: bool
    ) -> PostResult:
        assert sub.id is not None
        if self._stopping:  # nothing reserved, nothing sent: due again at the next start
            raise asyncio.CancelledError("stopping")
        if self.is_closed(sub.channel_id):
            return PostResult("paused")
        choose = await self._content.chooser(sub)
        entry, created = await self._ledger.reserve(
            sub.id, period.key, sub.theme, late=late, now=self._clock.now(), choose=choose
        )
        if not created:
            if resume and entry.status == "pending":
                await self._settle(entry)
            return PostResult("already", entry.id, entry.message_id, sub.channel_id)
        if entry.status == "empty":
            self._events.digest_empty(sub.theme)
            return PostResult("empty", entry.id)
        self._busy.add(entry.id)
        try:
            return await self.send_entry(sub, entry)
        finally:
            self._busy.discard(entry.id)

    async def send_entry(self, sub: Subscription, entry: LedgerEntry) -> PostResult:
        """Render and send a reserved row, retrying transient failures with backoff."""
        frame = self._frame(sub, entry)
        try:
            post = await self._content.render(sub, entry.content, frame)
        except ContentGone as exc:
            return await self._fail(sub, entry, f"content removed: {exc}")
        name = thread_name(frame, self._strings)
        error = "no attempt"
        for attempt in range(self._settings.retry_attempts):
            if self.is_closed(sub.channel_id):
                return await self._fail(sub, entry, "channel paused")
            if attempt:
                await self._back_off(entry, attempt)
            try:
                message_id = await self._attempt(sub, entry, post, name, retry=attempt > 0)
            except ChannelGone as exc:
                await self._pause(sub, exc.reason)
                return await self._fail(sub, entry, exc.reason)
            except RejectedError as exc:
                return await self._fail(sub, entry, str(exc))
            except TransientError as exc:
                error = str(exc)
                log.warning("digest %s (%s): %s; retrying", sub.id, entry.period, error)
                continue
            if message_id is None:
                return await self._fail(sub, entry, "channel paused")
            return await self._sent(sub, entry, message_id)
        return await self._left_pending(sub, entry, error)

    def _frame(self, sub: Subscription, entry: LedgerEntry) -> Frame:
        shown = Period.from_key(entry.period, sub).shown
        return Frame(sub.theme, shown, sub.language, sub.role_id, entry.nonce, late=entry.late)

    async def _back_off(self, entry: LedgerEntry, attempt: int) -> None:
        """Wait before retry `attempt` (1, 2, …): doubling, capped; the row notes the try."""
        self._events.digest_retried()
        delay = self._settings.retry_base_seconds * 2 ** (attempt - 1)
        await self._clock.sleep(min(delay, self._settings.retry_max_seconds))
        await self._ledger.attempted(entry.id, self._clock.now())

    async def _attempt(
        self, sub: Subscription, entry: LedgerEntry, post: Post, name: str, *, retry: bool
    ) -> int | None:
        """One try: the message id, or None if the channel closed while this one waited."""
        async with self._channel_lock(sub.channel_id):
            if self.is_closed(sub.channel_id):
                return None
            if retry and self._deliverer.is_forum(sub.channel_id):
                # A forum post takes no nonce: a try that failed after Discord made the post
                # (a 5xx after the store) is found, or a retry would double it.
                found = await self._find(sub, entry, name)
                if found is not None:
                    return found
            return await self._deliverer.send(
                sub.channel_id, post, nonce=entry.nonce, thread_name=name, role_id=sub.role_id
            )

    def _channel_lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._channel_locks.get(channel_id)
        if lock is None:
            lock = self._channel_locks[channel_id] = asyncio.Lock()
        return lock

    async def _find(self, sub: Subscription, entry: LedgerEntry, name: str) -> int | None:
        return await self._deliverer.find(
            sub.channel_id,
            marker=entry.nonce,
            since=entry.reserved_at,
            thread_name=name,
            limit=self._settings.history_lookup_limit,
        )

    async def _sent(self, sub: Subscription, entry: LedgerEntry, message_id: int) -> PostResult:
        await self._ledger.mark_sent(entry.id, message_id, self._clock.now())
        # The ledger code is for admins: here and in /digest list, never in the post.
        log.info("digest %s (%s) sent as %s: message %s", sub.id, entry.period, entry.nonce,
                 message_id)  # fmt: skip
        self._events.digest_posted(sub.theme)
        if entry.late:
            self._events.digest_late(sub.theme)
        return PostResult("sent", entry.id, message_id, sub.channel_id)

    async def _left_pending(self, sub: Subscription, entry: LedgerEntry, error: str) -> PostResult:
        # Still pending: settled later (looked up first, never blindly re-sent).
        await self._ledger.note_error(entry.id, error)
        self._events.digest_failed(sub.theme)
        log.warning("digest %s (%s) not delivered after retries: %s", sub.id, entry.period, error)
        return PostResult("pending", entry.id, error=error)

    async def _fail(self, sub: Subscription, entry: LedgerEntry, error: str) -> PostResult:
        await self._ledger.mark_failed(entry.id, error, self._clock.now())
        self._events.digest_failed(sub.theme)
        log.warning("digest %s (%s) failed: %s", sub.id, entry.period, error)
        return PostResult("failed", entry.id, error=error)

    async def _pause(self, sub: Subscription, reason: GoneReason) -> None:
        self._dead_channels.add(sub.channel_id)
        paused = await self._subscriptions.pause_channel(sub.channel_id, reason)
        if not paused:
            return  # another post to this channel already paused it and told the admins
        self._events.digest_paused(reason, len(paused))
        ids = [s.id for s in paused]
        log.warning("channel %s answered %s: paused digests %s", sub.channel_id, reason, ids)
        text = "\n".join(
            paused_notice(s.channel_id, s.theme, reason, s.language, self._strings) for s in paused
        )
        await self._deliverer.notify_admins(sub.guild_id, sub.channel_id, text)

    # -- rows left pending -------------------------------------------------------------------
    async def settle(self, entry: LedgerEntry) -> None:
        """Resolve a row left pending (by a previous run, or by retries that ran out)."""
        if entry.id in self._busy:
            return
        self._busy.add(entry.id)
        try:
            async with self._fan_out:
                await self._settle(entry)
        finally:
            self._busy.discard(entry.id)

    async def _settle(self, entry: LedgerEntry) -> None:
        sub = await self._subscriptions.get(entry.subscription_id)
        if sub is None:
            return  # removed since; its rows went with it
        self._events.digest_settled()
        if sub.status != "active":
            await self._fail(sub, entry, f"paused ({sub.paused_reason})")
        elif not await self._settle_without_sending(sub, entry):
            await self.send_entry(sub, entry)

    async def _settle_without_sending(self, sub: Subscription, entry: LedgerEntry) -> bool:
        """Settle the row without a new post where that is right: found in the channel
        (sent), too old (failed), the channel gone (failed, paused), or the lookup failing
        (left pending for the next round). False: send it again, with its own nonce.

        Within Discord's nonce window a plain re-send is safe and cheaper than a lookup (except
        in forums: a forum post takes no nonce, so it is always looked up).
        """
        now = self._clock.now()
        last = max(entry.reserved_at, entry.attempted_at or entry.reserved_at)
        window = dt.timedelta(seconds=self._settings.nonce_window_seconds)
        if now - last <= window and not self._deliverer.is_forum(sub.channel_id):
            return False
        name = thread_name(self._frame(sub, entry), self._strings)
        try:
            found = await self._find(sub, entry, name)
        except ChannelGone as exc:
            await self._pause(sub, exc.reason)
            await self._fail(sub, entry, exc.reason)
            return True
        except (TransientError, RejectedError) as exc:
            log.warning("digest %s: lookup failed (%s); left pending", sub.id, exc)
            return True
        if found is not None:
            await self._sent(sub, entry, found)
            return True
        if now - entry.reserved_at > dt.timedelta(hours=self._settings.catch_up_hours):
            await self._fail(sub, entry, "expired: not sent within the catch-up window")
            return True
        return False
