"""What /digest tells the admin: the list, the confirmations, the preview frame.

Pure: subscriptions, times and names in, text or an embed out. Every moment is shown as a
Discord timestamp, which each reader's client renders in their own time zone and language.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import discord

from bot.domain.models import Language
from bot.domain.subscriptions import ALL_DAYS, Cadence, DigestFilter, Subscription
from bot.render.areas import area_name
from bot.render.awards import escape, kind_label
from bot.render.embeds import FIELD_NAME, FIELD_VALUE, TOTAL, Field, build_embed
from bot.render.i18n import Strings
from bot.render.markdown import esc

WEEKDAYS: frozenset[int] = frozenset(range(5))
WEEKENDS: frozenset[int] = frozenset({5, 6})
DAY_CODES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
MESSAGE = 2000  # Discord's limit on a message's content


@dataclass(frozen=True, slots=True)
class Listed:
    """A subscription with its next scheduled post (None while it is paused)."""

    sub: Subscription
    next_post: dt.datetime | None
    last: tuple[str, dt.datetime | None] | None = None  # the latest post's ledger code, when


def when(moment: dt.datetime) -> str:
    """A moment as Discord timestamps: the full date and time, then "in 3 hours"."""
    return f"{discord.utils.format_dt(moment, 'F')} ({discord.utils.format_dt(moment, 'R')})"


def theme_label(theme: str, strings: Strings, language: Language) -> str:
    return strings.text(f"digest-theme-{theme}", language)


def days_label(days: frozenset[int], strings: Strings, language: Language) -> str:
    """Weekdays as a reader says them: "every day", "weekdays (Mon–Fri)", "Monday, Friday"."""
    named = {ALL_DAYS: "every-day", WEEKDAYS: "weekdays", WEEKENDS: "weekends"}
    if days in named:
        return strings.text(f"digest-days-{named[days]}", language)
    separator = strings.text("digest-days-separator", language)
    return separator.join(
        strings.text(f"digest-days-{DAY_CODES[d]}", language) for d in sorted(days)
    )


def schedule_text(sub: Subscription, strings: Strings, language: Language) -> str:
    """When it posts, in its own zone: "every day at 09:00 (Europe/Berlin)"."""
    time, zone = sub.time.strftime("%H:%M"), sub.timezone
    if sub.cadence == Cadence.WEEKLY:
        (day,) = sub.days
        label = strings.text(f"digest-days-{DAY_CODES[day]}", language)
        return strings.text("digest-schedule-weekly", language, day=label, time=time, zone=zone)
    days = days_label(sub.days, strings, language)
    return strings.text("digest-schedule-daily", language, days=days, time=time, zone=zone)


def filters_text(
    filters: DigestFilter, venues: Mapping[str, str], strings: Strings, language: Language
) -> str:
    """What a digest draws from: "ICML · Best paper · 2015–2020", or "all awards"."""
    parts = []
    if filters.venue is not None:
        parts.append(escape(venues.get(filters.venue, filters.venue)))
    if filters.kind is not None:
        parts.append(kind_label(filters.kind, strings, language))
    if filters.area is not None:
        parts.append(area_name(strings, filters.area, language))
    start, end = filters.year_from, filters.year_to
    if start is not None and end is not None:
        years = str(start) if start == end else f"{start}–{end}"
        parts.append(years)
    elif start is not None:
        parts.append(strings.text("digest-filter-from", language, year=start))
    elif end is not None:
        parts.append(strings.text("digest-filter-until", language, year=end))
    if not parts:
        return strings.text("digest-filters-none", language)
    return " · ".join(parts)


def details(
    sub: Subscription, venues: Mapping[str, str], strings: Strings, language: Language
) -> str:
    """Two lines: where and when; then language, filters and the role it mentions."""
    where = f"<#{sub.channel_id}> · {schedule_text(sub, strings, language)}"
    what = [
        strings.text(f"digest-language-{sub.language}", language),
        filters_text(sub.filters, venues, strings, language),
    ]
    if sub.role_id is not None:
        what.append(strings.text("digest-mentions", language, role=f"<@&{sub.role_id}>"))
    return f"{where}\n{' · '.join(what)}"


def status_line(
    sub: Subscription, next_post: dt.datetime | None, strings: Strings, language: Language
) -> str:
    if sub.status == "paused" or next_post is None:
        reason = sub.paused_reason or "manual"
        return strings.text(f"digest-paused-{reason}", language)
    return strings.text("digest-next", language, when=when(next_post))


def last_line(
    last: tuple[str, dt.datetime | None] | None, strings: Strings, language: Language
) -> str:
    """The latest post's ledger code (what logs and support name it by), for admins only."""
    if last is None:
        return ""
    code, sent = last
    at = discord.utils.format_dt(sent, "R") if sent is not None else "—"
    return "\n" + strings.text("digest-last-post", language, code=code, when=at)


