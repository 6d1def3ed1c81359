"""/digest on the stand-in: the command, the subscription stored, and the times it shows
(Discord timestamps, the next local posting time)."""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from typing import Any

import pytest

from bot.app import LaurelBot
from bot.domain.subscriptions import Subscription
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.interactions import EPHEMERAL

POST = "POST /channels/{channel_id}/messages"
STAMP = re.compile(r"<t:(\d+):F> \(<t:\1:R>\)")


def ada_id(server: LocalDiscord) -> int:
    return server.world.find_user("ada").id  # owns the server and holds Manage Server


async def digest(
    server: LocalDiscord,
    subcommand: str,
    *,
    locale: str = "en-US",
    user_id: int | None = None,
    **options: Any,
) -> dict[str, Any]:
    """Run /digest `subcommand` as ada (unless told otherwise) and return the answer."""
    interaction = await server.slash(
        "digest",
        options,
        subcommand=subcommand,
        user_id=user_id or ada_id(server),
        locale=locale,
    )
    message = await interaction.message()
    assert message["flags"] & EPHEMERAL, message["content"]
    return message


def years(start: int | None, end: int | None) -> dict[str, Any]:
    """The year-from and year-to options (their names are not Python names)."""
    given = {"year-from": start, "year-to": end}
    return {name: year for name, year in given.items() if year is not None}


def next_local(time: dt.time, zone: str, now: dt.datetime) -> dt.datetime:
    """The next `time` in `zone` after `now`, computed here and not by the bot."""
    local_now = now.astimezone(zoneinfo.ZoneInfo(zone))
    day = local_now.date()
    while True:
        candidate = dt.datetime.combine(day, time, zoneinfo.ZoneInfo(zone))
        if candidate > now:
            return candidate.astimezone(dt.UTC)
        day += dt.timedelta(days=1)


def stamps(text: str) -> list[int]:
    return [int(s) for s in STAMP.findall(text)]


# A Monday morning in Berlin winter: the bot's clock, set by `laurel_time`.
MONDAY = dt.datetime(2026, 1, 5, 6, 10, tzinfo=dt.UTC)
on_monday = pytest.mark.parametrize("laurel_time", [MONDAY], ids=["monday"])


def stored_sub(bot: LaurelBot, guild_id: int, channel_id: int, **changes: Any) -> Subscription:
    """A subscription made now by `bot`'s clock (made before a time that has passed, it would
    be caught up at the next tick)."""
    data: dict[str, Any] = {
        "guild_id": guild_id,
        "channel_id": channel_id,
        "theme": "paper-of-the-day",
        "time": dt.time(9),
        "timezone": "UTC",
        "created_by": 1,
        "created_at": bot.clock.now(),
    }
    return Subscription.model_validate(data | changes)
