"""The /stats leaderboards: institutions by fractional credit, and the most-awarded authors.

Pure: a leaderboard in, an embed out. Names came from data, so they are escaped for markdown
and cut to a line's length; entries that tie share a rank (1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import discord

from bot.domain.institutions import InstitutionAliases
from bot.domain.leaderboards import AuthorAwards, InstitutionCredit, Leaderboard
from bot.domain.models import Language
from bot.domain.text import truncate
from bot.render.embeds import build_embed
from bot.render.i18n import Strings
from bot.render.markdown import esc

NAME = 80  # characters of a name shown on one line
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Scope:
    """What a leaderboard counts: one venue's name or every venue, and a span of years."""

    venue: str | None = None
    first: int | None = None
    last: int | None = None


def ranks(entries: Sequence[T], score: Callable[[T], object]) -> list[int]:
    """Competition ranks: an entry scoring as the one before it shares its rank."""
    found: list[int] = []
    for position, entry in enumerate(entries, start=1):
        if found and score(entry) == score(entries[position - 2]):
            found.append(found[-1])
        else:
            found.append(position)
    return found


def format_credit(credit: float) -> str:
    return f"{credit:,.2f}"


def scope_text(scope: Scope, strings: Strings, language: Language) -> str:
    """ "NeurIPS, 2020–2025" / "every venue, since 2020" / "every venue, every year"."""
    venue = esc(scope.venue) if scope.venue else strings.text("leaders-every-venue", language)
    first, last = scope.first, scope.last
    if first is not None and last is not None:
        years = str(first) if first == last else f"{first}–{last}"
    elif first is not None:
        years = strings.text("leaders-since", language, year=first)
    elif last is not None:
        years = strings.text("leaders-until", language, year=last)
    else:
        years = strings.text("leaders-every-year", language)
    return strings.text("leaders-scope", language, venue=venue, years=years)


def institutions_embed(
    board: Leaderboard[InstitutionCredit],
    scope: Scope,
    strings: Strings,
    language: Language,
    institutions: InstitutionAliases,
) -> discord.Embed:
    """Rank, institution (in the reader's language where the table has it), credit to two
    decimals (ties judged as shown) and papers counted."""
    entries = board.entries
    places = ranks(entries, lambda e: format_credit(e.credit))
    lines = [
        strings.text(
            "leaders-institution-line",
            language,
            rank=rank,
            name=_name(institutions.display(entry.name, language)),
            credit=format_credit(entry.credit),
            papers=f"{entry.papers:,}",
        )
        for rank, entry in zip(places, entries, strict=True)
    ]
    return _board_embed("institutions", lines, board, scope, strings, language)


def authors_embed(
    board: Leaderboard[AuthorAwards], scope: Scope, strings: Strings, language: Language
) -> discord.Embed:
    """Rank, author, awarded papers and awards; authors with as many papers share a rank."""
    entries = board.entries
    places = ranks(entries, lambda e: e.papers)
    lines = [
        strings.text(
            "leaders-author-line",
            language,
            rank=rank,
            name=_name(entry.name),
            papers=f"{entry.papers:,}",
            awards=f"{entry.awards:,}",
        )
        for rank, entry in zip(places, entries, strict=True)
    ]
    return _board_embed("authors", lines, board, scope, strings, language)


def _board_embed(
    board_name: str,
    lines: list[str],
    board: Leaderboard[Any],
    scope: Scope,
    strings: Strings,
    language: Language,
) -> discord.Embed:
    """The frame both leaderboards share: scope in the title, totals in the footer."""
    return build_embed(
        title=strings.text(
            f"leaders-{board_name}-title",
            language,
            scope=scope_text(scope, strings, language),
            covered=f"{board.papers:,}",
            total=f"{board.in_scope if board.in_scope is not None else board.papers:,}",
        ),
        description="\n".join(lines),
        footer=strings.text(
            f"leaders-{board_name}-footer",
            language,
            shown=len(board.entries),
            ranked=f"{board.ranked:,}",
            papers=f"{board.papers:,}",
        ),
    )


def _name(name: str) -> str:
    return esc(truncate(name, NAME))
