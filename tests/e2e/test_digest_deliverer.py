"""The digest deliverer on discord.py and the stand-in, on its own: where it tells the admins,
how it finds a post whose outcome was lost, and where it posts. Found by mutation testing
(docs/mutation.md); every check reads what the stand-in recorded or stored.
"""

from __future__ import annotations

import datetime as dt
import itertools
from typing import Any

import discord
import pytest

from bot.app import LaurelBot
from bot.digests.delivery import ChannelGone, DiscordDelivery
from bot.domain.clock import SystemClock
from bot.render.digest_posts import Post
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord import payloads
from laurel_console.localdiscord.messages import Origin
from laurel_console.localdiscord.server import LocalDiscord
from laurel_console.localdiscord.state import Overwrite, Perm

OPEN_DM = "POST /users/@me/channels"
POST = "POST /channels/{channel_id}/messages"
HISTORY = "GET /channels/{channel_id}/messages"
NONE_ALLOWED: dict[str, Any] = {"parse": []}  # AllowedMentions.none(): no one at all


def owner_dm(server: LocalDiscord) -> list[dict[str, Any]]:
    """What the guild's owner received from the bot, directly."""
    owner = server.world.default_guild().owner_id
    dm = server.world.dms.get(owner)
    return [] if dm is None else server.messages(dm.id)


def posts_to(server: LocalDiscord, channel_id: int) -> list[Any]:
    return [r for r in server.requests_to(POST) if r.path.endswith(f"/{channel_id}/messages")]


