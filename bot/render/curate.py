"""The /curate answers: a preview before a write, what a write changed, an import's dry run,
and the audit history. Pure: models and records in, embeds and text out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import discord

from bot.domain.audit import AuditEntry
from bot.domain.models import Award, Language, Paper
from bot.domain.plan import Plan
from bot.render.alternatives import disagreements
from bot.render.areas import area_name
from bot.render.awards import kind_label
from bot.render.embeds import FIELD_VALUE, Field, build_embed
from bot.render.fields import HIDDEN, field_name, field_value, same
from bot.render.history import entity_name
from bot.render.i18n import Strings
from bot.render.markdown import esc
from bot.render.paper import (
    authors_text,
    has_link,
    links_text,
    main_link,
    search_text,
    sources_text,
)
from bot.render.plan import plan_lines, plan_summary
from bot.render.tracks import track_name

CHANGED_FIELDS_SHOWN = 10
PLAN_LINES_SHOWN = 25
ABSTRACT_SHOWN = 1000


def award_text(
    award: Award, strings: Strings, language: Language, venue_name: str | None = None
) -> str:
    """The award as it would be written: its name as given, its kind and track in the reader's
    language (kind names are ours, never the stored code)."""
    track = f" · {esc(track_name(award.track, strings, language))}" if award.track else ""
    venue = esc(venue_name) if venue_name else award.venue.upper()
    kind = kind_label(award.kind, strings, language)
    return f"{venue} {award.year} · {esc(award.name)} ({kind}){track}"


def paper_preview(
    paper: Paper,
    award: Award | None,
    strings: Strings,
    language: Language,
    *,
    heading: str,
    venue_name: str | None = None,
    flag_missing_link: bool = True,
) -> discord.Embed:
    """The paper as it would be written, for the curator to confirm; flagged when it has no
    link (readers would get only a title search), unless `flag_missing_link` is off."""
    fields = [Field(strings.text("paper-authors", language), _authors(paper, strings, language))]
    if paper.affiliations:
        names = "; ".join(esc(a) for a in paper.affiliations)
        fields.append(Field(strings.text("paper-affiliations", language), names))
    if award is not None:
        fields.append(
            Field(
                strings.text("paper-awards", language),
                award_text(award, strings, language, venue_name),
            )
        )
    ids = [
        f"arXiv:{paper.arxiv_id}" if paper.arxiv_id else "",
        f"DOI {paper.doi}" if paper.doi else "",
    ]
    if any(ids):
        fields.append(
            Field(strings.text("curate-identifiers", language), " · ".join(i for i in ids if i))
        )
    links = links_text(paper.links, strings, language)
    if links:
        fields.append(Field(strings.text("paper-links", language), links))
    elif flag_missing_link and not has_link(paper):
        fields.append(no_link_field(paper, strings, language))
    sources = (*paper.sources, *(award.sources if award else ()))
    if sources:
        fields.append(
            Field(strings.text("paper-sources", language), sources_text(sources, strings, language))
        )
    provenance = provenance_field(paper, strings, language)
    if provenance is not None:
        fields.append(provenance)
    # Where the sources disagree: curators' business, shown here and never to members.
    disagree = disagreements(paper, (), strings, language)
    if disagree:
        fields.append(Field(strings.text("paper-disagree", language), disagree))
    abstract = paper.abstract or strings.text("curate-no-abstract", language)
    return build_embed(
        title=esc(paper.title),
        url=main_link(paper.links),
        description=esc(abstract[:ABSTRACT_SHOWN])
        + ("…" if len(abstract) > ABSTRACT_SHOWN else ""),
        fields=fields,
        footer=heading,
    )


def provenance_field(paper: Paper, strings: Strings, language: Language) -> Field | None:
    """For curators: whose the research area is (the taxonomy's, our classification, or a
    curator's) and the page each summary was written from. Members see none of it."""
    lines = []
    if paper.area is not None:
        if paper.classified_by_us("area"):
            whose = "curate-area-ours"
        elif any("area" in s.covers for s in paper.sources):
            whose = "curate-area-taxonomy"
        else:
            whose = "curate-area-unsourced"
        area = area_name(strings, paper.area, language)  # as the paper card names it
        lines.append(strings.text(whose, language, area=esc(area)))
    for summary_language in paper.summaries:
        source = paper.summary_source(summary_language)
        lines.append(
            strings.text(
                "curate-summary-from", language, language=summary_language, page=source.url
            )
            if source is not None and source.url
            else strings.text("curate-summary-unsourced", language, language=summary_language)
        )
    if not lines:
        return None
    return Field(strings.text("curate-provenance", language), "\n".join(lines)[:FIELD_VALUE])


def no_link_field(paper: Paper, strings: Strings, language: Language) -> Field:
    """Readers of a paper with no link get a title search instead: worth fixing, so said."""
    search = search_text(paper, strings, language)
    return Field(
        strings.text("paper-links", language),
        strings.text("curate-no-link", language, search=search),
    )


def _authors(paper: Paper, strings: Strings, language: Language) -> str:
    if not paper.authors:
        return strings.text("curate-none", language)
    return authors_text(paper.authors, strings, language, incomplete=paper.authors_incomplete)


def changed_fields(
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
    strings: Strings,
    language: Language,
    editions: Mapping[int, str] | None = None,
) -> list[Field]:
    """One field per changed value: `before → after` (an addition shows what it gave), named
    and shown as the reader reads them (bot/render/fields.py)."""
    after = after or {}
    fields = []
    for key, new in after.items():
        old = None if before is None else before.get(key)
        if key in HIDDEN or (before is not None and same(old, new)):
            continue
        if before is None and new in (None, [], {}):
            continue
        shown_new = field_value(key, new, strings, language, editions)
        value = (
            shown_new
            if before is None
            else f"{field_value(key, old, strings, language, editions)} → {shown_new}"
        )
        fields.append(Field(field_name(key, strings, language), value[:FIELD_VALUE]))
    shown = fields[:CHANGED_FIELDS_SHOWN]
    if len(fields) > len(shown):
        rest = ", ".join(f.name for f in fields[len(shown) :])
        shown.append(Field("…", rest[:FIELD_VALUE]))
    return shown


def entry_embed(
    entry: AuditEntry,
    strings: Strings,
    language: Language,
    *,
    title: str,
    paper: Paper | None = None,
    editions: Mapping[int, str] | None = None,
) -> discord.Embed:
    """One audit row in full: who, when, what, and each field before → after; with the `paper`
    as edited, a flag when it is left without a link."""
    fields = changed_fields(entry.before, entry.after, strings, language, editions)
    if paper is not None and not has_link(paper):
        fields = [*fields, no_link_field(paper, strings, language)]
    provenance = provenance_field(paper, strings, language) if paper is not None else None
    if provenance is not None:
        fields = [*fields, provenance]
    line = entry_line(entry, strings, language, editions or {})
    return build_embed(title=title, description=line, fields=fields)


def entry_line(
    entry: AuditEntry, strings: Strings, language: Language, editions: Mapping[int, str]
) -> str:
    """`#12 · 2026-11-29 18:02 UTC · <@123> · change ICML 2024 (orals, sources)`: what was
    touched named as the history names it."""
    when = entry.at.replace("T", " ").removesuffix("+00:00")
    who = (
        f"<@{entry.actor.removeprefix('discord:')}>"
        if entry.actor.startswith("discord:")
        else esc(entry.actor)
    )
    action = strings.text(f"curate-action-{entry.action}", language)
    what = entity_name(entry, strings, language, editions)
    touched = ", ".join(
        field_name(f, strings, language) for f in entry.fields[:8] if f not in HIDDEN
    )
    return f"`#{entry.id}` · {when} UTC · {who} · {action} {what}" + (
        f" ({touched})" if touched else ""
    )


def plan_embed(plan: Plan, strings: Strings, language: Language, *, title: str) -> discord.Embed:
    """What a write did or would do: the tally, and a line per record (as `laurel import`)."""
    details = plan_lines(plan, strings, language)
    shown = details[:PLAN_LINES_SHOWN]
    if len(details) > len(shown):
        shown.append(strings.text("curate-more-lines", language, count=len(details) - len(shown)))
    body = "\n".join(line[:150] for line in shown)
    summary = plan_summary(plan, strings, language)
    description = (
        f"{esc(summary)}\n```\n{body.replace('```', 'ˋˋˋ')}\n```" if shown else esc(summary)
    )
    return build_embed(title=title, description=description)
