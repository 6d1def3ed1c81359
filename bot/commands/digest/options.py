"""Typed options of /digest: time of day, weekdays, IANA time zone, and the digest channel.

Each is checked before a command body runs, and a wrong value is a short answer saying what
is expected — never a traceback. Time zones and weekdays autocomplete.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
import zoneinfo

import discord
from discord import app_commands

from bot.commands.digest.checks import admin_guild, is_admin
from bot.commands.options import AUTOCOMPLETE_LIMIT
from bot.commands.parts import parts_of
from bot.domain.models import Language
from bot.domain.subscriptions import ALL_DAYS, Subscription, check_timezone
from bot.errors import UserError
from bot.render.digest_admin import (
    DAY_CODES,
    WEEKDAYS,
    WEEKENDS,
    days_label,
    heading,
    schedule_text,
)
from bot.render.i18n import Strings, language_of
from bot.render.markdown import esc

# "7:30", "07:30", "19:05"; Chinese keyboards type a full-width colon.
TIME = re.compile(r"^\s*(?P<hour>[01]?\d|2[0-3])\s*[:：]\s*(?P<minute>[0-5]\d)\s*$")
# Shown before anything is typed: zones many servers live in.
COMMON_ZONES = (
    "UTC",
    "America/New_York",
    "America/Chicago",
    "America/Los_Angeles",
    "Europe/London",
    "Europe/Berlin",
    "Asia/Taipei",
    "Asia/Shanghai",
    "Asia/Tokyo",
    "Asia/Kolkata",
    "Australia/Sydney",
)

WEEKDAY_NAMES: dict[str, int] = {
    **{name: day for day, name in enumerate(("mon", "tue", "wed", "thu", "fri", "sat", "sun"))},
    **{
        name: day
        for day, name in enumerate(
            ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
        )
    },
    "tues": 1,
    "weds": 2,
    "thur": 3,
    "thurs": 3,
}
# 週一/周一/星期一 … 週日/周日/星期天: the digit after the prefix is the weekday.
CHINESE_DAY = re.compile(r"^(?:週|周|星期|禮拜|礼拜)?(?P<day>[一二三四五六日天])$")
# A span of days, as "mon-fri" or "週一至週五".
DAY_SPAN = re.compile(r"^(?P<first>[^-~至到]+)(?:-|~|至|到)(?P<last>[^-~至到]+)$")
CHINESE_DIGITS = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6}
DAY_SETS: dict[str, frozenset[int]] = {
    "daily": ALL_DAYS,
    "every-day": ALL_DAYS,
    "everyday": ALL_DAYS,
    "all": ALL_DAYS,
    "weekdays": WEEKDAYS,
    "weekends": WEEKENDS,
    "每天": ALL_DAYS,
    "工作日": WEEKDAYS,
    "週末": WEEKENDS,
    "周末": WEEKENDS,
}
DAY_SEPARATORS = re.compile(r"[\s,，、;；/]+")


def parse_time(text: str) -> dt.time:
    """ "HH:MM" (24-hour) as a time, or a UserError saying what a time looks like."""
    match = TIME.match(text)
    if match is None:
        raise UserError("digest-error-bad-time", time=esc(text[:20]))
    return dt.time(int(match["hour"]), int(match["minute"]))


def parse_days(text: str) -> frozenset[int]:
    """Weekdays as typed: "mon,wed,fri", "weekdays", "週一 週三", a range "mon-fri"."""
    days: set[int] = set()
    for word in DAY_SEPARATORS.split(text.strip().casefold()):
        if not word:
            continue
        found = _day_word(word)
        if found is None:
            raise UserError("digest-error-bad-days", days=esc(text[:40]))
        days |= found
    if not days:
        raise UserError("digest-error-bad-days", days=esc(text[:40]))
    return frozenset(days)


def _day_word(word: str) -> frozenset[int] | None:
    if word in DAY_SETS:
        return DAY_SETS[word]
    if (day := _one_day(word)) is not None:
        return frozenset({day})
    span = DAY_SPAN.match(word)
    if span is None:
        return None
    start, end = _one_day(span["first"]), _one_day(span["last"])
    if start is None or end is None:
        return None
    return frozenset(range(start, end + 1) if start <= end else [*range(start, 7), *range(end + 1)])


def _one_day(word: str) -> int | None:
    if word in WEEKDAY_NAMES:
        return WEEKDAY_NAMES[word]
    if match := CHINESE_DAY.match(word):
        return CHINESE_DIGITS[match["day"]]
    return None


def days_code(days: frozenset[int]) -> str:
    """The canonical text of a set of weekdays, which parse_days reads back: "mon,wed,fri"."""
    return ",".join(DAY_CODES[d] for d in sorted(days))


def _strings(interaction: discord.Interaction) -> Strings:
    return parts_of(interaction.client).strings


class TimeTransformer(app_commands.Transformer):
    """A local time of day typed as HH:MM."""

    async def transform(self, interaction: discord.Interaction, value: str) -> dt.time:
        return parse_time(value)


class DaysTransformer(app_commands.Transformer):
    """Weekdays typed as names or picked from common sets (every day, weekdays, weekends, …)."""

    async def transform(self, interaction: discord.Interaction, value: str) -> frozenset[int]:
        return parse_days(value)

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        strings, language = _strings(interaction), language_of(interaction.locale)
        typed = value.strip().casefold()
        offers: list[frozenset[int]] = []
        if typed:
            # What was typed, if it already reads as days, comes first.
            with contextlib.suppress(UserError):
                offers.append(parse_days(typed))
        presets = [ALL_DAYS, WEEKDAYS, WEEKENDS]
        for days in [*presets, *(frozenset({day}) for day in range(7))]:
            # Matched in the reader's language and in English, which the option also reads.
            labels = {days_label(days, strings, lang).casefold() for lang in (language, "en")}
            if not typed or typed in days_code(days) or any(typed in label for label in labels):
                offers.append(days)
        return [
            app_commands.Choice(name=days_label(d, strings, language)[:100], value=days_code(d))
            for d in list(dict.fromkeys(offers))[:AUTOCOMPLETE_LIMIT]
        ]


class TimeZoneTransformer(app_commands.Transformer):
    """An IANA time-zone name, matched without regard to case; autocompleted from tzdata."""

    def __init__(self) -> None:
        super().__init__()
        self._names: list[str] | None = None

    def names(self) -> list[str]:
        if self._names is None:  # read from disk once, when first needed
            self._names = sorted(
                n
                for n in zoneinfo.available_timezones()
                if n not in {"localtime", "posixrules", "Factory"}
            )
        return self._names

    def canonical(self, value: str) -> str:
        """The zone's own spelling of `value` ("europe/berlin" -> "Europe/Berlin")."""
        wanted = value.strip().replace(" ", "_").casefold()
        for name in self.names():
            if name.casefold() == wanted:
                with contextlib.suppress(ValueError):  # tzdata's own aliases the domain refuses
                    return check_timezone(name)
        text = esc(value.strip()[:64])
        raise UserError("digest-error-unknown-zone", zone=text)

    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        return self.canonical(value)

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=n, value=n) for n in self.suggest(value)]

    def suggest(self, typed: str) -> list[str]:
        """Up to 25 zones: name or city starting with `typed` first, then names containing it."""
        wanted = typed.strip().replace(" ", "_").casefold()
        if not wanted:
            return list(COMMON_ZONES)
        starts, contains = [], []
        for name in self.names():
            folded = name.casefold()
            if folded.startswith(wanted) or folded.rsplit("/", 1)[-1].startswith(wanted):
                starts.append(name)
            elif wanted in folded:
                contains.append(name)
        return (starts + contains)[:AUTOCOMPLETE_LIMIT]


