"""The /stats answers: an edition's numbers with the change from before, and venues side by side.

Pure: editions in, embeds out. Counts get thousands separators, rates one decimal, and every
text that came from data (source names, alternative values) is escaped for markdown.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import discord

from bot.domain.models import Coverage, Edition, Language, Submitted, Venue
from bot.domain.provenance import best_source
from bot.render.charts import TrendPoint, VenueBar
from bot.render.embeds import Field, build_embed
from bot.render.i18n import Strings
from bot.render.markdown import esc
from bot.render.paper import source_link

MINUS = "\u2212"  # a real minus sign, as wide as the plus
DASH = "—"


@dataclass(frozen=True, slots=True)
class Change:
    """How an edition differs from an earlier one: percent changes and rate points."""

    since: int
    submissions: float | None
    accepted: float | None
    rate_points: float | None


class _Counted(Protocol):
    @property
    def submissions(self) -> int | None: ...
    @property
    def accepted(self) -> int | None: ...


def has_statistics(edition: _Counted) -> bool:
    """Whether an edition (or its coverage row) has numbers: the one rule of /stats and /about."""
    return edition.submissions is not None or edition.accepted is not None


def covered_years(coverage: Sequence[Coverage], venue: str) -> list[int]:
    """The years the catalogue covers of `venue`: editions with awards or facts of their own.
    An edition made only to hold an award, whose last paper a curator removed, is not one
    (issue 25, item 11)."""
    return sorted(
        c.year
        for c in coverage
        if c.venue == venue and (c.awards or c.sourced or has_statistics(c))
    )


def previous_with_statistics(editions: Sequence[Edition], year: int) -> Edition | None:
    """The latest edition before `year` that has numbers to compare with."""
    earlier = [e for e in editions if e.year < year and has_statistics(e)]
    return max(earlier, key=lambda e: e.year, default=None)


def change_between(current: Edition, previous: Edition | None) -> Change | None:
    if previous is None:
        return None
    rate_points = None
    if current.acceptance_rate is not None and previous.acceptance_rate is not None:
        rate_points = (current.acceptance_rate - previous.acceptance_rate) * 100
    return Change(
        since=previous.year,
        submissions=_percent_change(current.submissions, previous.submissions),
        accepted=_percent_change(current.accepted, previous.accepted),
        rate_points=rate_points,
    )


def _percent_change(now: int | None, before: int | None) -> float | None:
    if now is None or not before:
        return None
    return (now - before) / before * 100


def format_count(value: int | None) -> str:
    return DASH if value is None else f"{value:,}"


def format_rate(rate: float | None) -> str:
    """A share as a percentage with one decimal: 0.24519 → "24.5%"."""
    return DASH if rate is None else f"{rate * 100:.1f}%"


def format_signed(value: float) -> str:
    """+37.7 / −1.3 (a true minus sign); a change that rounds to nothing is ±0.0."""
    rounded = round(value, 1)
    if rounded == 0:
        return "±0.0"
    return f"+{rounded:.1f}" if rounded > 0 else f"{MINUS}{-rounded:.1f}"


def trend_points(editions: Sequence[Edition]) -> list[TrendPoint]:
    return [
        TrendPoint(e.year, e.submissions, e.accepted)
        for e in sorted(editions, key=lambda e: e.year)
        if has_statistics(e)
    ]


def venue_bars(rows: Sequence[tuple[Venue, Edition]]) -> list[VenueBar]:
    return [VenueBar(v.name, e.submissions, e.accepted) for v, e in rows]


def edition_embed(
    venue: Venue,
    edition: Edition,
    previous: Edition | None,
    strings: Strings,
    language: Language,
    *,
    image: str | None = None,
) -> discord.Embed:
    """`image` is the chart's attachment name, shown as the embed's image."""
    text = _Text(strings, language)
    change = change_between(edition, previous)
    reviewed = edition.counts is not None and edition.counts.submissions is Submitted.REVIEWED
    fields = [
        Field(
            # A figure of the papers reviewed says so: it is not the papers submitted (issue 24).
            text("stats-reviewed" if reviewed else "stats-submissions"),
            _with_change(format_count(edition.submissions), change, "submissions", text),
            inline=True,
        ),
        Field(
            text("stats-accepted"),
            _with_change(format_count(edition.accepted), change, "accepted", text),
            inline=True,
        ),
        Field(
            text("stats-rate"),
            _with_change(format_rate(edition.acceptance_rate), change, "rate", text),
            inline=True,
        ),
    ]
    presentations = _counts(
        text, ("stats-orals", edition.orals), ("stats-spotlights", edition.spotlights),
        ("stats-posters", edition.posters),
    )  # fmt: skip
    if presentations:
        fields.append(Field(text("stats-presentations"), presentations))
    reviewing = _counts(
        text, ("stats-reviewers", edition.reviewers), ("stats-area-chairs", edition.area_chairs),
        ("stats-senior-area-chairs", edition.senior_area_chairs),
    )  # fmt: skip
    if reviewing:
        fields.append(Field(text("stats-reviewing"), reviewing))
    # One link to the best source: the other sources and their figures are for curators.
    source = best_source(edition.sources)
    if source is not None and source.url:
        fields.append(Field(text("stats-source"), source_link(source.url)))
    embed = build_embed(
        title=text("stats-title", venue=esc(venue.name), year=edition.year),
        description=_place_and_dates(edition, text) or None,
        fields=fields,
        footer=text("stats-trend-footer") if image else None,
        url=venue.url,
    )
    if image:
        embed.set_image(url=f"attachment://{image}")
    return embed


def compare_embed(
    year: int,
    rows: Sequence[tuple[Venue, Edition]],
    missing: Sequence[Venue],
    strings: Strings,
    language: Language,
    *,
    image: str | None = None,
) -> discord.Embed:
    """`rows` in display order; `missing` are venues asked for that have no numbers that year."""
    text = _Text(strings, language)
    fields = [
        Field(
            esc(venue.name),
            "\n".join(
                text("stats-compare-line", label=text(key), value=value)
                for key, value in (
                    ("stats-submissions", format_count(edition.submissions)),
                    ("stats-accepted", format_count(edition.accepted)),
                    ("stats-rate", format_rate(edition.acceptance_rate)),
                )
            ),
            inline=True,
        )
        for venue, edition in rows
    ]
    footer = None
    if missing:
        names = ", ".join(esc(v.name) for v in missing)
        footer = text("stats-compare-missing", year=year, venues=names)
    embed = build_embed(
        title=text("stats-compare-title", year=year),
        fields=fields,
        footer=footer,
    )
    if image:
        embed.set_image(url=f"attachment://{image}")
    return embed


class _Text:
    def __init__(self, strings: Strings, language: Language) -> None:
        self._strings, self._language = strings, language

    def __call__(self, key: str, /, **params: object) -> str:
        return self._strings.text(key, self._language, **params)


def _with_change(shown: str, change: Change | None, what: str, text: _Text) -> str:
    if change is None:
        return f"**{shown}**"
    if what == "rate":
        delta = change.rate_points
        formatted = None if delta is None else text("stats-points", points=format_signed(delta))
    else:
        delta = change.submissions if what == "submissions" else change.accepted
        formatted = None if delta is None else f"{format_signed(delta)}%"
    if formatted is None:
        return f"**{shown}**"
    return f"**{shown}**\n{text('stats-vs', change=formatted, year=change.since)}"


def _counts(text: _Text, *counts: tuple[str, int | None]) -> str:
    return " · ".join(f"{text(key)} {value:,}" for key, value in counts if value is not None)


def _place_and_dates(edition: Edition, text: _Text) -> str:
    place = ", ".join(p for p in (edition.city, edition.country) if p)
    parts = [esc(place)] if place else []
    if edition.start_date:
        dates = _timestamp(edition.start_date)
        if edition.end_date and edition.end_date != edition.start_date:
            dates += f" – {_timestamp(edition.end_date)}"
        parts.append(dates)
    elif edition.month:
        names = text("stats-month-names").split(",")
        month = names[edition.month - 1].strip()
        parts.append(text("stats-month", month=month, year=edition.year))
    return " · ".join(parts)


def _timestamp(day: dt.date) -> str:
    # Noon UTC: the reader's client shows the same calendar day in any time zone from −12 to +11.
    moment = dt.datetime.combine(day, dt.time(12), tzinfo=dt.UTC)
    return f"<t:{int(moment.timestamp())}:D>"
