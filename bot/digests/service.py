"""DigestService: what the /digest commands call (schedule, unschedule, preview, post now).

The engine's parts are injected (see `bot.digests.engine`): the due set it (re)schedules into,
the reconciler that posts through the ledger, the ledger and the content pickers it previews
with, and the clock that says what "now" is.
"""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass, replace

from bot.digests.content import DigestContent
from bot.digests.periods import Firing, next_firing, period_of
from bot.digests.reconciler import PostResult, Reconciler
from bot.digests.schedule import DueSet
from bot.digests.themes import ThemeRegistry
from bot.domain.clock import Clock
from bot.domain.shards import Shards
from bot.domain.subscriptions import Cadence, CycleState, Subscription, Theme
from bot.errors import UserError
from bot.render.digest_posts import Frame, Post
from bot.store.ledger import LedgerRepository
from bot.store.subscriptions import SubscriptionRepository

log = logging.getLogger(__name__)
# How far ahead `/digest post-now` may run: this many scheduled posts posted early at most.
_AHEAD = 14


@dataclass(frozen=True, slots=True)
class TodaysPaper:
    """A server digest's paper of the day: the paper, the period (its local date), where."""

    paper_id: int
    day: str
    channel_id: int


class DigestService:
    def __init__(
        self,
        *,
        clock: Clock,
        due: DueSet,
        reconciler: Reconciler,
        ledger: LedgerRepository,
        content: DigestContent,
        subscriptions: SubscriptionRepository,
        shards: Shards | None = None,
    ) -> None:
        self._clock = clock
        self._due = due
        self._reconciler = reconciler
        self._ledger = ledger
        self._content = content
        self._subscriptions = subscriptions
        self._shards = shards

    async def paper_for_today(self, guild_id: int) -> TodaysPaper | None:
        """What this server's paper-of-the-day digest posts today (its first active daily
        one): the paper its ledger row for today holds, or, before it is reserved, the one its
        picker will choose (a pure function of the stored cycle). None without such a digest."""
        now = self._clock.now()
        found = [
            sub
            for sub in await self._subscriptions.in_guild(guild_id)
            if sub.theme == Theme.PAPER_OF_THE_DAY
            and sub.cadence == Cadence.DAILY
            and sub.status == "active"
            and sub.id is not None
        ]
        for sub in sorted(found, key=lambda s: s.id or 0):
            assert sub.id is not None
            period = period_of(sub, now)
            entry = await self._ledger.find(sub.id, period)
            if entry is None:
                choose = await self._content.chooser(sub)
                content = choose(await self._ledger.cycle_state(sub.id), 0).content
            else:
                content = entry.content
            if "paper" in content:
                return TodaysPaper(int(content["paper"]), period, sub.channel_id)
        return None

    @property
    def themes(self) -> ThemeRegistry:
        """The digest themes this engine posts (what /digest offers and checks against)."""
        return self._content.themes

    def now(self) -> dt.datetime:
        """The engine's clock (UTC): what "now" means for schedules, in tests too."""
        return self._clock.now()

    def next_post(self, sub: Subscription, now: dt.datetime | None = None) -> dt.datetime:
        """The schedule's next firing, whatever the ledger holds (see `upcoming`)."""
        return next_firing(sub, now or self._clock.now()).at

    async def upcoming(self, sub: Subscription) -> Firing | None:
        """The next post the schedule has still to make: the first firing from now whose
        period the ledger does not hold yet (`/digest post-now` posts the next scheduled post
        early, under that firing's own period, so the firing itself then finds it done).
        Preview, post-now and the post agree on it (issue 25, item 7). None when the next
        `_AHEAD` posts were all posted early."""
        ahead, held = await self._look_ahead(sub)
        return next((f for f in ahead if f.period.key not in held), None)

    async def next_due(self, sub: Subscription) -> dt.datetime:
        """When the schedule's next post still to make goes out (`upcoming`)."""
        found = await self.upcoming(sub)
        if found is not None:
            return found.at
        return next_firing(sub, (await self._look_ahead(sub))[0][-1].at).at

    async def _look_ahead(self, sub: Subscription) -> tuple[list[Firing], dict[str, str]]:
        """The next `_AHEAD` firings, and the status of each one's ledger row, by period."""
        ahead = [next_firing(sub, self._clock.now())]
        while len(ahead) < _AHEAD:
            ahead.append(next_firing(sub, ahead[-1].at))
        if sub.id is None:
            return ahead, {}
        return ahead, await self._ledger.held(sub.id, [f.period.key for f in ahead])

    async def _early(self, sub: Subscription) -> Firing:
        """The post `/digest post-now` makes: the next still to make, unless an earlier
        post-now's is still unconfirmed (pending), which is named again, never posted past."""
        ahead, held = await self._look_ahead(sub)
        waiting = [f for f in ahead if held.get(f.period.key) == "pending"]
        unheld = [f for f in ahead if f.period.key not in held]
        if not (waiting or unheld):
            raise UserError("digest-error-posted-ahead", count=str(_AHEAD))
        return (waiting or unheld)[0]

    def scheduled(self, sub: Subscription) -> None:
        """(Re)schedule after subscribe, edit or resume; the first post is the next firing."""
        if sub.id is None:
            return
        if sub.status != "active" or (
            self._shards is not None and not self._shards.owns(sub.guild_id)
        ):  # another process's shard posts it (its interactions come to that one too)
            self.unscheduled(sub.id)
            return
        self._reconciler.reopen(sub.channel_id)
        self._due.add(sub, self._clock.now())

    def unscheduled(self, sub_id: int) -> None:
        self._due.remove(sub_id)

    async def last_code(self, sub: Subscription) -> tuple[str, dt.datetime | None] | None:
        """The ledger code of the subscription's latest post and when it was sent: for
        `/digest list`, where an admin looks (the posts themselves carry it invisibly)."""
        last = None if sub.id is None else await self._ledger.last_sent(sub.id)
        return None if last is None else (last.nonce, last.sent_at)

    async def preview(self, sub: Subscription) -> Post:
        """What the next post would show, rendered; nothing is reserved or sent."""
        choose = await self._content.chooser(sub)
        state = CycleState() if sub.id is None else await self._ledger.cycle_state(sub.id)
        watermark = await self._subscriptions.audit_watermark(sub.id) if sub.id is not None else -1
        choice = choose(state, watermark)
        if not choice.content:
            raise UserError(self._content.theme(sub).empty_key)
        # The firing's own period: where the clock skips midnight (America/Nuuk), Saturday's
        # 23:30 post fires at Sunday 00:00 local, and the instant alone would say Sunday.
        period = (await self._early(sub)).period
        frame = Frame(sub.theme, period.shown, sub.language, sub.role_id, marker="")  # none: unsent
        return await self._content.render(sub, choice.content, frame)

    async def post_now(self, sub: Subscription, *, requested_by: int) -> PostResult:
        """The next scheduled post (`upcoming`), posted now through the ledger under its own
        period: when its firing comes, the ledger says it is done and nothing is posted twice;
        a second request posts the one after it. The result names the period it posted."""
        if sub.id is None:
            raise ValueError("post_now needs a stored subscription")
        await self._content.check_not_empty(sub)
        period = (await self._early(sub)).period
        log.info("digest %s: %s posted early by %s", sub.id, period, requested_by)
        result = await self._reconciler.deliver(sub, period, late=False)
        if result.status == "empty":
            raise UserError("digests-nothing-new")
        return replace(result, period=period)
