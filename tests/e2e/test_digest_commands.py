"""/digest on the loopback Discord: subscribing, listing, pausing, editing, removing.

Every answer is ephemeral; subscribing posts nothing; a wrong value gets a clear answer and
writes nothing.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import Any

import pytest

from bot.app import LaurelBot
from bot.domain.subscriptions import Cadence, DigestFilter, Theme
from laurel_console.localdiscord.server import LocalDiscord
from laurel_console.localdiscord.state import GUILD_CATEGORY, Overwrite, Perm
from tests.support.commands import mention
from tests.support.digest_commands import (
    POST,
    ada_id,
    digest,
    next_local,
    on_monday,
    stamps,
    stored_sub,
    years,
)

SYNC = "PUT /applications/{application_id}/commands"


@pytest.fixture
def server(server: LocalDiscord) -> LocalDiscord:
    """The default world, plus channels where Laurel may not post (set before it connects)."""
    world = server.world
    guild, laurel_role = world.default_guild(), world.find_role("Laurel")
    deny_send = Overwrite(laurel_role.id, 0, deny=Perm.SEND_MESSAGES)
    world.add_channel(guild, "rules", overwrites=[deny_send])
    deny_files = Overwrite(laurel_role.id, 0, deny=Perm.ATTACH_FILES)
    world.add_channel(guild, "no-files", overwrites=[deny_files])
    world.add_role(guild, "Readers", mentionable=True)
    deny_threads = Overwrite(laurel_role.id, 0, deny=Perm.SEND_MESSAGES_IN_THREADS)
    quiet = world.add_channel(guild, "quiet", overwrites=[deny_threads])
    world.add_thread(quiet, "quiet-thread")
    return server


async def test_digest_is_for_server_managers_and_only_in_servers(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    (synced,) = server.requests_to(SYNC)
    assert isinstance(synced.body, list)
    (command,) = [c for c in synced.body if c["name"] == "digest"]
    assert int(command["default_member_permissions"]) == Perm.MANAGE_GUILD
    assert command["contexts"] == [0]  # guilds only
    subcommands = {o["name"] for o in command["options"]}
    assert subcommands == {
        "subscribe", "list", "pause", "resume", "edit", "remove", "preview", "post-now"
    }  # fmt: skip
    subscribe = next(o for o in command["options"] if o["name"] == "subscribe")
    channel = next(o for o in subscribe["options"] if o["name"] == "channel")
    assert sorted(channel["channel_types"]) == [0, 5, 10, 11, 12, 15]
    assert command["name_localizations"]["zh-TW"] == "定期貼文"


@on_monday
async def test_subscribing_posts_nothing_and_says_when_the_first_post_comes(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    answer = await digest(
        server,
        "subscribe",
        channel="announcements",
        theme="paper-of-the-day",
        time="07:30",
        timezone="europe/berlin",
    )
    text = answer["content"]
    assert text.startswith("Subscribed **#1 · Paper of the day**")
    announcements = server.channel("announcements")
    assert f"<#{announcements.id}> · every day at 07:30 (Europe/Berlin)" in text
    assert "Nothing was posted now" in text
    (first,) = stamps(text)
    # 07:30 in Berlin is 06:30 UTC: twenty minutes after the bot's clock says it is now.
    assert first == int(next_local(dt.time(7, 30), "Europe/Berlin", laurel.clock.now()).timestamp())
    assert first == int(dt.datetime(2026, 1, 5, 6, 30, tzinfo=dt.UTC).timestamp())
    assert server.messages(announcements.id) == []
    assert server.requests_to(POST) == []
    (stored,) = await laurel.subscriptions.in_guild(server.world.default_guild().id)
    assert (stored.theme, stored.cadence, stored.days) == (
        Theme.PAPER_OF_THE_DAY,
        Cadence.DAILY,
        frozenset(range(7)),
    )
    assert (stored.time, stored.timezone, stored.language) == (
        dt.time(7, 30),
        "Europe/Berlin",
        "en",
    )
    assert stored.created_by == ada_id(server)
    assert stored.status == "active"


async def test_a_weekly_theme_with_filters_a_role_and_a_language(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    member = server.world.find_role("Member")
    answer = await digest(
        server,
        "subscribe",
        channel="general",
        theme="venue-spotlight",
        days="fri",
        timezone="America/New_York",
        language="zh-TW",
        role="Member",
        venue="icml",
        kind="outstanding",
        **years(2020, 2025),
    )
    text = answer["content"]
    assert "weekly on Friday at 09:00 (America/New_York)" in text
    assert "in Traditional Chinese · ICML · Outstanding paper · 2020–2025" in text
    assert f"mentions <@&{member.id}>" in text
    assert text.endswith(  # @Member can't be pinged: better said now than found out later
        f"Note: <@&{member.id}> is not mentionable and Laurel may not mention all roles there, "
        "so posts will name the role without notifying anyone. Make the role mentionable to "
        "fix this."
    )
    (stored,) = await laurel.subscriptions.in_guild(server.world.default_guild().id)
    assert (stored.cadence, stored.days, stored.role_id) == (
        Cadence.WEEKLY,
        frozenset({4}),
        member.id,
    )
    assert stored.filters == DigestFilter(
        venue="icml", kind="outstanding", year_from=2020, year_to=2025
    )
    assert stored.language == "zh-TW"
    (first,) = stamps(text)
    assert dt.datetime.fromtimestamp(first, zoneinfo.ZoneInfo("America/New_York")).weekday() == 4


async def test_a_mentionable_role_needs_no_note(laurel: LaurelBot, server: LocalDiscord) -> None:
    answer = await digest(
        server, "subscribe", channel="general", theme="new-awards", role="Readers"
    )
    readers = server.world.find_role("Readers")
    assert f"mentions <@&{readers.id}>" in answer["content"]
    assert "Note:" not in answer["content"]


async def test_the_same_digest_twice_in_a_channel_is_refused(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    first: dict[str, Any] = {"channel": "general", "theme": "paper-of-the-day", "venue": "icml"}
    await digest(server, "subscribe", **first, time="08:00")
    again = await _refused(laurel, server, **first, time="20:00")
    assert again == (
        "**#1 · Paper of the day** already posts this theme with these filters in that "
        f"channel. Change it with {mention(server, 'digest edit')} instead."
    )
    other = await digest(server, "subscribe", **first | {"venue": "neurips"})
    assert other["content"].startswith("Subscribed **#2 · Paper of the day**")
    made_same = await digest(server, "edit", subscription=2, venue="icml")
    assert made_same["content"].startswith("**#1 · Paper of the day** already posts this theme")
    stored = await laurel.subscriptions.get(2)
    assert stored is not None
    assert stored.filters.venue == "neurips"


async def test_threads_and_forums_take_digests(laurel: LaurelBot, server: LocalDiscord) -> None:
    thread = await digest(server, "subscribe", channel="reading-group", theme="test-of-time")
    forum = await digest(server, "subscribe", channel="papers-forum", theme="by-the-numbers")
    assert thread["content"].startswith("Subscribed **#1 · Test of time**")
    assert forum["content"].startswith("Subscribed **#2 · By the numbers**")
    stored = await laurel.subscriptions.in_guild(server.world.default_guild().id)
    assert [s.channel_id for s in stored] == [
        server.channel("reading-group").id,
        server.channel("papers-forum").id,
    ]


async def _refused(laurel: LaurelBot, server: LocalDiscord, **options: Any) -> str:
    guild = server.world.default_guild().id
    before = await laurel.subscriptions.in_guild(guild)
    answer = await digest(server, "subscribe", **options)
    assert await laurel.subscriptions.in_guild(guild) == before  # nothing written
    return str(answer["content"])


async def test_wrong_values_get_clear_answers_and_write_nothing(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    base = {"channel": "general", "theme": "paper-of-the-day"}
    assert (await _refused(laurel, server, **base, time="25:00")).startswith(
        "**25:00** is not a time. Give it as HH:MM"
    )
    assert (await _refused(laurel, server, **base, timezone="Mars/Olympus")).startswith(
        "**Mars/Olympus** is not a time zone I know."
    )
    assert await _refused(laurel, server, **base, **years(2020, 2010)) == (
        "The first year (2020) is after the last year (2010)."
    )
    nothing = await _refused(laurel, server, **base, venue="icml", **years(None, 1960))
    assert nothing.startswith("No award in the catalogue matches ICML · until 1960")
    weekly = await _refused(laurel, server, **base, cadence="weekly", days="mon,thu")
    assert weekly.startswith("A weekly digest posts on one day, and you gave Monday, Thursday.")
    assert (await _refused(laurel, server, **base, days="someday")).startswith(
        "I can't read **someday** as days."
    )
    everyone_role = server.world.default_guild().id  # @everyone has the server's id
    everyone = await _refused(laurel, server, **base, role=everyone_role)
    assert everyone == "Digests never mention @everyone; pick a role instead."


async def test_what_a_filter_must_match_depends_on_the_theme(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    mismatch = await _refused(laurel, server, channel="general", theme="test-of-time", kind="best")
    assert mismatch.startswith("No award in the catalogue matches Test of time · Best paper,")
    # New awards may wait for awards the catalogue does not have yet.
    waiting = await digest(
        server, "subscribe", channel="general", theme="new-awards", **years(2031, 2032)
    )
    assert waiting["content"].startswith("Subscribed **#1 · New awards**")


async def test_members_without_manage_server_are_refused(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    grace = server.world.find_user("grace").id
    for subcommand, options in [
        ("subscribe", {"channel": "general", "theme": "paper-of-the-day"}),
        ("list", {}),
    ]:
        answer = await digest(server, subcommand, user_id=grace, **options)
        assert answer["content"] == (
            "Only members with the **Manage Server** permission can manage digests."
        )
    assert await laurel.subscriptions.in_guild(server.world.default_guild().id) == []


async def test_a_server_holds_at_most_25(laurel: LaurelBot, server: LocalDiscord) -> None:
    guild = server.world.default_guild()
    for _ in range(25):
        await laurel.subscriptions.add(stored_sub(laurel, guild.id, server.channel("general").id))
    text = await _refused(laurel, server, channel="general", theme="paper-of-the-day")
    assert text.startswith("A server can hold at most 25 digest subscriptions.")


async def test_a_channel_is_refused_where_laurel_cannot_post(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    text = await _refused(laurel, server, channel="rules", theme="paper-of-the-day")
    rules = server.channel("rules")
    assert text == (
        f"I can't post in <#{rules.id}>: I'm missing **Send Messages**, **Embed Links**, "
        "**Attach Files** there. Give Laurel these permissions in that channel, or pick another."
    )
    files = await _refused(laurel, server, channel="no-files", theme="by-the-numbers")
    assert "I'm missing **Attach Files** there." in files
    thread = await _refused(laurel, server, channel="quiet-thread", theme="test-of-time")
    # Without Send Messages in Threads, Discord takes away embeds and files there too.
    assert "I'm missing **Send Messages in Threads**, **Embed Links**, **Attach Files**" in thread


async def test_categories_are_not_offered(laurel: LaurelBot, server: LocalDiscord) -> None:
    guild = server.world.default_guild()
    server.world.add_channel(guild, "archive", GUILD_CATEGORY)
    # The client offers only the channel types the command declares.
    with pytest.raises(ValueError, match="is not one of"):
        await server.slash(
            "digest",
            {"channel": "archive", "theme": "new-awards"},
            subcommand="subscribe",
            user_id=ada_id(server),
        )
