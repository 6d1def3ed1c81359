"""Text laid out in terminal columns: wide (CJK) characters take two, combining marks none.

`wrap` breaks between words, and between any two wide characters, since Chinese has no spaces;
closing punctuation stays with the text before it and opening punctuation with the text after.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator

# A line may not start with closing punctuation, nor end with opening punctuation.
_CLOSING = set("，。、；：！？）」』】》〉…・,.;:!?)]}%")
_OPENING = set("（「『【《〈([{")


# -- display width -----------------------------------------------------------------------------
def char_width(char: str) -> int:
    if unicodedata.category(char) in ("Mn", "Me", "Cf", "Cc"):
        return 0  # combining marks, joiners, variation selectors, controls
    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


def text_width(text: str) -> int:
    return sum(char_width(c) for c in text)


def pad(text: str, width: int) -> str:
    return text + " " * max(0, width - text_width(text))


def _kind(char: str) -> str:
    if char == " ":
        return "space"
    return {0: "mark", 1: "narrow", 2: "wide"}[char_width(char)]


def _joins(prev: str, char: str) -> bool:
    """Whether `char` stays on the same line as the character before it."""
    kind, prev_kind = _kind(char), _kind(prev)
    return (
        kind == "mark"
        or char in _CLOSING
        or prev in _OPENING
        or kind == prev_kind != "wide"  # a word, or a run of spaces
        or (kind == "narrow" and prev_kind == "mark")
    )


def _atoms(line: str) -> Iterator[str]:
    """Unbreakable pieces: runs of spaces, words of narrow characters, and single wide
    characters, each with the zero-width marks after it; punctuation clings to its text."""
    piece = ""
    for char in line:
        if piece and not _joins(piece[-1], char):
            yield piece
            piece = ""
        piece += char
    if piece:
        yield piece


def _split(atom: str, width: int) -> Iterator[str]:
    """An atom wider than a line, cut at character boundaries."""
    part = ""
    for char in atom:
        if part and text_width(part + char) > width:
            yield part
            part = ""
        part += char
    if part:
        yield part


def wrap(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns; its own line breaks are kept."""
    width = max(1, width)
    lines: list[str] = []
    for paragraph in text.replace("\r\n", "\n").replace("\t", "    ").split("\n"):
        line = ""
        for atom in _atoms(paragraph):
            if text_width(line + atom) <= width:
                line += atom
                continue
            if atom.isspace():
                continue  # a break eats the spaces at it
            if line.strip():
                lines.append(line.rstrip())
            line = ""
            for part in _split(atom, width):
                if line:
                    lines.append(line)
                line = part
        lines.append(line.rstrip())
    return lines
