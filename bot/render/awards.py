"""The /awards answers: an edition's awards, a venue's history, test-of-time awards.

Pure: domain objects in, embeds out. Long lists are cut into pages here, by entry count and by
characters, so that the same data always gives the same pages (a page number in a button's
custom_id must still mean the same page after a restart).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import discord

from bot.domain.awards import standing_in_test_of_time
from bot.domain.models import AwardKind, AwardRef, Language, Paper, Venue
from bot.render.bylines import byline
from bot.render.embeds import DESCRIPTION, build_embed
from bot.render.i18n import Strings
from bot.render.markdown import esc
from bot.render.paper import has_link, search_text
from bot.render.tracks import track_name
from bot.render.years import year_spans

# Winners first, then awards in a category, then those just below the winners, then the past.
KIND_ORDER: tuple[AwardKind, ...] = (
    AwardKind.BEST,
    AwardKind.OUTSTANDING,
    AwardKind.DISTINGUISHED,
    AwardKind.POSITION,
    AwardKind.DATASETS_BENCHMARKS,
    AwardKind.STUDENT,
    AwardKind.RUNNER_UP,
    AwardKind.HONORABLE_MENTION,
    AwardKind.TEST_OF_TIME,
    AwardKind.CLASSIC,
    AwardKind.OTHER,
)
ENTRIES_PER_PAGE = 8
YEARS_PER_PAGE = 12
# Room left in a page's description for the kind headings between entries.
_PAGE_CHARS = DESCRIPTION - 600
_SHOWN_AUTHORS = 3
_LONGEST_LINK = 300  # longer links would crowd out the list; the title is shown unlinked


@dataclass(frozen=True, slots=True)
class AwardEntry:
    """One award and the paper that received it."""

    award: AwardRef
    paper: Paper
    paper_id: int | None = None  # the stored paper: a numbered Open button can show it


@dataclass(frozen=True, slots=True)
class EditionPage:
    """One page of an edition's awards: its embed, how many pages, and the numbered papers on
    it (number, paper id) for the Open buttons under it."""

    embed: discord.Embed
    pages: int
    numbered: list[tuple[int, int]]


class Tally(Protocol):
    """How many awards of one kind an edition gave."""

    @property
    def year(self) -> int: ...
    @property
    def kind(self) -> AwardKind: ...
    @property
    def count(self) -> int: ...


def kind_rank(kind: AwardKind) -> int:
    return KIND_ORDER.index(kind)


def kind_label(kind: AwardKind, strings: Strings, language: Language) -> str:
    return strings.text(f"awards-kind-{kind.value}", language)


def escape(text: str) -> str:
    """Text from data, safe in a description: no markdown, no link syntax, no mentions."""
    return discord.utils.escape_mentions(esc(text))


def authors_line(
    authors: Sequence[str], strings: Strings, language: Language, *, incomplete: bool = False
) -> str:
    """An award list's byline: the one rule of bot/render/bylines.py, three names shown; an
    unknown byline says so rather than naming nobody (issue 24)."""
    if not authors:
        return strings.text("paper-authors-unknown", language)
    return byline(
        authors, strings, language, shown=_SHOWN_AUTHORS, incomplete=incomplete, escape=escape
    )


def _link(paper: Paper) -> str | None:
    links = paper.links
    doi = f"https://doi.org/{paper.doi}" if paper.doi else None
    for url in (links.arxiv, links.project, links.openreview, links.pdf, doi):
        if url and len(url) <= _LONGEST_LINK:
            return url.replace("(", "%28").replace(")", "%29")
    return None


def _title(paper: Paper) -> str:
    title = escape(paper.title)
    url = _link(paper)
    return f"[{title}]({url})" if url else f"**{title}**"


def entry_text(entry: AwardEntry, strings: Strings, language: Language) -> str:
    """One award of an edition's list: the title (linked), its byline, its track."""
    return _entry_text(entry, strings, language, with_venue=False)


