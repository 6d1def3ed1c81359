"""The one helper that makes text from data inert in a Discord message.

discord.py's `escape_markdown` escapes one masked link per line (its pattern is greedy) and
leaves `<https://…>` alone, so a curator's abstract with two links could post a live, masked
phishing link. Here every bracket and angle bracket is escaped on its own, and discord.py
escapes the rest (emphasis, code, spoilers, headings, quotes, lists, backslashes) between them.
A masked link needs an unescaped `[`…`](`; none is left.
"""

from __future__ import annotations

import re
from functools import lru_cache

import discord

# Link syntax, escaped character by character; look-alikes (［］（）) are no syntax to Discord.
_LINK_SYNTAX = re.compile(r"([\[\]<>])")


# Names and titles recur from one answer to the next (a paper in many searches, an author in
# many papers): escaping is pure, so a short text is escaped once and kept, the least recently
# used forgotten first (a long one, an abstract, is escaped each time: keeping it would cost
# memory for little). It was a third of rendering a page of search results.
KEPT = 4_096
KEPT_UP_TO = 300  # characters: names, titles, award names


def esc(text: str) -> str:
    """`text` with markdown and link syntax escaped (mentions are off for every message)."""
    return _kept(text) if len(text) <= KEPT_UP_TO else _escape(text)


def _escape(text: str) -> str:
    return "".join(
        "\\" + part if _LINK_SYNTAX.fullmatch(part) else discord.utils.escape_markdown(part)
        for part in _LINK_SYNTAX.split(text)
        if part
    )


_kept = lru_cache(maxsize=KEPT)(_escape)
