"""A digest fan-out while Discord or the store misbehaves: many subscriptions due at the same
minute across three channels, real discord.py on the stand-in, real SQLite, a fake clock.

Every case ends the same way: each subscription has one ledger row, marked sent, and the
stand-in holds exactly one message carrying that row's marker — nothing lost, nothing doubled.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections import Counter
from typing import Any

import pytest

from bot.app import LaurelBot
from bot.domain.subscriptions import Subscription, Theme
from bot.render.digest_posts import marker_in
from laurel_console.localdiscord import gateway as op
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.clock import ManualClock
from tests.support.exactly_once import (
    NINE,
    PATH,
    POST,
    Checked,
    bot,
    clock,
    exactly_once,
    markers,
    run_at,
    subscribe_many,
)
from tests.support.gateway import ReadyCount

__all__ = ["bot", "clock"]  # fixtures, from tests/support

FORUM_POST = "POST /channels/{channel_id}/threads"


def tries(server: LocalDiscord) -> Counter[int]:
    return Counter(r.status for r in server.requests_to(POST))


# -- Discord refuses or stalls a POST ----------------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "options"),
    [
        pytest.param(
            "rate_limit",
            {"route": POST, "times": 3, "retry_after": 0.05},
            marks=pytest.mark.fault(PATH, "429 on the route"),
            id="429-route",
        ),
        pytest.param(
            "global_rate_limit",
            {"times": 3, "retry_after": 0.05},
            marks=pytest.mark.fault(PATH, "429 global"),
            id="429-global",
        ),
        pytest.param(
            "server_error",
            {"route": POST, "times": 3, "status": 503},
            marks=pytest.mark.fault(PATH, "503 before the store"),
            id="5xx-before",
        ),
        pytest.param(
            "server_error",
            {"route": POST, "times": 3, "status": 503, "after_store": True},
            marks=pytest.mark.fault(PATH, "503 after the store"),
            id="5xx-after",
        ),
        pytest.param(
            "delay",
            {"route": POST, "times": 3, "seconds": 0.3},
            marks=pytest.mark.fault(PATH, "held in flight before the store"),
            id="held-before",
        ),
        pytest.param(
            "delay",
            {"route": POST, "times": 3, "seconds": 0.3, "after_store": True},
            marks=pytest.mark.fault(PATH, "held in flight after the store"),
            id="held-after",
        ),
    ],
)
async def test_a_fan_out_through_429s_5xx_and_held_requests_posts_each_once(
    bot: LaurelBot,
    server: LocalDiscord,
    clock: ManualClock,
    checked: Checked,
    kind: str,
    options: dict[str, Any],
) -> None:
    subs = await subscribe_many(bot, server)
    fault = server.inject(kind, **options)
    await run_at(bot, clock, NINE)
    assert fault.hits == 3
    posts = server.requests_to(POST)
    # Each refused request was tried again once, with its own nonce; a held one was not.
    assert len(posts) == len(subs) + (0 if kind == "delay" else fault.hits)
    summary = await exactly_once(bot, server, subs)
    await run_at(bot, clock, NINE + dt.timedelta(minutes=1))  # nothing more is due
    assert len(server.requests_to(POST)) == len(posts)
    checked(f"POSTs by status {dict(sorted(tries(server).items()))}; {summary}")


@pytest.mark.parametrize(
    ("kind", "channel", "reason"),
    [
        pytest.param(
            "missing_access", "announcements", "forbidden",
            marks=pytest.mark.fault(PATH, "403 on posting"), id="403",
        ),
        pytest.param(
            "unknown_channel", "reading-group", "not-found",
            marks=pytest.mark.fault(PATH, "404 on posting"), id="404",
        ),
    ],
)  # fmt: skip
async def test_a_lost_channel_pauses_its_subscriptions_and_the_rest_post(
    bot: LaurelBot,
    server: LocalDiscord,
    clock: ManualClock,
    checked: Checked,
    kind: str,
    channel: str,
    reason: str,
) -> None:
    subs = await subscribe_many(bot, server)
    target = server.channel(channel).id
    server.inject(kind, channel_id=target, times=None)
    lost = [s for s in subs if s.channel_id == target]
    others = [s for s in subs if s.channel_id != target]
    for day in range(3):
        await run_at(bot, clock, NINE + dt.timedelta(days=day))
    for sub in lost:
        assert sub.id is not None
        stored = await bot.subscriptions.get(sub.id)
        assert stored is not None
        assert (stored.status, stored.paused_reason) == ("paused", reason)
    reached = [r for r in server.requests if f"/channels/{target}/" in r.path]
    assert len(reached) == 1  # the first refusal stopped every other post there
    notices = [m for m in server.messages("general") if f"<#{target}>" in m["content"]]
    assert len(notices) == 1
    summary = await exactly_once(bot, server, others, periods=3)
    checked(
        f"{len(lost)} subscriptions paused ({reason}) after 1 request; admins told once; "
        f"3 days: {summary}"
    )


@pytest.mark.fault(PATH, "503 after the store, in a forum (no nonce)")
async def test_a_forum_post_made_before_a_5xx_is_found_not_made_again(
    bot: LaurelBot, server: LocalDiscord, clock: ManualClock, checked: Checked
) -> None:
    guild, forum = server.world.default_guild(), server.channel("papers-forum")
    subs = []
    for theme in (Theme.PAPER_OF_THE_DAY, Theme.TEST_OF_TIME, Theme.VENUE_SPOTLIGHT):
        sub = Subscription.model_validate(
            {"guild_id": guild.id, "channel_id": forum.id, "theme": theme, "time": dt.time(9, 0),
             "timezone": "UTC", "created_by": guild.owner_id, "created_at": bot.digests.now()}
        )  # fmt: skip
        subs.append(await bot.subscriptions.add(sub))
        bot.digests.scheduled(subs[-1])
    fault = server.inject("server_error", route=FORUM_POST, status=503, after_store=True, times=2)
    await run_at(bot, clock, NINE)
    assert fault.hits == 2
    posts = [c for c in guild.channels.values() if c.parent_id == forum.id]
    assert len(posts) == len(subs)  # one new post per subscription, none doubled
    for sub in subs:
        assert sub.id is not None
        (row,) = await bot.digest_engine.ledger.of_subscription(sub.id)
        assert row.status == "sent"
        (starter,) = server.messages(server.channel(row.message_id or 0).id)
        found = marker_in(starter["embeds"][-1]["footer"]["text"])
        assert found == row.nonce
    statuses = [r.status for r in server.requests_to(FORUM_POST)]
    checked(f"forum POSTs {statuses}; the 2 refused ones found by their marker; "
            f"{len(subs)} posts, each once")  # fmt: skip


# -- the gateway drops during a fan-out --------------------------------------------------------
@pytest.mark.parametrize(
    "fail_resume",
    [
        pytest.param(
            False, marks=pytest.mark.fault(PATH, "dropped gateway (resumed)"), id="resumed"
        ),
        pytest.param(
            True, marks=pytest.mark.fault(PATH, "failed resume (on_ready again)"), id="re-identify"
        ),
    ],
)
async def test_a_gateway_drop_mid_fan_out_doubles_no_job_and_no_post(
    bot: LaurelBot, server: LocalDiscord, clock: ManualClock, checked: Checked, fail_resume: bool
) -> None:
    subs = await subscribe_many(bot, server)
    ready = ReadyCount(bot)
    server.inject("delay", route=POST, seconds=0.3, times=None)  # the fan-out spans the drop
    clock.set(NINE)
    await bot.digest_engine.ticker.tick()
    await server.wait_for_request(POST)
    mark = len(server.gateway.frames)
    if fail_resume:
        server.fail_next_resume()
        await server.drop_gateway(code=4000)
        await asyncio.wait_for(ready.again.wait(), 10)
        assert ready.fired == 1
    else:
        await server.drop_gateway()  # abruptly, as a network failure does
        await server.gateway.wait_frame("out", op.DISPATCH, t="RESUMED", after=mark)
        assert ready.fired == 0
    await bot.digest_engine.ticker.tick()  # what on_ready's wake runs: nothing is due twice
    await bot.digest_engine.supervisor.drain()
    server.clear_faults()
    assert bot.scheduler is not None
    jobs = [job.id for job in bot.scheduler.get_jobs()]
    assert sum(j == "digests:tick" for j in jobs) == 1
    assert len(set(jobs)) == len(jobs)
    summary = await exactly_once(bot, server, subs)
    await run_at(bot, clock, NINE + dt.timedelta(minutes=1))
    assert len(markers(server)) == len(subs)
    checked(f"on_ready fired {ready.fired}x; one tick job; {summary}")
