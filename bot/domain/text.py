"""Cleaning of every text that enters the catalogue.

Text comes from people typing in Discord, from foreign files and from the arXiv API. Before
it is stored it loses control characters, zero-width characters and bidi overrides (which can
make a title render as something else), has its white space folded, and is bounded in length.
"""

from __future__ import annotations

import re
import unicodedata

# Bidi embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069), the marks
# U+200E/U+200F/U+061C, zero-width space/joiners (U+200B–U+200D), word joiner and friends
# (U+2060–U+2064), the BOM (U+FEFF) and soft hyphen: all invisible, all able to disguise text.
_INVISIBLE = re.compile(
    "[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200f\u202a-\u202e"
    "\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8]"
)
_SPACES = re.compile(r"\s+")


def _is_control(ch: str) -> bool:
    # Cc: C0/C1 controls; Cf: format characters (invisible: those _INVISIBLE does not name, such
    # as tag characters); Cs: lone surrogates (cannot be encoded); Co/Cn: private use, unassigned.
    return unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co", "Cn"}


def visible(text: str) -> str:
    """`text` as a person sees it: without invisible, format and control characters (a
    zero-width space inside a word, a right-to-left override), white space folded, NFC.
    What someone typed into a search is read (and echoed back) this way."""
    return unicodedata.normalize("NFC", _fold(_INVISIBLE.sub("", text)))


def clean_text(value: str, *, max_length: int, multiline: bool = False) -> str:
    """Return `value` normalised (NFC), without invisible or control characters, trimmed.

    Single-line text has all white space folded to one space. Multi-line text keeps paragraph
    breaks (one blank line at most) and folds the rest. Text longer than `max_length` is cut at
    a word boundary where one is near, and marked with an ellipsis.
    """
    text = _INVISIBLE.sub("", value)
    if multiline:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
        cleaned = [_fold(p) for p in re.split(r"\n\s*\n", text)]
        text = "\n\n".join(p for p in cleaned if p)
    else:
        text = _fold(text)
    # Normalised last: removing a character can join its neighbours (e, ZWSP, U+0301 → é).
    return truncate(unicodedata.normalize("NFC", text), max_length)


_LINE_BREAKS = str.maketrans("\t\n\x0b\x0c\r", "     ")


def _fold(text: str) -> str:
    text = text.translate(_LINE_BREAKS)
    # Most text is printable, and isprintable() (in C) says so without a Python loop per char.
    if not text.isprintable():
        text = "".join(ch for ch in text if not _is_control(ch))
    return _SPACES.sub(" ", text).strip()


def truncate(text: str, max_length: int) -> str:
    """Cut `text` to at most `max_length` characters, at a space if one is in the last fifth."""
    if len(text) <= max_length:
        return text
    if max_length < 1:  # not even the ellipsis fits: text[:-1] would cut from the other end
        raise ValueError(f"max_length must be at least 1 to cut {text[:20]!r}…, not {max_length}")
    cut = text[: max_length - 1]
    space = cut.rfind(" ")
    if space >= max_length * 4 // 5:
        cut = cut[:space]
    return cut.rstrip() + "…"


def title_key(title: str) -> str:
    """The identity of a title: case, accents, punctuation and spacing do not count.

    "Train for the Worst, Plan for the Best" and "train for the worst plan for the best!"
    have the same key. CJK characters are kept as they are.
    """
    text = unicodedata.normalize("NFKD", title)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.casefold()
    words = re.findall(r"[^\W_]+", text)  # \w less the underscore, which is punctuation
    return " ".join(words)
