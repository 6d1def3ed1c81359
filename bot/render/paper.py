"""The /paper answers: a paper in detail, its abstract, and numbered lists of papers.

Every text that came from the catalogue is escaped for markdown here; the embed limits are
build_embed's business.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlsplit

import discord

from bot.domain.models import AwardRef, Language, Links, Paper, Source, StoredPaper
from bot.render.embeds import DESCRIPTION, Field, build_embed
from bot.render.i18n import Strings
from bot.render.markdown import esc

AUTHORS_SHOWN = 8  # more than this, and the rest become "and N more"
LIST_AUTHORS_SHOWN = 3
SOURCES_SHOWN = 5
SUMMARY_FROM_ABSTRACT = 700  # an abstract standing in for a summary is cut to about this
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
# Link labels in the order shown; the words are the same in every language but two.
_LINK_KEYS: tuple[tuple[str, str], ...] = (
    ("arxiv", "paper-link-arxiv"),
    ("pdf", "paper-link-pdf"),
    ("openreview", "paper-link-openreview"),
    ("project", "paper-link-project"),
    ("code", "paper-link-code"),
)


def link(label: str, url: str) -> str:
    """A markdown link whose URL cannot close the link early."""
    return f"[{label}]({url.replace('(', '%28').replace(')', '%29')})"


def paper_embed(
    stored: StoredPaper, strings: Strings, language: Language, *, heading: str | None = None
) -> discord.Embed:
    """A paper in detail. `heading` (e.g. "Paper of the day · 2026-11-29") goes in the footer."""
    paper = stored.paper
    fields: list[Field] = []
    if paper.authors:
        fields.append(
            Field(
                strings.text("paper-authors", language),
                authors_text(paper.authors, strings, language),
            )
        )
    if paper.affiliations:
        fields.append(
            Field(
                strings.text("paper-affiliations", language),
                "; ".join(esc(a) for a in paper.affiliations),
            )
        )
    if stored.awards:
        fields.append(
            Field(
                strings.text("paper-awards", language),
                "\n".join(award_line(a) for a in stored.awards),
            )
        )
    links = links_text(paper.links, strings, language)
    if links:
        fields.append(Field(strings.text("paper-links", language), links))
    if paper.sources:
        fields.append(
            Field(
                strings.text("paper-sources", language),
                sources_text(paper.sources, strings, language),
            )
        )
    reference = strings.text("paper-reference", language, id=stored.id)
    return build_embed(
        title=esc(paper.title),
        url=main_link(paper.links),
        description=summary_text(paper, strings, language),
        fields=fields,
        footer=f"{heading} · {reference}" if heading else reference,
    )


def abstract_embed(stored: StoredPaper, strings: Strings, language: Language) -> discord.Embed:
    abstract = stored.paper.abstract
    return build_embed(
        title=esc(stored.paper.title),
        url=main_link(stored.paper.links),
        description=esc(abstract) if abstract else strings.text("paper-no-abstract", language),
        footer=strings.text("paper-abstract-footer", language),
    )


def list_embed(
    title: str,
    papers: Sequence[StoredPaper],
    strings: Strings,
    language: Language,
    *,
    first_number: int = 1,
    footer: str | None = None,
) -> discord.Embed:
    """Papers as a numbered list (the numbers match the buttons that open them)."""
    entries = [list_entry(n, p, strings, language) for n, p in enumerate(papers, first_number)]
    # Each entry is whole or absent: cutting one in the middle could break a markdown link.
    description, used = [], 0
    for entry in entries:
        used += len(entry) + 2
        if used > DESCRIPTION:
            break
        description.append(entry)
    return build_embed(title=title, description="\n\n".join(description), footer=footer)


def list_entry(number: int, stored: StoredPaper, strings: Strings, language: Language) -> str:
    paper = stored.paper
    url = main_link(paper.links)
    title = link(esc(paper.title), url) if url else f"**{esc(paper.title)}**"
    details = [authors_text(paper.authors, strings, language, shown=LIST_AUTHORS_SHOWN)]
    details += [award_line(a) for a in stored.awards[:2]]
    return f"**{number}.** {title}\n" + " · ".join(d for d in details if d)


def authors_text(
    authors: Sequence[str], strings: Strings, language: Language, *, shown: int = AUTHORS_SHOWN
) -> str:
    """All authors when they are few; else the first ones and "and N more"."""
    if len(authors) <= shown:
        return ", ".join(esc(a) for a in authors)
    named = ", ".join(esc(a) for a in authors[:shown])
    return strings.text("paper-more-authors", language, authors=named, count=len(authors) - shown)


def award_line(award: AwardRef) -> str:
    parts = [f"{esc(award.venue_name)} {award.year}", esc(award.name)]
    if award.track:
        parts.append(esc(award.track))
    return " · ".join(parts)


def links_text(links: Links, strings: Strings, language: Language) -> str:
    return " · ".join(
        link(strings.text(key, language), url)
        for name, key in _LINK_KEYS
        if (url := getattr(links, name)) is not None
    )


def main_link(links: Links) -> str | None:
    return links.arxiv or links.project or links.openreview or links.pdf or links.code


def sources_text(sources: Sequence[Source], strings: Strings, language: Language) -> str:
    lines = [_source_line(s) for s in sources[:SOURCES_SHOWN]]
    if len(sources) > SOURCES_SHOWN:
        lines.append(
            strings.text("paper-more-sources", language, count=len(sources) - SOURCES_SHOWN)
        )
    return "\n".join(lines)


def _source_line(source: Source) -> str:
    if source.url is None:
        return f"• {esc(source.document or '')}"
    label = esc(source.document) if source.document else urlsplit(source.url).hostname or "link"
    return f"• {link(label, source.url)}"


def summary_text(paper: Paper, strings: Strings, language: Language) -> str:
    """Our summary in the reader's language (or the nearest), else the abstract's opening."""
    summary = paper.summary(language)
    if summary:
        return esc(summary)
    if paper.abstract:
        opening = sentences_within(paper.abstract, SUMMARY_FROM_ABSTRACT)
        return strings.text("paper-summary-from-abstract", language, text=esc(opening))
    return strings.text("paper-no-summary", language)


def sentences_within(text: str, limit: int) -> str:
    """The whole sentences of `text` that fit in `limit` characters (at least the first one,
    cut with an ellipsis if it alone is too long)."""
    if len(text) <= limit:
        return text
    kept = ""
    for sentence in _SENTENCE_END.split(text):
        candidate = f"{kept} {sentence}".strip() if kept else sentence
        if len(candidate) > limit:
            break
        kept = candidate
    return kept or text[: limit - 1].rstrip() + "…"