async def test_losing_the_system_channel_itself_tells_the_owner_directly(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    delivery = DiscordDelivery(laurel, None, laurel.clock)
    guild = server.world.default_guild()
    general = server.channel("general").id
    assert guild.system_channel_id == general
    assert await delivery.notify_admins(guild.id, general, "#general paused") is True
    assert server.messages(general) == []  # not into the channel that was lost
    (notice,) = owner_dm(server)
    assert notice["content"] == "#general paused"
    (opened,) = server.requests_to(OPEN_DM)
    assert opened.body == {"recipient_id": guild.owner_id}
    dm = server.world.dms[guild.owner_id].id
    (sent,) = posts_to(server, dm)
    assert sent.body["allowed_mentions"] == NONE_ALLOWED


async def test_without_a_system_channel_the_owner_is_told(
    server: LocalDiscord, db: Database
) -> None:
    guild = server.world.default_guild()
    guild.system_channel_id = None
    async with laurel_on(server, db, clock=SystemClock()) as bot:
        delivery = DiscordDelivery(bot, None, bot.clock)
        forum = server.channel("papers-forum").id
        assert await delivery.notify_admins(guild.id, forum, "forum paused") is True
    assert [m["content"] for m in owner_dm(server)] == ["forum paused"]
    assert server.messages("general") == []


async def test_a_system_channel_the_bot_may_not_post_in_is_skipped_for_the_owner(
    server: LocalDiscord, db: Database
) -> None:
    guild = server.world.default_guild()
    general = server.channel("general")
    bot_role = server.world.find_role("Laurel")
    general.overwrites.append(Overwrite(bot_role.id, 0, deny=Perm.SEND_MESSAGES))
    async with laurel_on(server, db, clock=SystemClock()) as bot:
        delivery = DiscordDelivery(bot, None, bot.clock)
        forum = server.channel("papers-forum").id
        assert await delivery.notify_admins(guild.id, forum, "forum paused") is True
    assert posts_to(server, general.id) == []  # never tried where it would be refused
    assert [m["content"] for m in owner_dm(server)] == ["forum paused"]


async def test_an_owner_who_refuses_direct_messages_is_not_told_and_nothing_breaks(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    guild = server.world.default_guild()
    server.world.users[guild.owner_id].accepts_dms = False
    delivery = DiscordDelivery(laurel, None, laurel.clock)
    general = server.channel("general").id
    assert await delivery.notify_admins(guild.id, general, "#general paused") is False
    assert owner_dm(server) == []
    assert server.messages(general) == []


def post(marker: str) -> Post:
    return Post(content="", embeds=[discord.Embed(title="A post").set_footer(text=f"x · {marker}")])


async def test_a_post_is_looked_for_among_the_bots_own_messages_within_the_limit_and_window(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    delivery = DiscordDelivery(laurel, None, laurel.clock)
    general = server.channel("general")
    started = dt.datetime.now(dt.UTC)
    # Someone else's message carrying the marker is never taken for Laurel's post.
    ada = server.world.find_user("ada")
    forged = discord.Embed(title="A post").set_footer(text="x · L5-abc").to_dict()
    server.store.create(general, Origin(ada), {"embeds": [forged]}, [])
    for n in range(2):  # two of Laurel's own messages come first
        await delivery.send(
            general.id, post(f"L{n}-old"), nonce=f"n{n}", thread_name="", role_id=None
        )
    sent = await delivery.send(
        general.id, post("L5-abc"), nonce="L5-abc", thread_name="", role_id=None
    )

    async def find(limit: int, since: dt.datetime = started) -> int | None:
        return await delivery.find(
            general.id, marker="L5-abc", since=since, thread_name="", limit=limit
        )

    assert await find(limit=4) == sent
    assert await find(limit=3) is None  # the fourth message after `since` is not read
    (lookup, *_) = [r for r in server.requests if r.route == HISTORY]
    assert lookup.query["limit"] == "4"
    # Clocks differ: a post made up to two minutes before the row's time is still found...
    assert await find(limit=4, since=started + dt.timedelta(seconds=100)) == sent
    # ...and not one made longer before it.
    assert await find(limit=4, since=started + dt.timedelta(seconds=160)) is None


async def test_a_post_goes_to_a_thread_the_bot_has_not_seen_yet(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    # A thread made while the bot was away is in no cache; it still takes the post, by id.
    thread = server.world.add_thread(server.channel("general"), "made-while-away")
    delivery = DiscordDelivery(laurel, None, laurel.clock)
    assert laurel.get_channel(thread.id) is None
    sent = await delivery.send(
        thread.id, post("L6-abc"), nonce="L6-abc", thread_name="", role_id=None
    )
    assert [int(m["id"]) for m in server.messages(thread.id)] == [sent]
    found = await delivery.find(
        thread.id,
        marker="L6-abc",
        since=dt.datetime.now(dt.UTC),
        thread_name="",
        limit=10,
    )
    assert found == sent


async def test_posts_are_spaced_by_the_rate_the_deliverer_is_given(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    delivery = DiscordDelivery(laurel, 4.0, laurel.clock)  # four a second: 0.25 s apart
    general = server.channel("general").id
    for n in range(3):
        await delivery.send(general, post(f"L{n}-r"), nonce=f"r{n}", thread_name="", role_id=None)
    times = [r.at for r in server.requests_to(POST)]
    assert len(times) == 3
    assert all(later - earlier >= 0.2 for earlier, later in itertools.pairwise(times))


async def test_a_forum_post_is_found_past_other_threads_and_never_in_someone_elses(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    delivery = DiscordDelivery(laurel, None, laurel.clock)
    forum = server.channel("papers-forum")
    since = dt.datetime.now(dt.UTC) - dt.timedelta(minutes=1)
    # A member's thread of the same name, its first message carrying the marker, made first.
    ada = server.world.find_user("ada")
    theirs = server.world.add_thread(forum, "Paper of the day", owner_id=ada.id)
    forged = post("L8-abc").embeds[0].to_dict()
    server.store.create(theirs, Origin(ada), {"embeds": [forged]}, [], message_id=theirs.id)
    await server.gateway.dispatch(
        "THREAD_CREATE", {**payloads.channel(theirs), "newly_created": True}, intent=1
    )
    # Then Laurel's posts: another day's first, then the one looked for.
    await delivery.send(forum.id, post("L7-xyz"), nonce="", thread_name="Another day", role_id=None)
    mine = await delivery.send(
        forum.id, post("L8-abc"), nonce="", thread_name="Paper of the day", role_id=None
    )
    cached = laurel.get_channel(forum.id)
    assert isinstance(cached, discord.ForumChannel)
    assert theirs.id in {t.id for t in cached.threads}  # the bot knows the member's thread
    found = await delivery.find(
        forum.id, marker="L8-abc", since=since, thread_name="Paper of the day", limit=50
    )
    assert found == mine


async def test_a_lookup_in_a_channel_the_bot_lost_says_the_channel_is_gone(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    delivery = DiscordDelivery(laurel, None, laurel.clock)
    for fault, name, reason in (
        ("missing_access", "general", "forbidden"),
        ("unknown_channel", "announcements", "not-found"),
    ):
        channel = server.channel(name).id
        server.inject(fault, channel_id=channel, times=None)
        with pytest.raises(ChannelGone) as gone:
            await delivery.find(
                channel, marker="L1-abc", since=dt.datetime.now(dt.UTC), thread_name="", limit=5
            )
        assert gone.value.reason == reason
