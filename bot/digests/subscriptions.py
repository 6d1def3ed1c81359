"""SubscriptionService: every change to a digest subscription, in one place.

The /digest cog parses what an admin typed and renders the answer; this service checks what
the domain says (a server's limit, one digest of a theme and filter per channel), writes
through the subscriptions repository (the one table these writes touch) and tells the
schedule, so no caller has to remember `scheduled`/`unscheduled`. The ticker also re-reads the
active schedule every `RESYNC_TICKS` ticks: a safety net for another process's writes, not the
way this one's reach the schedule.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.digests.service import DigestService
from bot.domain.subscriptions import (
    MAX_SUBSCRIPTIONS_PER_GUILD,
    DigestFilter,
    Subscription,
)
from bot.errors import UserError
from bot.store.subscriptions import SubscriptionRepository

# How a duplicate is named to the admin: the cog's renderer (the service renders nothing).
Duplicate = Callable[[Subscription], UserError]


class SubscriptionService:
    def __init__(self, subscriptions: SubscriptionRepository, digests: DigestService) -> None:
        self._subscriptions = subscriptions
        self._digests = digests

    async def in_guild(self, guild_id: int) -> list[Subscription]:
        return await self._subscriptions.in_guild(guild_id)

    async def get(self, sub_id: int) -> Subscription | None:
        return await self._subscriptions.get(sub_id)

    async def check_room(self, guild_id: int) -> list[Subscription]:
        """The server's subscriptions, or a `UserError` when it has as many as it may."""
        existing = await self._subscriptions.in_guild(guild_id)
        if len(existing) >= MAX_SUBSCRIPTIONS_PER_GUILD:
            raise UserError("digests-too-many", limit=MAX_SUBSCRIPTIONS_PER_GUILD)
        return existing

    @staticmethod
    def twin(
        existing: list[Subscription],
        channel_id: int,
        theme: str,
        filters: DigestFilter,
        *,
        besides: int | None = None,
    ) -> Subscription | None:
        """The subscription that already posts this theme and filters in the channel, if any:
        a second would repeat it."""
        for sub in existing:
            if sub.id != besides and (sub.channel_id, sub.theme, sub.filters) == (
                channel_id,
                theme,
                filters,
            ):
                return sub
        return None

    async def subscribe(self, sub: Subscription, duplicate: Duplicate) -> Subscription:
        """Store a new subscription and schedule its first post (the next firing)."""
        existing = await self.check_room(sub.guild_id)
        twin = self.twin(existing, sub.channel_id, sub.theme, sub.filters)
        if twin is not None:
            raise duplicate(twin)
        stored = await self._subscriptions.add(sub)
        self._digests.scheduled(stored)
        return stored

    async def edit(
        self, old: Subscription, new: Subscription, duplicate: Duplicate
    ) -> Subscription:
        others = await self._subscriptions.in_guild(old.guild_id)
        twin = self.twin(others, new.channel_id, new.theme, new.filters, besides=old.id)
        if twin is not None:
            raise duplicate(twin)
        updated = await self._subscriptions.update(new)
        self._digests.scheduled(updated)  # unscheduled instead when it is paused
        return updated

    async def pause(self, sub_id: int) -> Subscription:
        paused = await self._subscriptions.set_status(sub_id, "paused", "manual")
        self._digests.unscheduled(sub_id)
        return paused

    async def resume(self, sub_id: int) -> Subscription:
        resumed = await self._subscriptions.set_status(sub_id, "active", None)
        self._digests.scheduled(resumed)
        return resumed

    async def remove(self, sub_id: int) -> bool:
        self._digests.unscheduled(sub_id)  # first: a tick between the two finds nothing due
        return await self._subscriptions.remove(sub_id)
