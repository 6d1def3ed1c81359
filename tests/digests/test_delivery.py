"""The delivery's parts that need no Discord: how a failure is classified (and so whether a post
is retried, paused or given up), the pacer that keeps Discord's global limit, and who a digest
may ping. From the survivors of mutation testing (docs/mutation.md); the delivery itself on the
stand-in is tests/e2e/test_digest_delivery.py."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, cast

import aiohttp
import discord
import pytest

from bot.digests.delivery import (
    ChannelGone,
    DeliveryError,
    Pacer,
    RejectedError,
    TransientError,
    _classify,
    allowed_mentions,
)
from tests.support.clock import ManualClock


@dataclass
class Response:
    """What discord.HTTPException reads of an aiohttp response."""

    status: int
    reason: str = "Reason"


def http(kind: type[discord.HTTPException], status: int) -> discord.HTTPException:
    # Typed as aiohttp's or requests' response (requests, where installed, is typed): a fake.
    return kind(cast(Any, Response(status)), {"code": 50001, "message": "Missing Access"})


@pytest.mark.parametrize(
    ("error", "kind", "text"),
    [
        (http(discord.Forbidden, 403), ChannelGone, "403 50001: Missing Access"),
        (http(discord.NotFound, 404), ChannelGone, "404 50001: Missing Access"),
        (http(discord.HTTPException, 429), TransientError, "429 50001: Missing Access"),
        (http(discord.HTTPException, 500), TransientError, "500 50001: Missing Access"),
        (http(discord.HTTPException, 502), TransientError, "502 50001: Missing Access"),
        (http(discord.HTTPException, 400), RejectedError, "400 50001: Missing Access"),
        (http(discord.HTTPException, 499), RejectedError, "499 50001: Missing Access"),
        (aiohttp.ServerDisconnectedError(), TransientError, "ServerDisconnectedError: "),
        (TimeoutError("slow"), TransientError, "TimeoutError: slow"),
    ],
)
def test_failures_are_retried_paused_or_given_up_and_say_why(
    error: Exception, kind: type[DeliveryError], text: str
) -> None:
    found = _classify(error)
    assert type(found) is kind
    assert str(found).startswith(text)


def test_a_lost_channel_says_why_it_is_gone() -> None:
    forbidden, missing = (
        _classify(http(discord.Forbidden, 403)),
        _classify(http(discord.NotFound, 404)),
    )
    assert isinstance(forbidden, ChannelGone)
    assert isinstance(missing, ChannelGone)
    assert (forbidden.reason, missing.reason) == ("forbidden", "not-found")
    assert str(ChannelGone("forbidden", "403 50013: Missing Permissions")) == (
        "403 50013: Missing Permissions"
    )


def test_a_digest_pings_only_its_opted_in_role() -> None:
    def pinged(mentions: discord.AllowedMentions) -> tuple[object, ...]:
        roles = [r.id for r in mentions.roles] if isinstance(mentions.roles, list) else False
        return mentions.everyone, mentions.users, mentions.replied_user, roles

    assert pinged(allowed_mentions(None)) == (False, False, False, False)
    assert pinged(allowed_mentions(77)) == (False, False, False, [77])


async def test_the_pacer_spaces_requests_by_the_rate_and_lets_all_through_without_one() -> None:
    clock = ManualClock()  # sleeping moves it on
    unpaced, paced = Pacer(None, clock), Pacer(20.0, clock)  # one every 50 ms
    assert (unpaced.rate, paced.rate) == (None, 20.0)  # what a sharded bot reports it keeps
    for _ in range(5):
        await unpaced.wait()
    assert clock.sleeps == []
    await paced.wait()  # the first goes at once
    await paced.wait()
    await paced.wait()
    assert [round(s, 6) for s in clock.sleeps] == [0.05, 0.05]
    clock.advance(10)  # after a quiet spell, the next goes at once again
    await paced.wait()
    assert [round(s, 6) for s in clock.sleeps] == [0.05, 0.05]


async def test_the_pacer_never_makes_up_a_stall_by_going_faster_than_the_rate() -> None:
    clock = ManualClock()
    paced = Pacer(20.0, clock)  # slots 50 ms apart
    await paced.wait()  # slot 0
    clock.advance(0.08)  # the loop was busy: slot 1 (at 50 ms) is 30 ms past
    await paced.wait()  # goes at once, and the schedule starts again from now
    await paced.wait()  # a full 50 ms after it, not the 20 ms left of the old schedule
    assert [round(s, 6) for s in clock.sleeps] == [0.05]
    assert paced.lost == 0.0  # nothing was queued behind the stall
    clock.advance(5)  # a quiet spell
    await paced.wait()
    await paced.wait()
    assert [round(s, 6) for s in clock.sleeps] == [0.05, 0.05]
    assert paced.lost == 0.0


async def test_the_pacer_counts_a_long_stall_with_requests_queued_as_lost() -> None:
    clock = ManualClock()
    paced = Pacer(20.0, clock)
    stalls = iter([0.0, 0.5])  # the third request's sleep overruns by 0.5 s (a stall)

    async def sleep(seconds: float) -> None:
        clock.sleeps.append(seconds)
        clock.advance(max(0.0, seconds) + next(stalls, 0.0))
        await asyncio.sleep(0)

    clock.sleep = sleep  # type: ignore[method-assign]
    await asyncio.gather(*(paced.wait() for _ in range(4)))
    # the fourth finds its slot (150 ms) 0.45 s past, with requests queued: all of it is lost
    assert round(paced.lost, 6) == 0.45
    assert [round(s, 6) for s in clock.sleeps] == [0.05, 0.05]


async def test_the_pacer_sends_at_once_when_the_slot_is_due_exactly() -> None:
    clock = ManualClock()
    paced = Pacer(20.0, clock)
    await paced.wait()
    clock.advance(0.05)  # the next slot is now, to the instant: no sleep, not even of 0 s
    await paced.wait()
    assert clock.sleeps == []


async def test_the_pacer_adds_up_every_stall_with_requests_queued() -> None:
    clock = ManualClock()
    paced = Pacer(20.0, clock)
    stalls = iter([0.0, 0.5, 0.0, 0.0, 0.3])  # two sleeps overrun: two stalls

    async def sleep(seconds: float) -> None:
        clock.sleeps.append(seconds)
        clock.advance(max(0.0, seconds) + next(stalls, 0.0))
        await asyncio.sleep(0)

    clock.sleep = sleep  # type: ignore[method-assign]
    await asyncio.gather(*(paced.wait() for _ in range(8)))
    lost_once = 0.45  # as in the test above
    assert paced.lost > lost_once  # the second stall is added to the first, not put instead
    assert round(paced.lost, 6) == round(lost_once + 0.25, 6)
