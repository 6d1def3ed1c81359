"""Where sources disagree about a paper or its awards, in a few short lines for /paper show.

/stats edition lists every figure another source reports; a paper's disagreements are text
(a title spelling, an award's name, a year), so each line is cut short, says which source and
why, and only the first few are shown. Pure: models in, text out; data escaped here.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from urllib.parse import urlsplit

from bot.domain.han_script import foreign_to
from bot.domain.models import Alternative, AwardRef, Language, Paper, Source
from bot.domain.reader_sources import for_reader
from bot.domain.text import truncate
from bot.render.i18n import Strings
from bot.render.markdown import esc

SHOWN = 3  # lines; the rest become "… and N more"
VALUE_CHARS = 80
SOURCE_CHARS = 40
REASON_CHARS = 100
# Fields with a label of their own; any other shows under its stored name.
_LABELLED = frozenset(
    {
        "title",
        "authors",
        "year",
        "abstract",
        "doi",
        "arxiv",
        "name",
        "kind",
        "track",
        "affiliations",
    }
)


def disagreements(
    paper: Paper,
    awards: Sequence[AwardRef],
    strings: Strings,
    language: Language,
    *,
    reasons: bool = True,
) -> str | None:
    """Each alternative value of the paper and of its awards, with its source and (for
    curators) the catalogue's reason; a reader's "Sources" answer leaves the reason out."""
    # A reader is told of the facts they read (title, authors, a figure), not of the record's
    # other fields (links.project, ids): those, like the reasons, are for curators.

    def shown_to(alternative: Alternative) -> bool:
        return reasons or alternative.field in _LABELLED

    lines = [_line(a, None, strings, language, reasons) for a in paper.alternatives if shown_to(a)]
    for award in awards:
        where = f"{award.venue_name} {award.year}"
        lines += [
            _line(a, where, strings, language, reasons) for a in award.alternatives if shown_to(a)
        ]
    if not lines:
        return None
    shown = lines[:SHOWN]
    if len(lines) > SHOWN:
        shown.append(strings.text("paper-more-disagreements", language, count=len(lines) - SHOWN))
    return "\n".join(shown)


def _line(
    alternative: Alternative,
    award: str | None,
    strings: Strings,
    language: Language,
    reasons: bool = True,
) -> str:
    field = alternative.field
    label = (
        strings.text(f"paper-field-{field}", language)
        if field in _LABELLED
        else _esc(field.replace("_", " "))
    )
    if award is not None:
        label = strings.text("paper-disagree-award", language, award=_esc(award), field=label)
    source = alternative.source
    if reasons:  # a curator reads the catalogue's own note of the source
        name = source.document or urlsplit(source.url or "").hostname or ""
        named = source_title(truncate(name, SOURCE_CHARS), strings, language, within=True)
    else:
        named = _reader_name(source, strings, language)
    return "• " + strings.text(
        "paper-disagree-line" if reasons else "paper-sources-other-line",
        language,
        field=label,
        value=_esc(truncate(_value(alternative.value), VALUE_CHARS)),
        source=named,
        reason=_esc(truncate(alternative.reason, REASON_CHARS)),
    )


def _reader_name(source: Source, strings: Strings, language: Language) -> str:
    """A disagreeing source as a reader is told of it: its published title or site, or
    "another source" where the catalogue has only its own note of it."""
    shown = for_reader(source)
    if shown is None:
        return strings.text("paper-source-another", language)
    return source_title(truncate(shown.label, SOURCE_CHARS), strings, language, within=True)


def source_title(title: str, strings: Strings, language: Language, *, within: bool = False) -> str:
    """A source's title as published (a name: never translated), escaped, and followed by its
    script when it is not the reader's: "(in Chinese)" for an English reader, 繁体中文 for a
    zh-CN reader, 簡體中文 for a zh-TW reader (issue 25). `within` parentheses, the tag is
    set off by a comma instead of its own parentheses."""
    if not foreign_to(title, language):
        return _esc(title)
    key = "paper-source-title-script-within" if within else "paper-source-title-script"
    return strings.text(key, language, title=_esc(title))


def _value(value: object) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if isinstance(value, dt.date):
        return value.isoformat()
    return str(value)


def _esc(text: str) -> str:
    return esc(text)
