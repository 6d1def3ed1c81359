"""An award's track as the reader's language names it (issue 25, item 1).

Tracks that are kinds of paper or programme (Long Paper, Main Track, Demo, …) are ours to name,
as award kinds are; a track that is a venue's own category name (ICRA's "Robot Vision") has no
entry in the locale files and stays as published, as award names do.
"""

from __future__ import annotations

from bot.domain.models import Language
from bot.render.i18n import Strings


def track_name(track: str, strings: Strings, language: Language) -> str:
    """`track` in `language` where the locale files name it, else as the venue published it."""
    return strings.optional(f"track-{track.strip().lower()}", language) or track