def _entry_text(
    entry: AwardEntry, strings: Strings, language: Language, *, with_venue: bool
) -> str:
    head = _title(entry.paper)
    if with_venue:
        head = f"**{escape(entry.award.venue_name)} {entry.award.year}** · {head}"
    paper = entry.paper
    details = [authors_line(paper.authors, strings, language, incomplete=paper.authors_incomplete)]
    if not has_link(paper):
        details.append(search_text(paper, strings, language))
    if entry.award.track:
        track = track_name(entry.award.track, strings, language)
        details.append(strings.text("awards-track", language, track=escape(track)))
    if with_venue and entry.paper.year is not None and entry.paper.year != entry.award.year:
        details.append(strings.text("awards-paper-year", language, year=entry.paper.year))
    detail = " · ".join(d for d in details if d)
    return f"{head}\n{detail}" if detail else head


def paginate(texts: Sequence[str], per_page: int, chars: int = _PAGE_CHARS) -> list[list[int]]:
    """Indices of `texts` on each page: at most `per_page` and about `chars` characters each."""
    pages: list[list[int]] = []
    used = 0
    for index, text in enumerate(texts):
        size = len(text) + 2
        if not pages or len(pages[-1]) >= per_page or used + size > chars:
            pages.append([])
            used = 0
        pages[-1].append(index)
        used += size
    return pages or [[]]


def _footer(page: int, pages: int, total: str, strings: Strings, language: Language) -> str:
    return strings.text("awards-footer", language, page=page + 1, pages=pages, total=total)


def edition_embed(
    venue: Venue,
    year: int,
    entries: Sequence[AwardEntry],
    page: int,
    strings: Strings,
    language: Language,
    *,
    kind: AwardKind | None = None,
) -> tuple[discord.Embed, int]:
    """Page `page` of an edition's awards grouped by kind, and the number of pages."""
    shown = edition_page(venue, year, entries, page, strings, language, kind=kind, numbered=False)
    return shown.embed, shown.pages


def edition_page(
    venue: Venue,
    year: int,
    entries: Sequence[AwardEntry],
    page: int,
    strings: Strings,
    language: Language,
    *,
    kind: AwardKind | None = None,
    numbered: bool = True,
) -> EditionPage:
    """Page `page` of an edition's awards grouped by kind; with `numbered`, each paper numbered
    through the whole edition, as /paper search numbers its results, for its Open button."""
    ordered = sorted(entries, key=lambda e: kind_rank(e.award.kind))
    texts = [_entry_text(e, strings, language, with_venue=False) for e in ordered]
    if numbered:
        texts = [f"**{n}.** {text}" for n, text in enumerate(texts, 1)]
    pages = paginate(texts, ENTRIES_PER_PAGE)
    page = max(0, min(page, len(pages) - 1))
    counts = {k: sum(1 for e in ordered if e.award.kind == k) for k in KIND_ORDER}
    blocks: list[str] = []
    shown_kind: AwardKind | None = None
    for index in pages[page]:
        entry_kind = ordered[index].award.kind
        if entry_kind != shown_kind:
            label = kind_label(entry_kind, strings, language)
            gap = "\n" if blocks else ""  # a blank line before every heading but the first
            blocks.append(f"{gap}__**{label}**__ ({counts[entry_kind]:,})")
            shown_kind = entry_kind
        blocks.append(texts[index])
    name = escape(venue.name)
    if kind is None:
        title = strings.text("awards-edition-title", language, venue=name, year=year)
    else:
        label = kind_label(kind, strings, language)
        title = strings.text(
            "awards-edition-kind-title", language, venue=name, year=year, kind=label
        )
    total = _awards_count(len(ordered), strings, language)
    embed = build_embed(
        title=title,
        description="\n".join(blocks),
        footer=_footer(page, len(pages), total, strings, language),
        url=venue.url,
    )
    ids = [(i + 1, ordered[i].paper_id) for i in pages[page]] if numbered else []
    return EditionPage(embed, len(pages), [(n, pid) for n, pid in ids if pid is not None])


