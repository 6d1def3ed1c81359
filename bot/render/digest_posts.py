"""Digest posts: pure builders from catalogue objects to a message (content, embeds, files).

Every post carries a marker (its ledger nonce) at the end of its last embed's footer: when a
send's outcome was lost in a crash, the next start finds the post in the channel by it. The
marker is written in invisible characters (`hidden_marker`): members don't need ledger codes
(issue 25, item 8); admins see them in `/digest list` and the logs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from bot.domain.models import Edition, Language, StoredPaper, Venue
from bot.domain.text import truncate
from bot.render.awards import AwardEntry
from bot.render.embeds import FOOTER, TOTAL
from bot.render.i18n import Strings
from bot.render.paper import list_embed, paper_embed
from bot.render.spotlight import spotlight_embed
from bot.render.stats import edition_embed as numbers_embed

MAX_EMBEDS = 10
CHART_NAME = "by-the-numbers.png"
THREAD_NAME = 100


@dataclass(frozen=True, slots=True)
class Post:
    content: str
    embeds: list[discord.Embed]
    files: list[tuple[str, bytes]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Frame:
    """What every post of a subscription shares: its theme and period, language, role, marker."""

    theme: str  # its name: the heading is the string digests-theme-<name>
    period: str
    language: Language
    role_id: int | None
    marker: str
    late: bool = False


# Four invisible characters, two bits each, after an invisible separator: a marker no member
# sees, that the bot reads back from the footer (Discord keeps them as sent).
_DIGITS = "\u200b\u200c\u200d\u2060"
_OPEN = "\u2063"


def hidden_marker(marker: str) -> str:
    """`marker` (ASCII) as invisible characters."""
    bits = "".join(
        _DIGITS[(byte >> shift) & 3] for byte in marker.encode("ascii") for shift in (6, 4, 2, 0)
    )
    return _OPEN + bits


def marker_in(text: str) -> str | None:
    """The marker `hidden_marker` wrote at the end of `text`, if there is one."""
    at = text.rfind(_OPEN)
    digits = text[at + 1 :] if at >= 0 else ""
    if not digits or len(digits) % 4 or any(d not in _DIGITS for d in digits):
        return None
    values = [_DIGITS.index(d) for d in digits]
    data = bytes(
        values[i] << 6 | values[i + 1] << 4 | values[i + 2] << 2 | values[i + 3]
        for i in range(0, len(values), 4)
    )
    return data.decode("ascii", errors="replace")


def heading(frame: Frame, strings: Strings) -> str:
    title = strings.text(f"digests-theme-{frame.theme}", frame.language)
    text = strings.text("digests-heading", frame.language, theme=title, period=frame.period)
    if frame.late:
        text += " " + strings.text("digests-late", frame.language)
    return text


def thread_name(frame: Frame, strings: Strings) -> str:
    """A forum post's title: the theme and the period, e.g. "Paper of the day · 2026-11-29"."""
    title = strings.text(f"digests-theme-{frame.theme}", frame.language)
    return truncate(f"{title} · {frame.period}", THREAD_NAME)


def _post(
    frame: Frame, strings: Strings, embeds: list[discord.Embed], files: list[tuple[str, bytes]]
) -> Post:
    lines = [f"**{heading(frame, strings)}**"]
    if frame.role_id is not None:
        lines.insert(0, f"<@&{frame.role_id}>")
    marker = hidden_marker(frame.marker) if frame.marker else ""
    kept = _within_total(embeds[:MAX_EMBEDS], reserve=len(marker))
    if not marker:  # a preview: nothing to find again
        return Post("\n".join(lines), kept, files)
    last = kept[-1]
    footer = last.footer.text or ""
    # The marker must survive any cut, so the footer's own text gives way instead.
    last.set_footer(text=truncate(footer, FOOTER - len(marker)) + marker)
    return Post("\n".join(lines), kept, files)


def _within_total(embeds: list[discord.Embed], reserve: int) -> list[discord.Embed]:
    """As many embeds as fit Discord's 6,000 characters for the whole message (at least one)."""
    kept: list[discord.Embed] = []
    used = reserve
    for embed in embeds:
        used += len(embed)
        if kept and used > TOTAL:
            break
        kept.append(embed)
    return kept


def paper_post(frame: Frame, stored: StoredPaper, strings: Strings) -> Post:
    """Paper of the day, and test of time: one paper in detail."""
    return _post(frame, strings, [paper_embed(stored, strings, frame.language)], [])


def paper_body(stored: StoredPaper, strings: Strings, language: Language) -> discord.Embed:
    """What every paper-of-the-day or test-of-time post of `stored` in `language` shows
    (rendered once for a fan-out; `framed` makes each post from a copy)."""
    return paper_embed(stored, strings, language)


def framed(frame: Frame, strings: Strings, bodies: Sequence[discord.Embed]) -> Post:
    """One post from embeds rendered for many (`paper_body`): copies, so the marker in the
    footer and any cut are this post's alone and the bodies stay as they were."""
    return _post(frame, strings, [body.copy() for body in bodies], [])


def spotlight_post(
    frame: Frame, venue: Venue, year: int, entries: Sequence[AwardEntry], strings: Strings
) -> Post:
    """One edition's top awards in one compact embed, with how many more and where they are."""
    return _post(
        frame, strings, [spotlight_embed(venue, year, entries, strings, frame.language)], []
    )


def numbers_post(
    frame: Frame,
    venue: Venue,
    edition: Edition,
    previous: Edition | None,
    chart: bytes,
    strings: Strings,
) -> Post:
    embed = numbers_embed(venue, edition, previous, strings, frame.language, image=CHART_NAME)
    return _post(frame, strings, [embed], [(CHART_NAME, chart)])


def new_awards_post(frame: Frame, papers: Sequence[StoredPaper], strings: Strings) -> Post:
    title = strings.text("digests-new-awards-title", frame.language, count=len(papers))
    return _post(frame, strings, [list_embed(title, papers, strings, frame.language)], [])


def paused_notice(
    channel_id: int, theme: str, reason: str, language: Language, strings: Strings
) -> str:
    """What the server's admins are told, once, when Laurel stops posting to a channel."""
    title = strings.text(f"digests-theme-{theme}", language)
    return strings.text(
        f"digests-paused-{reason}", language, channel=f"<#{channel_id}>", theme=title
    )
