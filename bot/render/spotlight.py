"""The venue spotlight's post: one compact embed (issue 25, item 6).

An edition can have dozens of awards (ACL 2017: 22, each "Track: Long Paper"): the spotlight
shows the top awards first (best papers before honourable mentions), says how many more there
are, and points to the full list, `/awards edition`, by mention.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.domain.models import Language, Venue
from bot.render.awards import AwardEntry, entry_text, escape, kind_label, kind_rank
from bot.render.embeds import build_embed
from bot.render.i18n import Strings

SPOTLIGHT_SHOWN = 5


def spotlight_embed(
    venue: Venue, year: int, entries: Sequence[AwardEntry], strings: Strings, language: Language
) -> discord.Embed:
    ordered = sorted(entries, key=lambda e: kind_rank(e.award.kind))
    shown = ordered[:SPOTLIGHT_SHOWN]
    counts = {e.award.kind: sum(1 for o in ordered if o.award.kind == e.award.kind) for e in shown}
    blocks: list[str] = []
    heading = None
    for entry in shown:
        if entry.award.kind != heading:
            heading = entry.award.kind
            gap = "\n" if blocks else ""
            label = kind_label(heading, strings, language)
            blocks.append(f"{gap}__**{label}**__ ({counts[heading]:,})")
        blocks.append(entry_text(entry, strings, language))
    name = escape(venue.name)
    rest = len(ordered) - len(shown)
    key = "spotlight-more" if rest else "spotlight-all"
    blocks.append("\n" + strings.text(key, language, count=f"{rest:,}", venue=name, year=year))
    return build_embed(
        title=strings.text("awards-edition-title", language, venue=name, year=year),
        description="\n".join(blocks),
        footer=strings.text("spotlight-footer", language, total=f"{len(ordered):,}"),
        url=venue.url,
    )