def heading(sub: Subscription, strings: Strings, language: Language) -> str:
    return f"#{sub.id} · {theme_label(sub.theme, strings, language)}"


def list_embeds(
    listed: Sequence[Listed],
    guild_name: str,
    limit: int,
    venues: Mapping[str, str],
    strings: Strings,
    language: Language,
) -> list[discord.Embed]:
    """Every subscription of a server, one field each, in as many embeds as Discord's 6,000
    characters per message need (25 digests with long filters can pass it): none is dropped."""
    title = strings.text("digest-list-title", language, guild=escape(guild_name))
    footer = strings.text("digest-list-footer", language, count=len(listed), limit=limit)
    if not listed:
        empty = strings.text("digest-list-empty", language)
        return [build_embed(title=title, description=empty, footer=footer)]
    fields = [
        Field(
            heading(item.sub, strings, language),
            f"{details(item.sub, venues, strings, language)}\n"
            f"{status_line(item.sub, item.next_post, strings, language)}"
            + last_line(item.last, strings, language),
        )
        for item in listed
    ]
    frame = len(title) + len(footer)
    pages: list[list[Field]] = [[]]
    used = frame
    for field in fields:
        cost = len(field.name[:FIELD_NAME]) + len(field.value[:FIELD_VALUE])
        if pages[-1] and used + cost > TOTAL:
            pages.append([])
            used = frame
        pages[-1].append(field)
        used += cost
    return [build_embed(title=title, fields=page, footer=footer) for page in pages]


def subscribed_text(
    sub: Subscription,
    first_post: dt.datetime,
    venues: Mapping[str, str],
    strings: Strings,
    language: Language,
) -> str:
    return strings.text(
        "digest-subscribed",
        language,
        heading=heading(sub, strings, language),
        details=details(sub, venues, strings, language),
        when=when(first_post),
    )


def edited_text(
    sub: Subscription,
    next_post: dt.datetime | None,
    venues: Mapping[str, str],
    strings: Strings,
    language: Language,
) -> str:
    return strings.text(
        "digest-edited",
        language,
        heading=heading(sub, strings, language),
        details=details(sub, venues, strings, language),
        status=status_line(sub, next_post, strings, language),
    )


def _in_channel(
    key: str, sub: Subscription, strings: Strings, language: Language, **params: str
) -> str:
    """A subscription's heading and channel, in the answer `key`."""
    heading_text = heading(sub, strings, language)
    return strings.text(
        key, language, heading=heading_text, channel=f"<#{sub.channel_id}>", **params
    )


def paused_text(sub: Subscription, strings: Strings, language: Language) -> str:
    return _in_channel("digest-paused", sub, strings, language)


def resumed_text(
    sub: Subscription, next_post: dt.datetime, strings: Strings, language: Language
) -> str:
    return _in_channel("digest-resumed", sub, strings, language, when=when(next_post))


def removed_text(sub: Subscription, strings: Strings, language: Language) -> str:
    return _in_channel("digest-removed", sub, strings, language)


def preview_content(
    sub: Subscription,
    next_post: dt.datetime | None,
    post_content: str,
    strings: Strings,
    language: Language,
) -> str:
    """The frame around a preview: whose, for where, due when; then the post's own text."""
    key = "digest-preview-paused" if next_post is None else "digest-preview"
    frame = strings.text(
        key,
        language,
        heading=heading(sub, strings, language),
        channel=f"<#{sub.channel_id}>",
        when=when(next_post) if next_post is not None else "",
    )
    if not post_content:
        return frame
    room = MESSAGE - len(frame) - 2
    body = post_content if len(post_content) <= room else post_content[: room - 1] + "…"
    return f"{frame}\n\n{body}"


def posted_text(
    sub: Subscription,
    status: str,
    link: str | None,
    error: str | None,
    strings: Strings,
    language: Language,
    *,
    day: str = "",
    next_post: dt.datetime | None = None,
) -> str:
    """What became of a post-now: the next scheduled post (of `day`) sent early, or already
    sent, paused, failed, pending; then when the schedule posts next (`next_post`)."""
    key = {
        "sent": "digest-posted",
        "already": "digest-posted-already",
        "paused": "digest-post-paused",
        "pending": "digest-post-pending",
    }.get(status, "digest-post-failed")
    text = strings.text(
        key,
        language,
        heading=heading(sub, strings, language),
        channel=f"<#{sub.channel_id}>",
        link=link or f"<#{sub.channel_id}>",
        error=esc((error or "?")[:150]),
        date=day,
    )
    if status in ("sent", "already") and next_post is not None:
        text += "\n" + strings.text("digest-posted-next", language, when=when(next_post))
    return text


def post_link(guild_id: int, channel_id: int, message_id: int | None, *, forum: bool) -> str | None:
    """A jump link to a posted digest, or None if nothing was posted."""
    if message_id is None:
        return None
    if forum:  # a forum post is a thread whose id is its first message's: link the thread
        return f"https://discord.com/channels/{guild_id}/{message_id}"
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"