def history_embed(
    venue: Venue,
    tallies: Sequence[Tally],
    covered: Sequence[int],
    page: int,
    strings: Strings,
    language: Language,
) -> tuple[discord.Embed, int]:
    """Page `page` of a venue's awards per year (newest first), and the number of pages."""
    years = sorted({t.year for t in tallies}, reverse=True)
    lines = []
    for year in years:
        of_year = sorted((t for t in tallies if t.year == year), key=lambda t: kind_rank(t.kind))
        total = _awards_count(sum(t.count for t in of_year), strings, language)
        kinds = " · ".join(f"{kind_label(t.kind, strings, language)} {t.count:,}" for t in of_year)
        lines.append(f"**{year}** — {total}\n{kinds}")
    pages = paginate(lines, YEARS_PER_PAGE)
    page = max(0, min(page, len(pages) - 1))
    name = escape(venue.name)
    everything = _awards_count(sum(t.count for t in tallies), strings, language)
    description = "\n".join(lines[i] for i in pages[page])
    if covered:
        description += "\n\n" + strings.text(
            "awards-history-covered", language, venue=name, years=year_spans(covered)
        )
    embed = build_embed(
        title=strings.text("awards-history-title", language, venue=name),
        description=description,
        footer=_footer(page, len(pages), everything, strings, language),
        url=venue.url,
    )
    return embed, len(pages)


def test_of_time_embed(
    venue: Venue | None,
    entries: Sequence[AwardEntry],
    page: int,
    strings: Strings,
    language: Language,
) -> tuple[discord.Embed, int]:
    """Page `page` of test-of-time awards, newest first, and the number of pages. Runners-up
    and honorable mentions follow their edition's award, each labelled as such."""
    ordered = sorted(
        entries,
        key=lambda e: (-e.award.year, e.award.venue_name.casefold(), _standing_rank(e.award)),
    )
    texts = [_test_of_time_text(e, strings, language) for e in ordered]
    pages = paginate(texts, ENTRIES_PER_PAGE)
    page = max(0, min(page, len(pages) - 1))
    if venue is None:
        title = strings.text("awards-tot-title", language)
    else:
        title = strings.text("awards-tot-venue-title", language, venue=escape(venue.name))
    total = _awards_count(len(ordered), strings, language)
    embed = build_embed(
        title=title,
        description="\n\n".join(texts[i] for i in pages[page]),
        footer=_footer(page, len(pages), total, strings, language),
    )
    return embed, len(pages)


def _standing(award: AwardRef) -> AwardKind:
    return standing_in_test_of_time(award.kind, award.name, award.track) or AwardKind.TEST_OF_TIME


def _standing_rank(award: AwardRef) -> int:
    return kind_rank(_standing(award)) if _standing(award) is not AwardKind.TEST_OF_TIME else -1


def _test_of_time_text(entry: AwardEntry, strings: Strings, language: Language) -> str:
    standing = _standing(entry.award)
    if standing is not AwardKind.TEST_OF_TIME:
        label = strings.text(f"awards-tot-{standing.value}", language)
        # The label says it all: a "Test of Time" track would only repeat it.
        award = entry.award.model_copy(update={"track": None})
        entry = AwardEntry(award, entry.paper)
        text = _entry_text(entry, strings, language, with_venue=True)
        head, _, rest = text.partition("\n")
        return f"{head} · *{label}*" + (f"\n{rest}" if rest else "")
    return _entry_text(entry, strings, language, with_venue=True)


def _awards_count(count: int, strings: Strings, language: Language) -> str:
    # English says "1 award" but "2 awards"; Chinese needs no plural, so both keys read alike.
    key = "awards-count-one" if count == 1 else "awards-count"
    return strings.text(key, language, count=f"{count:,}")
