"""The one helper that makes text from data inert in a Discord message.

discord.py's `escape_markdown` escapes one masked link per line (its pattern is greedy) and
leaves `<https://…>` alone, so a curator's abstract with two links could post a live, masked
phishing link. Here every bracket and angle bracket is escaped on its own, and discord.py
escapes the rest (emphasis, code, spoilers, headings, quotes, lists, backslashes) between them.
A masked link needs an unescaped `[`…`](`; none is left.
"""

from __future__ import annotations

import re

import discord

# Link syntax, escaped character by character; look-alikes (［］（）) are no syntax to Discord.
_LINK_SYNTAX = re.compile(r"([\[\]<>])")


def esc(text: str) -> str:
    """`text` with markdown and link syntax escaped (mentions are off for every message)."""
    return "".join(
        "\\" + part if _LINK_SYNTAX.fullmatch(part) else discord.utils.escape_markdown(part)
        for part in _LINK_SYNTAX.split(text)
        if part
    )
