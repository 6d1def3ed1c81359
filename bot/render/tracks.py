"""An award's track and name as the reader's language names them (issue 25, item 1).

Tracks that are kinds of paper or programme (Long Paper, Main Track, Demo, …) are ours to name,
as award kinds are; a track that is a venue's own category name (ICRA's "Robot Vision") has no
entry in the locale files and stays as published, as award names do.
"""

from __future__ import annotations

import re

from bot.domain.models import AwardKind, Language
from bot.render.i18n import Strings


def track_name(track: str, strings: Strings, language: Language) -> str:
    """`track` in `language` where the locale files name it, else as the venue published it."""
    return strings.optional(f"track-{track.strip().lower()}", language) or track


_WORDS = re.compile(r"[a-z]+")
_FILLER = frozenset({"award", "paper", "prize"})


def award_name(name: str, kind: AwardKind, strings: Strings, language: Language) -> str:
    """`name` for a reader of `language`. A name that only says its kind ("Outstanding Paper",
    "Best Paper Award", "Test of Time") is the kind in the reader's language; a name that says
    more (ICCV's "Marr Prize", ICRA's "Best Robot Vision Paper") stays as the venue published
    it, followed by its kind in the reader's language unless the kind is "other"."""
    if language == "en":
        return name
    label = strings.text(f"awards-kind-{kind.value}", language)
    english = strings.text(f"awards-kind-{kind.value}", "en")
    if _words(name) == _words(english):
        return label
    if kind is AwardKind.OTHER:
        return name
    return strings.text("awards-name-and-kind", language, name=name, kind=label)


def _words(text: str) -> list[str]:
    return [w for w in _WORDS.findall(text.lower()) if w not in _FILLER]
