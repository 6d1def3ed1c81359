"""One person credited under several spellings ("Alexander Rush" on some papers, "Alexander M.
Rush" on others): the author leaderboard counts them as one, under the spelling shown. Read from
`people.toml` beside this module, each entry with the page that shows the spellings are one
person's (a byline is never rewritten: each paper keeps the spelling it was published with).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from bot.domain.institutions import sqlite_lower


@dataclass(frozen=True, slots=True)
class Person:
    name: str  # the spelling shown
    also: tuple[str, ...]  # the other spellings bylines carry
    source: str


class People:
    """Spellings of one person's name, each to the one shown."""

    def __init__(self, people: Iterable[Person]) -> None:
        self._people = tuple(people)
        shown: dict[str, str] = {}
        for person in self._people:
            for spelling in (person.name, *person.also):
                key = sqlite_lower(spelling)
                if shown.setdefault(key, person.name) != person.name:
                    raise ValueError(f"{spelling!r} is given for two people")
        self._shown = shown

    @property
    def entries(self) -> tuple[Person, ...]:
        return self._people

    def shown(self, name: str) -> str:
        """The spelling shown for `name` (itself, unless the table names it)."""
        return self._shown.get(sqlite_lower(name), name)

    def grouping(self) -> dict[str, str]:
        """SQLite lower() of every spelling → the one shown, for grouping in SQL."""
        return dict(self._shown)


def parse_people(text: str) -> People:
    return People(
        Person(row["name"], tuple(row.get("also", ())), row["source"])
        for row in tomllib.loads(text).get("people", [])
    )


@cache
def load_people() -> People:
    """The table that ships with Laurel (read once per process)."""
    return parse_people((resources.files("bot.domain") / "people.toml").read_text("utf-8"))
