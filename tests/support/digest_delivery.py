"""A digest subscription stored and scheduled straight through the bot's parts, as /digest
subscribe leaves it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.app import LaurelBot
from bot.domain.subscriptions import Subscription, Theme
from laurel_console.localdiscord.server import LocalDiscord


async def subscribe(
    bot: LaurelBot, server: LocalDiscord, channel: str, **fields: Any
) -> Subscription:
    guild = server.world.default_guild()
    base: dict[str, Any] = {
        "guild_id": guild.id,
        "channel_id": server.channel(channel).id,
        "theme": Theme.PAPER_OF_THE_DAY,
        "time": dt.time(9, 0),
        "timezone": "UTC",
        "created_by": guild.owner_id,
        "created_at": bot.digests.now(),
    }
    sub = await bot.subscriptions.add(Subscription.model_validate({**base, **fields}))
    bot.digests.scheduled(sub)
    return sub
