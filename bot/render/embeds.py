"""Embeds within Discord's limits, enforced here and nowhere else.

Discord rejects a whole message if one embed is a character too long, so every embed Laurel
sends is built by `build_embed`, which cuts each part to its limit and drops trailing fields
rather than let the message fail.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot.domain.text import truncate

TITLE = 256
DESCRIPTION = 4096
FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
TOTAL = 6000
COLOUR = discord.Colour(0xC9A227)  # laurel gold


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    value: str
    inline: bool = False


def build_embed(
    *,
    title: str,
    description: str | None = None,
    fields: Sequence[Field] = (),
    footer: str | None = None,
    url: str | None = None,
) -> discord.Embed:
    title = truncate(title, TITLE)
    description = truncate(description, DESCRIPTION) if description else None
    footer = truncate(footer, FOOTER) if footer else None
    budget = TOTAL - len(title) - len(description or "") - len(footer or "")
    embed = discord.Embed(title=title, description=description, url=url, colour=COLOUR)
    for field in fields[:FIELDS]:
        name = truncate(field.name, FIELD_NAME)
        value = truncate(field.value, FIELD_VALUE)
        budget -= len(name) + len(value)
        if budget < 0:
            break
        embed.add_field(name=name, value=value, inline=field.inline)
    if footer:
        embed.set_footer(text=footer)
    return embed
