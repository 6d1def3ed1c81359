"""The /paper answers: a paper in detail, its abstract, and numbered lists of papers.

Every text that came from the catalogue is escaped for markdown here; the embed limits are
build_embed's business.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from urllib.parse import urlencode, urlsplit

import discord

from bot.domain.areas import OUR_CLASSIFICATION
from bot.domain.han_script import foreign_to
from bot.domain.models import AwardRef, Language, Links, Paper, Source, StoredPaper
from bot.domain.provenance import best_source, host, link_kind
from bot.domain.reader_sources import ReaderSource, for_readers
from bot.render.alternatives import disagreements, source_title
from bot.render.areas import area_name
from bot.render.bylines import byline
from bot.render.embeds import DESCRIPTION, Field, build_embed
from bot.render.i18n import Strings
from bot.render.markdown import esc
from bot.render.tracks import award_name, track_name

AUTHORS_SHOWN = 8  # more than this, and the rest become "and N more"
LIST_AUTHORS_SHOWN = 3
SOURCES_SHOWN = 5
SUMMARY_FROM_ABSTRACT = 700  # an abstract standing in for a summary is cut to about this
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
# The link slots in the order shown; each is labelled by what its address is (`link_kind`).
_LINK_SLOTS = ("arxiv", "pdf", "openreview", "project", "code")


def link(label: str, url: str) -> str:
    """A markdown link whose URL cannot close the link early."""
    return f"[{label}]({url.replace('(', '%28').replace(')', '%29')})"


def paper_embed(
    stored: StoredPaper, strings: Strings, language: Language, *, heading: str | None = None
) -> discord.Embed:
    """A paper in detail. `heading` (e.g. "Paper of the day · 2026-11-29") goes in the footer."""
    paper = stored.paper
    fields: list[Field] = []
    fields.append(
        Field(
            strings.text("paper-authors", language),
            authors_text(paper.authors, strings, language, incomplete=paper.authors_incomplete),
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
                "\n".join(_dated(a, paper, strings, language) for a in stored.awards),
            )
        )
    if paper.area is not None:
        fields.append(
            Field(strings.text("paper-area", language), area_name(strings, paper.area, language))
        )
    if paper.aliases:  # the names people know it by (AlexNet), which its title never says
        fields.append(
            Field(strings.text("paper-aliases", language), "; ".join(esc(a) for a in paper.aliases))
        )
    fields.append(
        Field(strings.text("paper-links", language), paper_links(paper, strings, language))
    )
    # One link to the best source; every source, our own reading of the area, and where the
    # sources disagree are for curators.
    source = best_source(
        [s for a in stored.awards for s in a.sources]
        + [s for s in paper.sources if s.document != OUR_CLASSIFICATION]
    )
    if source is not None and source.url:
        fields.append(Field(strings.text("paper-source", language), source_link(source.url)))
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
    then: tuple[str, Sequence[StoredPaper]] | None = None,
) -> discord.Embed:
    """Papers as a numbered list (the numbers match the buttons that open them); `then`, a
    heading and more papers after it, numbered on (a search's papers close to its query)."""
    entries = [list_entry(n, p, strings, language) for n, p in enumerate(papers, first_number)]
    if then is not None and then[1]:
        heading, more = then
        after = [
            list_entry(n, p, strings, language)
            for n, p in enumerate(more, first_number + len(papers))
        ]
        after[0] = f"__{esc(heading)}__\n\n{after[0]}"  # the heading never shows alone
        entries += after
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
    details = [
        authors_text(
            paper.authors,
            strings,
            language,
            shown=LIST_AUTHORS_SHOWN,
            incomplete=paper.authors_incomplete,
        )
    ]
    details += [award_line(a, strings, language) for a in stored.awards[:2]]
    if not has_link(paper):
        details.append(search_text(paper, strings, language))
    return f"**{number}.** {title}\n" + " · ".join(d for d in details if d)


def authors_text(
    authors: Sequence[str],
    strings: Strings,
    language: Language,
    *,
    shown: int = AUTHORS_SHOWN,
    incomplete: bool = False,
) -> str:
    """A paper's byline: the one rule of bot/render/bylines.py; an unknown byline says so
    rather than naming nobody (issue 24)."""
    if not authors:
        return strings.text("paper-authors-unknown", language)
    return byline(authors, strings, language, shown=shown, incomplete=incomplete, escape=esc)


def award_line(award: AwardRef, strings: Strings, language: Language) -> str:
    """`ICML 2025 · 傑出論文 · 立場論文`: the award's name, and its track, in the reader's
    language where they are ours to name (a venue's own name, "Marr Prize", stays)."""
    parts = [
        f"{esc(award.venue_name)} {award.year}",
        esc(award_name(award.name, award.kind, strings, language)),
    ]
    if award.track:
        parts.append(esc(track_name(award.track, strings, language)))
    return " · ".join(parts)


def _dated(award: AwardRef, paper: Paper, strings: Strings, language: Language) -> str:
    """An award's line, with the paper's own year where it differs (a test-of-time award's
    paper, from years before)."""
    line = award_line(award, strings, language)
    if paper.year is None or paper.year == award.year:
        return line
    return f"{line} · {strings.text('awards-paper-year', language, year=paper.year)}"


def has_link(paper: Paper) -> bool:
    """Whether the catalogue holds a way to the paper itself: an arXiv id, a DOI or a link to it
    (a code repository alone is not one)."""
    return paper.doi is not None or paper.arxiv is not None or paper.links.to_paper()


def search_url(title: str) -> str:
    """arXiv's title search for `title`: a search, not the paper, so labelled as one where shown."""
    return "https://arxiv.org/search/?" + urlencode({"query": title, "searchtype": "title"})


def search_text(paper: Paper, strings: Strings, language: Language) -> str:
    return link(strings.text("paper-link-search", language), search_url(paper.title))


def paper_links(paper: Paper, strings: Strings, language: Language) -> str:
    """The paper's links and DOI; with none, a labelled arXiv title search to find it."""
    shown = links_text(paper.links, strings, language)
    if paper.arxiv is not None and paper.links.arxiv is None:  # an id with no link stored
        page = link(
            strings.text("paper-link-arxiv", language), f"https://arxiv.org/abs/{paper.arxiv}"
        )
        shown = f"{page} · {shown}" if shown else page
    if paper.doi is not None:
        doi = link("DOI", f"https://doi.org/{paper.doi}")
        shown = f"{shown} · {doi}" if shown else doi
    if has_link(paper):
        return shown
    search = strings.text("paper-no-link", language, search=search_text(paper, strings, language))
    return f"{shown} · {search}" if shown else search  # a code repository is not the paper


def links_text(links: Links, strings: Strings, language: Language) -> str:
    """The links, each labelled by what it is: an ACL Anthology page in the `project` slot is
    the proceedings, a video is a video (issue 24)."""
    return " · ".join(
        link(strings.text(f"paper-link-{link_kind(name, url)}", language), url)
        for name in _LINK_SLOTS
        if (url := getattr(links, name)) is not None
    )


def sources_embed(stored: StoredPaper, strings: Strings, language: Language) -> discord.Embed:
    """The "Sources" button's answer, written for a reader in the reader's language: what each
    source is and where to read it (never a refused site, never the catalogue's notes, files
    or commits), the datasets by name, and what other sources give, without the reasons."""
    every = [*(s for a in stored.awards for s in a.sources), *stored.paper.sources]
    fields = []
    others = disagreements(stored.paper, stored.awards, strings, language, reasons=False)
    if others:
        fields.append(Field(strings.text("paper-sources-other", language), others))
    return build_embed(
        title=strings.text("paper-sources-title", language),
        description=reader_sources_text(for_readers(every), strings, language) or None,
        fields=fields,
        footer=esc(stored.paper.title),
    )


def source_link(url: str) -> str:
    """A source as a member reads it: its site's name, linked."""
    return link(esc(host(url) or url), url)


def main_link(links: Links) -> str | None:
    return links.arxiv or links.project or links.openreview or links.pdf  # code: not the paper


def reader_sources_text(
    sources: Sequence[ReaderSource], strings: Strings, language: Language
) -> str:
    pages = [s for s in sources if s.kind != "dataset"]
    datasets = [s.label for s in sources if s.kind == "dataset"]
    lines = [_reader_line(s, strings, language) for s in pages[:SOURCES_SHOWN]]
    if len(pages) > SOURCES_SHOWN:
        lines.append(strings.text("paper-more-sources", language, count=len(pages) - SOURCES_SHOWN))
    if datasets:
        names = strings.text("byline-separator", language).join(esc(d) for d in datasets)
        lines.append("• " + strings.text("paper-source-datasets", language, names=names))
    return "\n".join(lines)


def _reader_line(source: ReaderSource, strings: Strings, language: Language) -> str:
    """What the source is, then its title as published (with its script when not the
    reader's: issue 25) or its site's name, linked."""
    shown = esc(source.label) if source.url is None else link(esc(source.label), source.url)
    if foreign_to(source.label, language):
        shown = strings.text("paper-source-title-script", language, title=shown)
    kind = strings.text(f"paper-source-kind-{source.kind}", language)
    return "• " + strings.text("paper-source-line", language, kind=kind, source=shown)


def sources_text(sources: Sequence[Source], strings: Strings, language: Language) -> str:
    lines = [_source_line(s, strings, language) for s in sources[:SOURCES_SHOWN]]
    if len(sources) > SOURCES_SHOWN:
        lines.append(
            strings.text("paper-more-sources", language, count=len(sources) - SOURCES_SHOWN)
        )
    return "\n".join(lines)


def _source_line(source: Source, strings: Strings, language: Language) -> str:
    """A source by its title (as published, with its script when not the reader's: issue 25),
    linked; with no title, its site's name."""
    if source.url is None:
        return f"• {source_title(source.document or '', strings, language)}"
    if not source.document:
        return f"• {link(urlsplit(source.url).hostname or 'link', source.url)}"
    linked = link(esc(source.document), source.url)
    if foreign_to(source.document, language):
        linked = strings.text("paper-source-title-script", language, title=linked)
    return f"• {linked}"


def summary_text(paper: Paper, strings: Strings, language: Language) -> str | None:
    """Our summary in the reader's language (or the nearest), else the abstract's opening,
    labelled as the abstract; with neither, nothing (never a placeholder)."""
    summary = paper.summary(language)
    if summary:
        return esc(summary)
    if paper.abstract:
        opening = sentences_within(paper.abstract, SUMMARY_FROM_ABSTRACT)
        return strings.text("paper-summary-from-abstract", language, text=esc(opening))
    return None


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
