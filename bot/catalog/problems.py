"""Why a record was not valid, as data a reader's language can say (issue 22).

pydantic says what is wrong with a record in English ("year: Input should be a valid integer").
The command line prints that; Discord shows each problem in the reader's language. So a
ValidationError becomes `Problem`s: the field, the kind of problem (pydantic's error type, such
as `int_parsing`, or for our own validators a name for each of their messages), and the numbers
or values the message needs (`ge`, `expected`, the id that is not an arXiv id).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pydantic import ValidationError

from bot.domain.identifiers import IdentifierError
from bot.domain.models import Problem

Location = tuple[int | str, ...]
# The messages of our own validators (bot/domain/models.py), each named for the locale files.
_OURS = {
    "must not be empty": "empty",
    "a link may be at most 2,048 characters": "link-too-long",
    "a link may not contain spaces or control characters": "link-spaces",
    "only http and https links are allowed": "link-scheme",
    "a link needs a host name": "link-host",
    "a link may not carry a user name or password": "link-password",
    "a venue key is 1–32 lower-case letters, digits or dashes": "venue-key",
    "a source needs a url or a document": "source-empty",
    "end_date is before start_date": "dates-order",
    "accepted is larger than submissions": "accepted-over",
}
_WITH_VALUES = (
    (re.compile(r"^'(?P<value>.*)' is not an arXiv id"), "arxiv-id"),
    (re.compile(r"^'(?P<value>.*)' is not a DOI"), "doi"),
    (re.compile(r"^start_date (?P<date>\S+) is not in (?P<year>\d+)$"), "start-year"),
)
_PARAMS = ("ge", "gt", "le", "lt", "max_length", "min_length", "expected")


def dotted(loc: Location) -> str:
    """A model path as a TOML document names it: `paper.links.code`."""
    return ".".join(str(part) for part in loc) or "record"


def problems_of(
    error: ValidationError, field: Callable[[Location], str] = dotted
) -> tuple[Problem, ...]:
    """Each problem of `error`, its field named by `field(loc)`."""
    found = []
    for item in error.errors(include_url=False):
        message = item["msg"].removeprefix("Value error, ")
        kind, params = str(item["type"]), _params(item.get("ctx") or {})
        if kind == "value_error":
            kind, params = _ours(message, (item.get("ctx") or {}).get("error"))
        found.append(Problem(field=field(item["loc"]), kind=kind, message=message, params=params))
    return tuple(found)


def in_english(problems: tuple[Problem, ...]) -> str:
    """The problems in English, one line: `year: Input should be a valid integer; …`."""
    return "; ".join(f"{p.field}: {p.message}" for p in problems)


def _params(ctx: dict[str, object]) -> dict[str, str | int]:
    return {
        name: value if isinstance(value, int) else str(value)[:200]
        for name, value in ctx.items()
        if name in _PARAMS and isinstance(value, int | float | str)
    }


def _ours(message: str, error: object) -> tuple[str, dict[str, str | int]]:
    if message in _OURS:
        return "value-" + _OURS[message], {}
    if isinstance(error, IdentifierError | ValueError):
        for pattern, name in _WITH_VALUES:
            if found := pattern.match(message):
                return "value-" + name, {k: v[:100] for k, v in found.groupdict().items()}
    return "value_error", {"detail": message[:200]}
