"""The /about and /help answers."""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.domain.models import Coverage, Language
from bot.render.embeds import Field, build_embed
from bot.render.i18n import Strings
from bot.render.stats import has_statistics
from bot.render.years import year_range


def about_embed(
    coverage: Sequence[Coverage], papers: int, strings: Strings, language: Language
) -> discord.Embed:
    fields: list[Field] = []
    if coverage:
        years = [c.year for c in coverage]
        award_years = [c.year for c in coverage if c.awards] or years
        venues = sorted({c.venue_name for c in coverage}, key=str.casefold)
        # "statistics for N editions": only those that have numbers, as /stats shows them.
        counted = [c for c in coverage if has_statistics(c)]
        value = strings.text(
            "about-coverage-value",
            language,
            venues=len({c.venue for c in counted}),
            editions=len(counted),
            years=year_range([c.year for c in counted] or years),
            papers=f"{papers:,}",
            awards=f"{sum(c.awards for c in coverage):,}",
            award_years=year_range(award_years),
        )
        fields.append(Field(strings.text("about-coverage", language), value))
        fields.append(Field(strings.text("about-venues", language), ", ".join(venues)))
    else:
        fields.append(
            Field(strings.text("about-coverage", language), strings.text("about-empty", language))
        )
    fields.append(
        Field(
            strings.text("about-sources", language), strings.text("about-sources-value", language)
        )
    )
    return build_embed(
        title=strings.text("about-title", language),
        description=strings.text("about-description", language),
        fields=fields,
    )


def help_embed(
    commands: Sequence[tuple[str, str]], strings: Strings, language: Language
) -> discord.Embed:
    """`commands` is (mention or /name, description) for every command, in display order."""
    lines = "\n".join(f"{name} — {description}" for name, description in commands)
    return build_embed(
        title=strings.text("help-title", language),
        description=lines,
        footer=strings.text("help-footer", language),
    )
