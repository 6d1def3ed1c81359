"""What /digest shows an admin: schedules, filters, the list, the preview frame."""

from __future__ import annotations

import datetime as dt
from typing import Any

from bot.domain.models import AwardKind
from bot.domain.subscriptions import DigestFilter, Subscription
from bot.render.digest_admin import (
    MESSAGE,
    Listed,
    days_label,
    filters_text,
    list_embeds,
    preview_content,
    schedule_text,
    subscribed_text,
)
from bot.render.i18n import Strings

STRINGS = Strings.load()
NOW = dt.datetime(2026, 3, 1, 12, tzinfo=dt.UTC)
VENUES = {"icml": "ICML", "neurips": "NeurIPS"}


def _sub(**changes: Any) -> Subscription:
    data: dict[str, Any] = {
        "id": 3,
        "guild_id": 10,
        "channel_id": 20,
        "theme": "paper-of-the-day",
        "time": dt.time(9),
        "timezone": "Europe/Berlin",
        "created_by": 30,
        "created_at": NOW,
    }
    return Subscription.model_validate(data | changes)


def test_schedules_read_naturally_in_each_language() -> None:
    daily = _sub()
    assert schedule_text(daily, STRINGS, "en") == "every day at 09:00 (Europe/Berlin)"
    assert schedule_text(daily, STRINGS, "zh-TW") == "每天 09:00（Europe/Berlin）"
    weekly = _sub(theme="venue-spotlight", days=frozenset({4}), time=dt.time(18, 30))
    assert schedule_text(weekly, STRINGS, "en") == "weekly on Friday at 18:30 (Europe/Berlin)"
    assert schedule_text(weekly, STRINGS, "zh-CN") == "每周一次，周五 18:30（Europe/Berlin）"
    some = _sub(days=frozenset({0, 2, 4}))
    assert (
        schedule_text(some, STRINGS, "en") == "Monday, Wednesday, Friday at 09:00 (Europe/Berlin)"
    )
    assert days_label(frozenset({5, 6}), STRINGS, "zh-TW") == "週末（週六、週日）"


def test_filters_say_what_a_digest_draws_from() -> None:
    assert filters_text(DigestFilter(), VENUES, STRINGS, "en") == "all awards"
    full = DigestFilter(venue="icml", kind=AwardKind.BEST, year_from=2015, year_to=2020)
    assert filters_text(full, VENUES, STRINGS, "en") == "ICML · Best paper · 2015–2020"
    assert filters_text(DigestFilter(year_from=2019), VENUES, STRINGS, "zh-TW") == "2019 年起"
    assert filters_text(DigestFilter(year_to=2010), VENUES, STRINGS, "en") == "until 2010"


def test_the_list_shows_each_next_post_as_discord_timestamps() -> None:
    due = dt.datetime(2026, 3, 2, 8, tzinfo=dt.UTC)
    paused = _sub(id=4, status="paused", paused_reason="forbidden", role_id=77)
    (embed,) = list_embeds(
        [Listed(_sub(), due), Listed(paused, None)], "Lab", 25, VENUES, STRINGS, "en"
    )
    assert embed.title == "Digests in Lab"
    first, second = embed.fields
    assert first.name == "#3 · Paper of the day"
    stamp = int(due.timestamp())
    # Line by line: where and when, what it draws from, then its next post or why it waits.
    assert str(first.value).split("\n") == [
        "<#20> · every day at 09:00 (Europe/Berlin)",
        "in English · all awards",
        f"Next post: <t:{stamp}:F> (<t:{stamp}:R>)",
    ]
    assert str(second.value).split("\n") == [
        "<#20> · every day at 09:00 (Europe/Berlin)",
        "in English · all awards · mentions <@&77>",
        "Paused: Laurel lost permission to post there. Fix it, then `/digest resume`.",
    ]
    assert embed.footer.text == "2 of at most 25 · times show in your own time zone"


def test_an_empty_list_says_how_to_start() -> None:
    (embed,) = list_embeds([], "Lab", 25, VENUES, STRINGS, "zh-TW")
    assert embed.fields == []
    assert embed.description == "這個伺服器還沒有定期貼文。使用 `/digest subscribe` 建立一個。"


def test_the_subscribe_answer_says_nothing_was_posted_and_when_the_first_post_comes() -> None:
    due = dt.datetime(2026, 3, 2, 8, tzinfo=dt.UTC)
    text = subscribed_text(_sub(), due, VENUES, STRINGS, "en")
    assert text.startswith("Subscribed **#3 · Paper of the day**")
    assert "Nothing was posted now" in text
    assert f"<t:{int(due.timestamp())}:F>" in text


def test_a_preview_frames_the_post_within_one_message() -> None:
    due = dt.datetime(2026, 3, 2, 8, tzinfo=dt.UTC)
    text = preview_content(_sub(), due, "x" * 5000, STRINGS, "en")
    assert len(text) == MESSAGE
    assert text.startswith("Preview of **#3 · Paper of the day** for <#20>")
    assert text.endswith("x…")
    assert preview_content(_sub(), None, "", STRINGS, "en").endswith("nothing was sent.")


def test_a_full_server_with_long_settings_is_listed_whole_within_discords_limits() -> None:
    long = DigestFilter(
        venue="neurips", kind=AwardKind.DATASETS_BENCHMARKS, year_from=2015, year_to=2025
    )
    due = dt.datetime(2026, 3, 2, 8, tzinfo=dt.UTC)
    listed = [
        Listed(
            _sub(
                id=n,
                channel_id=1_234_567_890_123_456_000 + n,
                timezone="America/Argentina/ComodRivadavia",
                language="zh-TW",
                role_id=1_234_567_890_123_456_789,
                filters=long,
                days=frozenset({0, 2, 4, 6}),
            ),
            due,
        )
        for n in range(1, 26)
    ]
    embeds = list_embeds(listed, "A server with a rather long name", 25, VENUES, STRINGS, "en")
    assert len(embeds) == 2
    assert all(len(embed) <= 6000 for embed in embeds)
    names = [field.name for embed in embeds for field in embed.fields]
    assert names == [f"#{n} · Paper of the day" for n in range(1, 26)]
