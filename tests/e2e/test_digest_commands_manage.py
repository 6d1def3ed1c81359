"""/digest list, pause, resume, edit and remove on the loopback Discord, their autocomplete,
and the same in Traditional Chinese."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.app import LaurelBot
from bot.domain.subscriptions import Cadence, Subscription
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.commands import mention
from tests.support.digest_commands import (
    ada_id,
    digest,
    next_local,
    on_monday,
    stamps,
    stored_sub,
    years,
)


async def _add(laurel: LaurelBot, server: LocalDiscord, **changes: Any) -> Subscription:
    guild, general = server.world.default_guild(), server.channel("general")
    return await laurel.subscriptions.add(stored_sub(laurel, guild.id, general.id, **changes))


@on_monday
async def test_the_list_shows_each_next_post_as_a_discord_timestamp(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    await _add(laurel, server, time=dt.time(6, 15), timezone="Asia/Taipei")
    await _add(laurel, server, status="paused", paused_reason="not-found")
    answer = await digest(server, "list")
    (embed,) = answer["embeds"]
    assert embed["title"] == "Digests in Laurel Lab"
    first, second = embed["fields"]
    assert first["name"] == "#1 · Paper of the day"
    assert "every day at 06:15 (Asia/Taipei)" in first["value"]
    (due,) = stamps(first["value"])
    # At 06:10 UTC it is 14:10 in Taipei (UTC+8): the next 06:15 there is 22:15 UTC tonight.
    assert due == int(next_local(dt.time(6, 15), "Asia/Taipei", laurel.clock.now()).timestamp())
    assert due == int(dt.datetime(2026, 1, 5, 22, 15, tzinfo=dt.UTC).timestamp())
    assert stamps(second["value"]) == []
    assert "Paused: the channel is gone." in second["value"]
    assert embed["footer"]["text"] == "2 of at most 25 · times show in your own time zone"


async def test_a_full_server_is_listed_whole_in_as_many_messages_as_it_takes(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    long = {"venue": "neurips", "kind": "datasets-benchmarks", "year_from": 2015, "year_to": 2025}
    member = server.world.find_role("Member").id
    for _ in range(25):
        await _add(laurel, server, timezone="America/Argentina/ComodRivadavia", role_id=member,
                   filters=long, language="zh-TW")  # fmt: skip
    interaction = await server.slash("digest", {}, subcommand="list", user_id=ada_id(server))
    first, second = await interaction.message(), await interaction.followup(0)
    assert first["flags"] & second["flags"] & 64  # both ephemeral
    fields = [f["name"] for m in (first, second) for f in m["embeds"][0]["fields"]]
    assert fields == [f"#{n} · Paper of the day" for n in range(1, 26)]


async def test_an_empty_list_says_how_to_start(laurel: LaurelBot, server: LocalDiscord) -> None:
    (embed,) = (await digest(server, "list"))["embeds"]
    assert embed["description"] == (
        f"No digests in this server yet. Start one with {mention(server, 'digest subscribe')}."
    )


async def test_pause_resume_and_remove(laurel: LaurelBot, server: LocalDiscord) -> None:
    sub = await _add(laurel, server)
    assert sub.id is not None
    general = server.channel("general").id
    paused = await digest(server, "pause", subscription=sub.id)
    assert paused["content"] == (
        f"Paused **#{sub.id} · Paper of the day** in <#{general}>. "
        "Nothing is posted until you resume it."
    )
    stored = await laurel.subscriptions.get(sub.id)
    assert stored is not None
    assert (stored.status, stored.paused_reason) == ("paused", "manual")
    again = await digest(server, "pause", subscription=sub.id)
    assert again["content"] == f"**#{sub.id} · Paper of the day** is already paused."

    resumed = await digest(server, "resume", subscription=sub.id)
    assert resumed["content"].startswith(f"Resumed **#{sub.id} · Paper of the day** in <#")
    assert len(stamps(resumed["content"])) == 1
    stored = await laurel.subscriptions.get(sub.id)
    assert stored is not None
    assert (stored.status, stored.paused_reason) == ("active", None)

    removed = await digest(server, "remove", subscription=sub.id)
    assert removed["content"] == (
        f"Removed **#{sub.id} · Paper of the day** from <#{general}>. It will post nothing more."
    )
    assert await laurel.subscriptions.get(sub.id) is None


async def test_a_digest_whose_channel_is_gone_is_not_resumed_but_moved(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    guild = server.world.default_guild().id
    gone = await laurel.subscriptions.add(
        stored_sub(laurel, guild, 999, status="paused", paused_reason="not-found")
    )
    assert gone.id is not None
    refused = await digest(server, "resume", subscription=gone.id)
    assert refused["content"] == (
        f"The channel of **#{gone.id} · Paper of the day** is gone. Move the digest with "
        f"{mention(server, 'digest edit')} and a new channel, or remove it."
    )
    stored = await laurel.subscriptions.get(gone.id)
    assert stored is not None
    assert stored.status == "paused"
    await digest(server, "edit", subscription=gone.id, channel="announcements")
    resumed = await digest(server, "resume", subscription=gone.id)
    assert resumed["content"].startswith(f"Resumed **#{gone.id} · Paper of the day** in <#")


async def test_edit_changes_only_what_is_given(laurel: LaurelBot, server: LocalDiscord) -> None:
    member = server.world.find_role("Member")
    sub = await _add(laurel, server, role_id=member.id, filters={"venue": "neurips"})
    assert sub.id is not None
    answer = await digest(
        server,
        "edit",
        subscription=sub.id,
        time="21:45",
        timezone="Australia/Lord_Howe",
        days="weekdays",
        clear="role",
    )
    text = answer["content"]
    assert text.startswith(f"Updated **#{sub.id} · Paper of the day**")
    assert "weekdays (Mon–Fri) at 21:45 (Australia/Lord_Howe)" in text
    assert "NeurIPS" in text
    assert "mentions" not in text
    assert len(stamps(text)) == 1
    stored = await laurel.subscriptions.get(sub.id)
    assert stored is not None
    assert (stored.time, stored.timezone, stored.days) == (
        dt.time(21, 45),
        "Australia/Lord_Howe",
        frozenset(range(5)),
    )
    assert (stored.role_id, stored.filters.venue, stored.language) == (None, "neurips", "en")

    weekly = await digest(server, "edit", subscription=sub.id, cadence="weekly")
    assert "weekly on Monday at 21:45" in weekly["content"]
    stored = await laurel.subscriptions.get(sub.id)
    assert stored is not None
    assert (stored.cadence, stored.days) == (Cadence.WEEKLY, frozenset({0}))


async def test_edit_with_nothing_to_change_or_a_wrong_value_writes_nothing(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    sub = await _add(laurel, server)
    assert sub.id is not None
    nothing = await digest(server, "edit", subscription=sub.id)
    assert nothing["content"] == ("Nothing to change: give at least one option besides the digest.")
    bad = await digest(server, "edit", subscription=sub.id, **years(2030, 2020))
    assert bad["content"] == "The first year (2030) is after the last year (2020)."
    assert await laurel.subscriptions.get(sub.id) == sub


async def test_another_servers_digest_is_not_found_here(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    elsewhere = await laurel.subscriptions.add(stored_sub(laurel, guild_id=4242, channel_id=4343))
    assert elsewhere.id is not None
    for subcommand in ("pause", "remove", "preview", "post-now"):
        answer = await digest(server, subcommand, subscription=elsewhere.id)
        assert answer["content"] == (
            f"This server has no digest **#{elsewhere.id}**. {mention(server, 'digest list')} shows"
            " the ones it has."
        )
    assert await laurel.subscriptions.get(elsewhere.id) == elsewhere


async def test_the_subscription_option_offers_this_servers_digests_to_its_managers(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    await laurel.subscriptions.add(stored_sub(laurel, guild_id=4242, channel_id=4343))
    mine = await _add(laurel, server, timezone="Europe/Berlin")
    await _add(laurel, server, theme="new-awards", status="paused", paused_reason="manual")
    offered = await server.autocomplete(
        "digest", {}, "subscription", subcommand="pause", user_id=ada_id(server)
    )
    assert [c["name"] for c in offered] == [
        f"#{mine.id} · Paper of the day · #general · every day at 09:00 (Europe/Berlin)",
        f"#{(mine.id or 0) + 1} · New awards · #general · weekly on Monday at 09:00 (UTC) · paused",
    ]
    assert offered[0]["value"] == mine.id
    typed = await server.autocomplete(
        "digest", {"subscription": "new"}, "subscription", subcommand="edit", user_id=ada_id(server)
    )
    assert [c["value"] for c in typed] == [(mine.id or 0) + 1]
    grace = server.world.find_user("grace").id
    hidden = await server.autocomplete(
        "digest", {}, "subscription", subcommand="pause", user_id=grace
    )
    assert hidden == []


async def test_time_zones_and_days_autocomplete(laurel: LaurelBot, server: LocalDiscord) -> None:
    zones = await server.autocomplete(
        "digest", {"timezone": "berl"}, "timezone", subcommand="subscribe", user_id=ada_id(server)
    )
    assert zones[0] == {"name": "Europe/Berlin", "value": "Europe/Berlin"}
    days = await server.autocomplete(
        "digest",
        {"days": "week"},
        "days",
        subcommand="subscribe",
        user_id=ada_id(server),
        locale="zh-TW",
    )
    assert [(c["name"], c["value"]) for c in days] == [
        ("工作日（週一至週五）", "mon,tue,wed,thu,fri"),
        ("週末（週六、週日）", "sat,sun"),
    ]


async def test_in_traditional_chinese(laurel: LaurelBot, server: LocalDiscord) -> None:
    answer = await digest(
        server,
        "subscribe",
        locale="zh-TW",
        channel="general",
        theme="paper-of-the-day",
        timezone="Asia/Taipei",
        days="週一 週三",
    )
    text = answer["content"]
    assert text.startswith("已訂閱 **#1 · 每日論文**")
    (stored,) = await laurel.subscriptions.in_guild(server.world.default_guild().id)
    assert stored.language == "en"  # the server's language (en-US), not the admin's
    assert "週一、週三 09:00（Asia/Taipei）" in text
    assert "現在沒有發出任何貼文" in text
    assert len(stamps(text)) == 1
    (embed,) = (await digest(server, "list", locale="zh-TW"))["embeds"]
    assert embed["title"] == "Laurel Lab 的定期貼文"
    assert embed["fields"][0]["name"] == "#1 · 每日論文"
    assert "下一則貼文：<t:" in embed["fields"][0]["value"]
    wrong = await digest(
        server,
        "subscribe",
        locale="zh-TW",
        channel="general",
        theme="paper-of-the-day",
        time="9點",
    )
    assert wrong["content"] == "**9點** 不是時間。請用 24 小時制的 HH:MM，例如 09:00 或 18:30。"
    grace = server.world.find_user("grace").id
    refused = await digest(server, "list", locale="zh-TW", user_id=grace)
    assert refused["content"] == "只有具備「管理伺服器」權限的成員才能管理定期貼文。"


async def test_posts_default_to_the_servers_language(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    guild = server.world.default_guild()
    guild.preferred_locale = "zh-TW"
    answer = await digest(server, "subscribe", channel="general", theme="test-of-time")
    assert "in Traditional Chinese" in answer["content"]  # told in the admin's own English
    (stored,) = await laurel.subscriptions.in_guild(guild.id)
    assert stored.language == "zh-TW"
