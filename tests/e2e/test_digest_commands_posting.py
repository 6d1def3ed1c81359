"""/digest preview and post-now on the loopback Discord: a preview sends nothing; post-now
sends exactly one post, through the same delivery path as the schedule."""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.domain.models import AwardKind
from bot.domain.subscriptions import Subscription
from bot.settings import DigestSettings, Settings
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from laurel_console.localdiscord.state import Overwrite, Perm
from tests.support.awards import award, batch
from tests.support.clock import ManualClock
from tests.support.digest_commands import POST, digest, stamps, stored_sub

LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)(?:/(\d+))?")


async def _add(
    laurel: LaurelBot, server: LocalDiscord, channel: str, **changes: Any
) -> Subscription:
    guild = server.world.default_guild()
    return await laurel.subscriptions.add(
        stored_sub(laurel, guild.id, server.channel(channel).id, **changes)
    )


def _posts_to(server: LocalDiscord, channel: str) -> list[Any]:
    channel_id = str(server.channel(channel).id)
    return [r for r in server.requests_to(POST) if r.path.split("/")[-2] == channel_id]


async def test_a_preview_is_shown_only_to_the_admin_and_sends_nothing(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    sub = await _add(laurel, server, "announcements")
    answer = await digest(server, "preview", subscription=sub.id)
    announcements = server.channel("announcements").id
    assert answer["content"].startswith(
        f"Preview of **#{sub.id} · Paper of the day** for <#{announcements}>: the post due <t:"
    )
    assert len(stamps(answer["content"])) == 1
    assert answer["embeds"], "the preview shows the post's embed"
    assert server.messages(announcements) == []
    assert _posts_to(server, "announcements") == []


async def test_a_preview_in_traditional_chinese(laurel: LaurelBot, server: LocalDiscord) -> None:
    sub = await _add(laurel, server, "general", language="zh-TW", status="paused",
                     paused_reason="manual")  # fmt: skip
    answer = await digest(server, "preview", locale="zh-TW", subscription=sub.id)
    assert answer["content"].startswith(f"**#{sub.id} · 每日論文** 在 <#")
    assert "（已暫停：恢復後才會發文）" in answer["content"]


async def test_post_now_sends_one_post_and_links_it(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    sub = await _add(laurel, server, "announcements")
    due = await laurel.digests.upcoming(sub)
    answer = await digest(server, "post-now", subscription=sub.id)
    posted = server.messages("announcements")
    assert len(posted) == 1
    guild = server.world.default_guild().id
    announcements = server.channel("announcements").id
    # The next scheduled post, posted early: its date, then when the schedule posts next.
    assert due is not None
    after = await laurel.digests.upcoming(sub)
    assert after is not None
    assert after.at > due.at
    stamp = int(after.at.timestamp())
    assert answer["content"] == (
        f"Posted the {due.period.shown} post of **#{sub.id} · Paper of the day** early: "
        f"https://discord.com/channels/{guild}/{announcements}/{posted[0]['id']}\n"
        f"The next scheduled post comes <t:{stamp}:F> (<t:{stamp}:R>)."
    )
    assert len(_posts_to(server, "announcements")) == 1


async def test_post_now_in_a_forum_opens_a_post(laurel: LaurelBot, server: LocalDiscord) -> None:
    sub = await _add(laurel, server, "papers-forum", theme="test-of-time")
    answer = await digest(server, "post-now", subscription=sub.id)
    link = LINK.search(answer["content"])
    assert link is not None
    thread = server.world.channel(int(link[2]))
    assert thread is not None
    assert thread.parent_id == server.channel("papers-forum").id
    assert link[3] is None  # the thread itself: its id is its first message's
    assert [int(m["id"]) for m in server.messages(thread.id)] == [thread.id]


async def test_post_now_with_nothing_new_sends_nothing(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    sub = await _add(laurel, server, "general", theme="new-awards")
    answer = await digest(server, "post-now", subscription=sub.id)
    assert answer["content"].startswith("No awards have been added since this digest last posted")
    assert _posts_to(server, "general") == []


async def test_post_now_where_laurel_lost_access_pauses_the_digest(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    sub = await _add(laurel, server, "announcements")
    assert sub.id is not None
    # Taken away behind the bot's back: its cache still says it may post.
    bot_role = server.world.find_role("Laurel")
    server.channel("announcements").overwrites.append(
        Overwrite(bot_role.id, 0, deny=Perm.SEND_MESSAGES)
    )
    answer = await digest(server, "post-now", subscription=sub.id)
    assert answer["content"].startswith(f"Couldn't post **#{sub.id} · Paper of the day** in <#")
    assert "the digest is now paused" in answer["content"]
    stored = await laurel.subscriptions.get(sub.id)
    assert stored is not None
    assert (stored.status, stored.paused_reason) == ("paused", "forbidden")
    assert server.messages("announcements", ephemeral=False) == []


# -- subscribe, then the schedule: on a fake clock ----------------------------------------
MONDAY_0859 = dt.datetime(2026, 1, 5, 8, 59, tzinfo=dt.UTC)


@pytest.fixture
async def scheduled(
    server: LocalDiscord, db: Database, caplog: pytest.LogCaptureFixture
) -> AsyncIterator[tuple[LaurelBot, ManualClock]]:
    """Laurel whose digests run on a clock the test moves."""
    caplog.set_level(logging.WARNING)
    clock = ManualClock(MONDAY_0859)
    settings = Settings(digests=DigestSettings(requests_per_second=None))
    async with laurel_on(server, db, settings, clock=clock) as bot:
        yield bot, clock
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []


async def _at(bot: LaurelBot, clock: ManualClock, moment: dt.datetime) -> None:
    clock.set(moment)
    await bot.digest_engine.run_due()


async def test_the_first_post_comes_when_the_answer_said_and_only_once(
    scheduled: tuple[LaurelBot, ManualClock], server: LocalDiscord
) -> None:
    bot, clock = scheduled
    answer = await digest(
        server, "subscribe", channel="announcements", theme="paper-of-the-day", time="09:00"
    )
    nine = dt.datetime(2026, 1, 5, 9, tzinfo=dt.UTC)
    assert stamps(answer["content"]) == [int(nine.timestamp())]
    await _at(bot, clock, nine - dt.timedelta(seconds=30))
    assert server.messages("announcements") == []
    for moment in (nine, nine + dt.timedelta(minutes=1), nine + dt.timedelta(hours=3)):
        await _at(bot, clock, moment)
        assert len(server.messages("announcements")) == 1


async def test_subscribing_after_todays_time_waits_for_tomorrow(
    scheduled: tuple[LaurelBot, ManualClock], server: LocalDiscord
) -> None:
    bot, clock = scheduled
    clock.set(dt.datetime(2026, 1, 5, 9, 30, tzinfo=dt.UTC))  # today's 09:00 has passed
    answer = await digest(
        server, "subscribe", channel="announcements", theme="paper-of-the-day", time="09:00"
    )
    tomorrow = dt.datetime(2026, 1, 6, 9, tzinfo=dt.UTC)
    assert stamps(answer["content"]) == [int(tomorrow.timestamp())]
    await _at(bot, clock, clock.now() + dt.timedelta(minutes=1))
    assert server.messages("announcements") == []  # no catching up on a post never due
    await _at(bot, clock, tomorrow)
    assert len(server.messages("announcements")) == 1


async def test_a_paused_digest_misses_its_time_and_a_resumed_one_posts_at_the_next(
    scheduled: tuple[LaurelBot, ManualClock], server: LocalDiscord
) -> None:
    bot, clock = scheduled
    await digest(server, "subscribe", channel="announcements", theme="paper-of-the-day")
    await digest(server, "pause", subscription=1)
    nine = dt.datetime(2026, 1, 5, 9, tzinfo=dt.UTC)
    await _at(bot, clock, nine)
    assert server.messages("announcements") == []
    clock.set(nine + dt.timedelta(hours=1))
    resumed = await digest(server, "resume", subscription=1)
    tomorrow = nine + dt.timedelta(days=1)
    assert stamps(resumed["content"]) == [int(tomorrow.timestamp())]
    await _at(bot, clock, clock.now() + dt.timedelta(minutes=1))
    assert server.messages("announcements") == []  # the paused morning is not made up
    await _at(bot, clock, tomorrow)
    assert len(server.messages("announcements")) == 1


async def test_an_edited_time_moves_the_next_post(
    scheduled: tuple[LaurelBot, ManualClock], server: LocalDiscord
) -> None:
    bot, clock = scheduled
    await digest(server, "subscribe", channel="announcements", theme="paper-of-the-day")
    edited = await digest(server, "edit", subscription=1, time="10:30")
    half_past_ten = dt.datetime(2026, 1, 5, 10, 30, tzinfo=dt.UTC)
    assert stamps(edited["content"]) == [int(half_past_ten.timestamp())]
    await _at(bot, clock, dt.datetime(2026, 1, 5, 9, tzinfo=dt.UTC))
    assert server.messages("announcements") == []
    await _at(bot, clock, half_past_ten)
    assert len(server.messages("announcements")) == 1


async def test_a_post_about_a_paper_with_no_link_offers_a_labelled_search(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    classic = award("Quokkas, a Classic").model_copy(update={"kind": AwardKind.CLASSIC})
    await CatalogRepository(db, SystemClock()).apply(batch(classic), actor="test", policy="update")
    sub = await _add(laurel, server, "announcements", filters={"venue": "icml", "kind": "classic"})
    await digest(server, "post-now", subscription=sub.id)
    (posted,) = server.messages("announcements")
    (embed,) = posted["embeds"]
    assert embed["title"] == "Quokkas, a Classic"
    links = {f["name"]: f["value"] for f in embed["fields"]}["Links"]
    assert links == (
        "No link to the paper yet · [Search arXiv for this title]"
        "(https://arxiv.org/search/?query=Quokkas%2C+a+Classic&searchtype=title)"
    )
    assert "url" not in embed or not embed["url"]


async def test_paper_today_is_the_paper_this_servers_digest_posts_today(
    scheduled: tuple[LaurelBot, ManualClock], server: LocalDiscord
) -> None:
    """Issue 27: /paper today and the paper-of-the-day digest showed different papers on the
    same day under the same heading. Before the post and after it, /paper today shows the
    digest's paper, labelled as this server's."""
    bot, clock = scheduled
    await digest(
        server, "subscribe", channel="announcements", theme="paper-of-the-day", time="09:00"
    )
    before = await (await server.slash("paper", subcommand="today")).message()
    await _at(bot, clock, dt.datetime(2026, 1, 5, 9, tzinfo=dt.UTC))
    (post,) = server.messages("announcements")
    after = await (await server.slash("paper", subcommand="today")).message()
    titles = {before["embeds"][0]["title"], after["embeds"][0]["title"]}
    assert titles == {post["embeds"][-1]["title"]}
    assert after["embeds"][0]["footer"]["text"].startswith(
        "Paper of the day · 2026-01-05 · this server's digest"
    )
