"""Scheduled digests on the stand-in: real discord.py, real SQLite, a fake clock.

What Discord stored is checked in the stand-in's own record (`server.messages`).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import discord
import pytest

from bot.app import LaurelBot
from bot.digests.delivery import DiscordDelivery
from bot.domain.clock import SystemClock
from bot.domain.subscriptions import Theme
from bot.render.digest_posts import Post, hidden_marker
from bot.settings import DigestSettings, Settings
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.clock import ManualClock
from tests.support.digest_delivery import (
    subscribe,
)

POST = "POST /channels/{channel_id}/messages"
FORUM_POST = "POST /channels/{channel_id}/threads"
MORNING = dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC)
NINE = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC)

Start = Callable[[], AbstractAsyncContextManager[LaurelBot]]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(MORNING)


@pytest.fixture
def start(
    server: LocalDiscord, db: Database, clock: ManualClock, caplog: pytest.LogCaptureFixture
) -> Start:
    """Starts the bot (again and again: a restart) on the same database and stand-in, on a
    clock the tests move: with no live scheduler, so no tick fired by the wall clock races
    theirs."""
    caplog.set_level(logging.WARNING)
    settings = Settings(digests=DigestSettings(requests_per_second=None, retry_base_seconds=0.01))
    return lambda: laurel_on(server, db, settings, clock=clock)


@pytest.fixture
async def bot(start: Start, caplog: pytest.LogCaptureFixture) -> AsyncIterator[LaurelBot]:
    async with start() as running:
        yield running
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], "the bot logged errors"


async def run_at(bot: LaurelBot, clock: ManualClock, moment: dt.datetime) -> None:
    clock.set(moment)
    await bot.digest_engine.run_due()


def footers(message: dict[str, Any]) -> list[str]:
    return [e.get("footer", {}).get("text", "") for e in message.get("embeds", [])]


async def test_posts_land_in_text_announcement_thread_and_forum_channels(
    bot: LaurelBot, server: LocalDiscord, clock: ManualClock
) -> None:
    member = server.world.find_role("Member")
    subs = {
        "general": await subscribe(bot, server, "general", role_id=member.id),
        "announcements": await subscribe(bot, server, "announcements", theme=Theme.TEST_OF_TIME),
        "reading-group": await subscribe(bot, server, "reading-group", language="zh-TW"),
        "papers-forum": await subscribe(
            bot, server, "papers-forum", theme=Theme.VENUE_SPOTLIGHT, days={0}
        ),
    }
    await run_at(bot, clock, NINE)
    await run_at(bot, clock, NINE + dt.timedelta(minutes=1))  # nothing more is due
    for name, sub in subs.items():
        assert sub.id is not None
        (row,) = await bot.digest_engine.ledger.of_subscription(sub.id)
        assert row.status == "sent", (name, row.error)
        assert row.message_id is not None
        if name == "papers-forum":
            # A forum gets a new post: a thread whose starter message has the thread's id.
            thread = server.channel(row.message_id)
            assert thread.parent_id == server.channel("papers-forum").id
            assert thread.name == "Venue spotlight · 2026-01-05"  # its day, not its week
            (message,) = server.messages(thread.id)
        else:
            (message,) = server.messages(sub.channel_id)
        assert int(message["id"]) == row.message_id
        assert footers(message)[-1].endswith(hidden_marker(row.nonce))  # unseen by members
        assert row.nonce not in footers(message)[-1]
    general = server.messages(subs["general"].channel_id)[0]
    assert general["content"].startswith(f"<@&{member.id}>")
    assert general["mention_roles"] == [str(member.id)]
    (post,) = [
        r
        for r in server.requests_to(POST)
        if r.path.endswith(f"/{subs['general'].channel_id}/messages")
    ]
    # Nobody is mentioned but the one role the subscription opted in to.
    assert post.body["allowed_mentions"] == {"parse": [], "roles": [member.id]}
    assert post.body["nonce"] == row_nonce(
        await bot.digest_engine.ledger.of_subscription(subs["general"].id or 0)
    )
    assert post.body["enforce_nonce"] is True
    assert "每日論文" in server.messages(subs["reading-group"].channel_id)[0]["content"]


def row_nonce(rows: list[Any]) -> str:
    (row,) = rows
    return str(row.nonce)


@pytest.mark.parametrize(
    ("fault", "channel", "reason"),
    [
        ("missing_access", "announcements", "forbidden"),
        ("unknown_channel", "reading-group", "not-found"),
    ],
)
async def test_lost_access_pauses_and_tells_the_admins_once(
    bot: LaurelBot, server: LocalDiscord, clock: ManualClock, fault: str, channel: str, reason: str
) -> None:
    target = server.channel(channel).id
    first = await subscribe(bot, server, channel)
    second = await subscribe(bot, server, channel, theme=Theme.TEST_OF_TIME)
    server.inject(fault, channel_id=target, times=None)
    await run_at(bot, clock, NINE)
    for sub in (first, second):
        assert sub.id is not None
        stored = await bot.subscriptions.get(sub.id)
        assert stored is not None
        assert (stored.status, stored.paused_reason) == ("paused", reason)
    reached = [r for r in server.requests if f"/channels/{target}/" in r.path]
    assert len(reached) == 1  # the second post saw the pause and never went out
    # The admins are told once, in the system channel (#general).
    (notice,) = server.messages(server.channel("general").id)
    assert f"<#{target}>" in notice["content"]
    await run_at(bot, clock, NINE + dt.timedelta(days=1))
    await run_at(bot, clock, NINE + dt.timedelta(days=2))
    assert len([r for r in server.requests if f"/channels/{target}/" in r.path]) == 1
    assert len(server.messages(server.channel("general").id)) == 1


@pytest.mark.parametrize(
    "fault",
    [
        {"kind": "server_error", "status": 503, "after_store": True},  # the bot sees an error
        {"kind": "server_error", "status": 500, "after_store": True},  # discord.py retries it
        {"kind": "server_error", "status": 502},
        {"kind": "rate_limit", "times": 2},
    ],
    ids=["503-after-store", "500-after-store", "502", "429"],
)
async def test_rate_limits_and_server_errors_are_retried_never_duplicated(
    bot: LaurelBot, server: LocalDiscord, clock: ManualClock, fault: dict[str, Any]
) -> None:
    sub = await subscribe(bot, server, "general")
    server.inject(**{"route": POST, "channel_id": sub.channel_id, **fault})
    await run_at(bot, clock, NINE)
    attempts = [r for r in server.requests_to(POST) if str(sub.channel_id) in r.path]
    assert len(attempts) >= 2
    assert len({r.body["nonce"] for r in attempts}) == 1
    (message,) = server.messages(sub.channel_id)
    assert sub.id is not None
    (row,) = await bot.digest_engine.ledger.of_subscription(sub.id)
    assert (row.status, row.message_id) == ("sent", int(message["id"]))


async def test_a_missed_post_is_caught_up_once_marked_late(
    start: Start, server: LocalDiscord, clock: ManualClock
) -> None:
    assert clock.now() == MORNING  # subscribed before 09:00
    async with start() as bot:
        sub = await subscribe(bot, server, "general")
    clock.set(dt.datetime(2026, 1, 5, 11, 30, tzinfo=dt.UTC))  # down over 09:00
    for _ in range(2):  # started twice: caught up once
        async with start() as bot:
            await bot.digest_engine.run_due()
        clock.set(clock.now() + dt.timedelta(minutes=1))
    (message,) = server.messages(sub.channel_id)
    assert "late" in message["content"]


async def test_channels_are_found_by_their_guild_not_by_asking_every_guild(
    bot: LaurelBot, server: LocalDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    delivery = DiscordDelivery(bot, None, SystemClock())
    scans: list[int] = []
    search_all = bot.get_channel

    def counted(channel_id: int) -> Any:
        scans.append(channel_id)
        return search_all(channel_id)

    monkeypatch.setattr(bot, "get_channel", counted)
    names = ("general", "announcements", "reading-group", "papers-forum")
    for name in names:
        channel_id = server.channel(name).id
        assert delivery._channel(channel_id) is search_all(channel_id)
    assert delivery.is_forum(server.channel("papers-forum").id)
    assert scans == []  # every known channel came from its own guild's cache
    # One it has not indexed (a thread made since) is looked for everywhere once, then kept.
    general = server.channel("general").id
    del delivery._guild_of[general]
    assert delivery._channel(general) is search_all(general)
    assert delivery._channel(general) is search_all(general)
    assert scans == [general]
    assert delivery._channel(999) is None  # unknown anywhere: discord.py's answer, None


# -- the deliverer's own answers (survivors of mutation testing: docs/mutation.md) -------------
def post(marker: str) -> Post:
    return Post(content="", embeds=[discord.Embed(title="A post").set_footer(text=f"x · {marker}")])


async def test_a_post_is_found_by_its_marker_in_a_channel_and_in_a_forum(
    bot: LaurelBot, server: LocalDiscord, clock: ManualClock
) -> None:
    delivery = DiscordDelivery(bot, None, clock)
    for name in ("general", "papers-forum"):
        channel = server.channel(name).id
        sent = await delivery.send(
            channel, post("L1-abc"), nonce="L1-abc", thread_name="Paper of the day", role_id=None
        )
        # The stand-in stamps its messages by its own clock: "since" is a minute before that.
        since = discord.utils.snowflake_time(sent) - dt.timedelta(minutes=1)
        await delivery.send(
            channel, post("L2-def"), nonce="L2-def", thread_name="Another day", role_id=None
        )

        async def find(
            marker: str,
            thread: str = "Paper of the day",
            ch: int = channel,
            at: dt.datetime = since,
        ) -> Any:
            return await delivery.find(ch, marker=marker, since=at, thread_name=thread, limit=50)

        assert await find("L1-abc") == sent
        assert await find("L9-zzz") is None
        if name == "papers-forum":
            assert await find("L1-abc", "Another day") is None  # another post's thread
            later = since + dt.timedelta(minutes=6)
            assert (
                await delivery.find(
                    channel, marker="L1-abc", since=later, thread_name="Paper of the day", limit=50
                )
                is None
            )  # made before the row: not this row's post
            # A post is found by its theme, the name up to its last " · ": a version before
            # named the period by its ISO week, and a theme's own name may hold a " · ".
            spotlight = await delivery.send(
                channel,
                post("L3-ghi"),
                nonce="L3-ghi",
                thread_name="Venue spotlight · NeurIPS · 2026-W02",
                role_id=None,
            )
            assert await find("L3-ghi", "Venue spotlight · NeurIPS · 2026-01-08") == spotlight
            assert await find("L3-ghi", "Venue spotlight · ICML · 2026-01-08") is None
            assert await find("L3-ghi", "Venue spotlight · 2026-01-08") is None


async def test_the_admins_are_told_in_the_system_channel_and_an_unknown_server_is_no_one(
    bot: LaurelBot, server: LocalDiscord
) -> None:
    # (The owner's direct message, when the lost channel is the system channel itself, is not
    # played here: the stand-in has no DM channels. docs/mutation.md lists what that leaves.)
    delivery = DiscordDelivery(bot, None, SystemClock())
    guild = server.world.default_guild()
    general, forum = server.channel("general").id, server.channel("papers-forum").id
    assert await delivery.notify_admins(guild.id, forum, "forum paused") is True
    assert [m["content"] for m in server.messages(general)] == ["forum paused"]
    assert await delivery.notify_admins(guild.id + 1, forum, "nowhere") is False


async def test_a_post_carries_its_text_files_and_opted_in_role_to_a_channel_and_a_forum(
    bot: LaurelBot, server: LocalDiscord
) -> None:
    delivery = DiscordDelivery(bot, None, SystemClock())
    role = server.world.find_role("Member").id
    chart = Post(
        content=f"<@&{role}>",
        embeds=[discord.Embed(title="By the numbers").set_footer(text="x · L7-abc")],
        files=[("chart.png", b"\x89PNG not really")],
    )
    for name in ("general", "papers-forum"):
        await subscribe(bot, server, name, role_id=role)  # the role a digest may ping here
        before = len(server.requests)
        await delivery.send(
            server.channel(name).id, chart, nonce="L7-abc", thread_name="Numbers", role_id=role
        )
        (sent,) = [r for r in server.requests[before:] if r.method == "POST"]
        message = sent.body.get("message", sent.body)  # a forum post wraps its first message
        assert message["content"] == f"<@&{role}>"
        assert message["allowed_mentions"] == {"parse": [], "roles": [role]}
        assert [(f["filename"], f["size"]) for f in sent.files] == [("chart.png", 15)]