class DigestChannelTransformer(app_commands.Transformer):
    """Where a digest can go: text and announcement channels, threads, and forums.

    The channel is taken as Discord resolved it (not from the cache), so a thread the bot has not
    seen yet is still accepted; whether the bot may post there is checked by the command.
    """

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.channel

    @property
    def channel_types(self) -> list[discord.ChannelType]:
        return [
            discord.ChannelType.text,
            discord.ChannelType.news,
            discord.ChannelType.public_thread,
            discord.ChannelType.private_thread,
            discord.ChannelType.news_thread,
            discord.ChannelType.forum,
        ]

    async def transform(
        self, interaction: discord.Interaction, value: object
    ) -> app_commands.AppCommandChannel | app_commands.AppCommandThread:
        if isinstance(value, app_commands.AppCommandChannel | app_commands.AppCommandThread):
            return value
        raise UserError("digest-error-channel-type")


TimeOption = app_commands.Transform[dt.time, TimeTransformer]
DaysOption = app_commands.Transform[frozenset[int], DaysTransformer]
TimeZoneOption = app_commands.Transform[str, TimeZoneTransformer]
DigestChannel = app_commands.Transform[
    app_commands.AppCommandChannel | app_commands.AppCommandThread, DigestChannelTransformer
]


class SubscriptionTransformer(app_commands.Transformer):
    """One of this server's digests, by number; autocompleted from the server's own list.

    A number from another server is answered exactly as an unknown one: nothing about other
    servers' digests is revealed.
    """

    @property
    def type(self) -> discord.AppCommandOptionType:
        return discord.AppCommandOptionType.integer

    @property
    def min_value(self) -> int:
        return 1

    async def transform(self, interaction: discord.Interaction, value: int) -> Subscription:
        guild = admin_guild(interaction)
        repository = parts_of(interaction.client).subscriptions
        sub = await repository.get(int(value))
        if sub is None or sub.guild_id != guild.id:
            raise UserError("digest-error-not-found", id=value)
        return sub

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction, value: int | str
    ) -> list[app_commands.Choice[int]]:
        if not is_admin(interaction) or interaction.guild is None:
            return []  # others learn nothing about the server's digests
        services = parts_of(interaction.client)
        language = language_of(interaction.locale)
        typed = str(value).strip().lstrip("#").casefold()
        choices = []
        for sub in await services.subscriptions.in_guild(interaction.guild.id):
            label = _choice_label(sub, interaction.guild, services.strings, language)
            if typed in label.casefold():
                choices.append(app_commands.Choice(name=label, value=sub.id or 0))
        return choices[:AUTOCOMPLETE_LIMIT]


def _choice_label(
    sub: Subscription, guild: discord.Guild, strings: Strings, language: Language
) -> str:
    """ "#3 · Paper of the day · #general · every day at 09:00 (UTC)", within 100 characters."""
    channel = guild.get_channel_or_thread(sub.channel_id)
    where = f"#{channel.name}" if channel is not None else f"#{sub.channel_id}"
    parts = [heading(sub, strings, language), where, schedule_text(sub, strings, language)]
    if sub.status == "paused":
        parts.append(strings.text("digest-choice-paused", language))
    return " · ".join(parts)[:100]


SubscriptionOption = app_commands.Transform[Subscription, SubscriptionTransformer]
