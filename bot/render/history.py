"""/curate history as a curator reads it (issue 25, item 12): each write once, the curators'
own first, row by row, with field names in the reader's language and values by name
("ICML 2025", not "edition_id: 171"); a load of bundled data or an import folded into one line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.domain.audit import AuditEntry, AuditGroup
from bot.domain.models import Language
from bot.render.embeds import build_embed
from bot.render.fields import HIDDEN, field_name, field_value
from bot.render.i18n import Strings
from bot.render.markdown import esc

FIELDS_SHOWN = 4
BUNDLED_ACTOR = "bundled data"


def changes(
    entry: AuditEntry, strings: Strings, language: Language, editions: Mapping[int, str]
) -> list[str]:
    """`name: before → after` for each field the row touched (what an addition gave)."""
    before, after = entry.before, entry.after or {}
    lines = []
    for key in entry.fields:
        if key in HIDDEN:
            continue
        new = field_value(key, after.get(key), strings, language, editions)
        if before is not None:
            old = field_value(key, before.get(key), strings, language, editions)
            new = f"{old} → {new}"
        name = field_name(key, strings, language)
        lines.append(strings.text("curate-history-field", language, name=name, value=new))
    return lines


def entity_name(
    entry: AuditEntry, strings: Strings, language: Language, editions: Mapping[int, str]
) -> str:
    """What a row touched, as a curator names it: an edition by its name (ICML 2024)."""
    if entry.entity == "edition" and entry.entity_id.isdigit():
        return esc(editions.get(int(entry.entity_id), f"#{entry.entity_id}"))
    return strings.text(f"curate-entity-{entry.entity}", language, id=entry.entity_id)


def _who(actor: str, strings: Strings, language: Language) -> str:
    if actor.startswith("discord:"):
        return f"<@{actor.removeprefix('discord:')}>"
    if actor == BUNDLED_ACTOR:
        return strings.text("curate-actor-bundled", language)
    return esc(actor)


def _when(at: str) -> str:
    return at.replace("T", " ").removesuffix("+00:00")[:16] + " UTC"


def row_lines(
    entry: AuditEntry, strings: Strings, language: Language, editions: Mapping[int, str]
) -> list[str]:
    action = strings.text(f"curate-action-{entry.action}", language)
    head = f"`#{entry.id}` · {_when(entry.at)} · {_who(entry.actor, strings, language)} · "
    head += f"{action} {entity_name(entry, strings, language, editions)}"
    return [head] + [f"  {c}" for c in changes(entry, strings, language, editions)[:FIELDS_SHOWN]]


def folded_line(group: AuditGroup, strings: Strings, language: Language) -> str:
    ids = f"`#{group.first}`" if group.count == 1 else f"`#{group.first}–#{group.last}`"
    summary = strings.text(
        "curate-history-folded",
        language,
        actor=_who(group.actor, strings, language),
        count=f"{group.count:,}",
        adds=f"{group.adds:,}",
        removes=f"{group.removes:,}",
    )
    return f"{ids} · {_when(group.at)} · {summary}"


def history_embed(
    groups: Sequence[AuditGroup],
    rows: Mapping[str, Sequence[AuditEntry]],
    editions: Mapping[int, str],
    strings: Strings,
    language: Language,
    *,
    title: str,
    page: int,
    pages: int,
) -> discord.Embed:
    """One page of writes: a curator's with its rows (`rows`, by batch), others folded."""
    lines: list[str] = []
    for group in groups:
        if not group.by_curator:
            lines.append(folded_line(group, strings, language))
            continue
        shown = rows.get(group.batch, ())
        for entry in shown:
            lines += row_lines(entry, strings, language, editions)
        if group.count > len(shown):
            more = group.count - len(shown)
            lines.append(strings.text("curate-history-more-rows", language, count=more))
    if lines:  # a mention renders in a description, never in a footer
        lines.append(strings.text("curate-history-undo-hint", language))
    return build_embed(
        title=title,
        description="\n".join(lines) or strings.text("curate-history-empty", language),
        footer=strings.text("curate-history-footer", language, page=page, pages=pages),
    )
