"""Preview, post-now and the post itself agree on the period's label (issue 25, item 7): the
preview said paper #583 was due 2026-12-02, post-now posted it labelled 2026-12-01 (UTC's
date at 00:30 in Taipei), and a weekly preview said "2026-W50" where posts carry a date."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from bot.app import LaurelBot
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.digest_commands import digest, stored_sub

# 00:30 on Wednesday 2 December in Taipei; still Tuesday 1 December in UTC.
TAIPEI_AFTER_MIDNIGHT = dt.datetime(2026, 12, 1, 16, 30, tzinfo=dt.UTC)
DATE = re.compile(r"\d{4}-\d{2}-\d{2}|\d{4}-W\d{2}")


def _labels(text: str) -> list[str]:
    return DATE.findall(text)


@pytest.mark.parametrize("laurel_time", [TAIPEI_AFTER_MIDNIGHT], ids=["taipei"])
async def test_preview_post_now_and_the_post_carry_one_label(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    guild = server.world.default_guild().id
    sub = await laurel.subscriptions.add(
        stored_sub(
            laurel, guild, server.channel("general").id,
            timezone="Asia/Taipei", time=dt.time(9), language="zh-TW",
        )
    )  # fmt: skip
    preview = await digest(server, "preview", subscription=sub.id, locale="zh-TW")
    assert "2026-12-02" in preview["content"]
    previewed = preview["embeds"][0]["title"]
    await digest(server, "post-now", subscription=sub.id, locale="zh-TW")
    (post,) = server.messages("general", ephemeral=False)
    assert _labels(post["content"]) == ["2026-12-02"]  # was 2026-12-01, UTC's date
    assert post["embeds"][0]["title"] == previewed


@pytest.mark.parametrize("laurel_time", [TAIPEI_AFTER_MIDNIGHT], ids=["taipei"])
async def test_a_weekly_preview_names_the_date_its_post_will_carry(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    guild = server.world.default_guild().id
    sub = await laurel.subscriptions.add(
        stored_sub(
            laurel, guild, server.channel("general").id, theme="venue-spotlight",
            cadence="weekly", days=[4], timezone="Asia/Taipei", time=dt.time(9),
        )
    )  # fmt: skip
    preview = await digest(server, "preview", subscription=sub.id)
    assert "W" not in "".join(_labels(preview["content"]))
    assert "2026-12-04" in preview["content"]  # that Friday, as the post will say


# 21:30 on Tuesday 1 December in UTC: today's 09:00 post is past, the next one is Wednesday's.
UTC_EVENING = dt.datetime(2026, 12, 1, 21, 30, tzinfo=dt.UTC)


@pytest.mark.parametrize("laurel_time", [UTC_EVENING], ids=["utc-evening"])
async def test_post_now_after_todays_post_carries_the_previews_label(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    guild = server.world.default_guild().id
    sub = await laurel.subscriptions.add(
        stored_sub(laurel, guild, server.channel("general").id, time=dt.time(9))
    )
    preview = await digest(server, "preview", subscription=sub.id)
    assert "2026-12-02" in preview["content"]
    previewed = preview["embeds"][0]["title"]
    await digest(server, "post-now", subscription=sub.id)
    (post,) = server.messages("general", ephemeral=False)
    assert post["embeds"][0]["title"] == previewed  # the same paper…
    assert _labels(post["content"]) == ["2026-12-02"]  # …under another date: 2026-12-01


@pytest.mark.parametrize("laurel_time", [UTC_EVENING], ids=["utc-evening"])
@pytest.mark.parametrize(
    ("locale", "early", "upcoming"),
    [
        ("en-US", "Posted the 2026-12-02 post of", "The next scheduled post comes"),
        ("zh-TW", "已提前發出", "下一則排定的貼文預定於"),
        ("zh-CN", "已提前发出", "下一篇预定的帖子将于"),
    ],
)
async def test_post_now_says_which_days_post_it_sent_early_and_when_the_next_one_comes(
    laurel: LaurelBot, server: LocalDiscord, locale: str, early: str, upcoming: str
) -> None:
    """Post-now posts the next scheduled post early and says so in the reader's language; a
    second posts the one after it, and the preview then shows the one after that."""
    guild = server.world.default_guild().id
    sub = await laurel.subscriptions.add(
        stored_sub(laurel, guild, server.channel("general").id, time=dt.time(9))
    )
    first = await digest(server, "post-now", subscription=sub.id, locale=locale)
    third_day = int(dt.datetime(2026, 12, 3, 9, 0, tzinfo=dt.UTC).timestamp())
    assert early in first["content"]
    assert "2026-12-02" in first["content"]
    assert f"{upcoming} <t:{third_day}:F>" in first["content"]
    await digest(server, "post-now", subscription=sub.id, locale=locale)
    posts = server.messages("general", ephemeral=False)
    assert [_labels(p["content"]) for p in posts] == [["2026-12-02"], ["2026-12-03"]]
    preview = await digest(server, "preview", subscription=sub.id, locale=locale)
    assert "2026-12-04" in preview["content"]
