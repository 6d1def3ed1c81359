"""Institutions under all their names: English spellings, Chinese names, short forms.

The table is data (`institutions.toml` beside this module, read through importlib.resources);
this module only answers questions about it, without I/O once loaded: which institution a name
means, what to call it in a language, and which institutions a search text mentions.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Literal

from bot.domain.models import Language

_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")
_SPACES = re.compile(r"\s+")


def name_key(name: str) -> str:
    """How names are compared: white space folded, case ignored."""
    return _SPACES.sub(" ", name).strip().casefold()


def sqlite_lower(name: str) -> str:
    """SQLite's lower(): only ASCII letters change, as the leaderboard SQL groups them."""
    return "".join(chr(ord(ch) + 32) if "A" <= ch <= "Z" else ch for ch in name)


@dataclass(frozen=True, slots=True)
class Institution:
    name: str
    aliases: tuple[str, ...] = ()
    zh_tw: str | None = None
    zh_cn: str | None = None
    chinese: Literal["own", "ours"] = "ours"
    source: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """Every name it goes by, the English name first, without repeats."""
        found = [self.name, *self.aliases, self.zh_tw or "", self.zh_cn or ""]
        return tuple(dict.fromkeys(n for n in found if n))

    def display(self, language: Language) -> str:
        chosen = {"zh-TW": self.zh_tw, "zh-CN": self.zh_cn}.get(language)
        return chosen or self.name


class InstitutionAliases:
    """Lookups over the table; built once (see `load_institutions`) and handed around."""

    def __init__(self, institutions: Iterable[Institution]) -> None:
        self._all = tuple(institutions)
        self._by_name: dict[str, Institution] = {}
        for institution in self._all:
            for name in institution.names:
                key = name_key(name)
                other = self._by_name.setdefault(key, institution)
                if other is not institution:
                    raise ValueError(f"{name!r} names both {other.name} and {institution.name}")
        # Longest names first, so "Google Research" is found before "Google".
        self._mentions = sorted(
            ((key, _mention_pattern(key), inst) for key, inst in self._by_name.items()),
            key=lambda item: -len(item[0]),
        )
        # Whether any name occurs at all, in one pass: most searches name no institution, and
        # trying each name's pattern in turn cost more than the rest of parsing the query.
        self._any_mention = re.compile(
            "|".join(f"(?:{pattern.pattern})" for _, pattern, _ in self._mentions) or "(?!)"
        )

    def __iter__(self) -> Iterator[Institution]:
        return iter(self._all)

    def find(self, name: str) -> Institution | None:
        return self._by_name.get(name_key(name))

    def display(self, name: str, language: Language) -> str:
        """The institution's name in `language`, or `name` itself when it is not in the table."""
        found = self.find(name)
        return found.display(language) if found else name

    def unique(self, names: Iterable[str]) -> tuple[str, ...]:
        """`names` with each institution once, in first-seen order and first-seen spelling: two
        spellings the table knows as one ("ETH Zurich", "ETH Zürich"), or names differing only
        in case and spacing, are one institution listed twice."""
        kept: dict[str, str] = {}
        for name in names:
            found = self.find(name)
            kept.setdefault(found.name if found is not None else name_key(name), name)
        return tuple(kept.values())

    def grouping(self) -> dict[str, str]:
        """SQLite lower() of every name → the English name, for grouping in SQL."""
        return {sqlite_lower(n): i.name for i in self._all for n in i.names}

    def mentioned(self, text: str) -> tuple[str, list[tuple[str, Institution]]]:
        """The institutions `text` names (each with the words used), and the rest of the text."""
        rest = name_key(text)
        found: list[tuple[str, Institution]] = []
        if not self._any_mention.search(rest):
            return rest, found
        for key, pattern, institution in self._mentions:
            if pattern.search(rest):
                rest = pattern.sub(" ", rest)
                if all(institution is not seen for _, seen in found):
                    found.append((key, institution))
        return rest, found


def _mention_pattern(key: str) -> re.Pattern[str]:
    """A name inside a text: CJK names anywhere, other names as whole words."""
    escaped = re.escape(key)
    if _CJK.search(key):
        return re.compile(escaped)
    return re.compile(rf"(?<!\w){escaped}(?!\w)")


_KEYS = frozenset({"name", "aliases", "zh-TW", "zh-CN", "chinese", "source"})


@functools.cache
def load_institutions() -> InstitutionAliases:
    """The table that ships with Laurel (immutable; read once per process)."""
    text = (resources.files("bot.domain") / "institutions.toml").read_text(encoding="utf-8")
    return parse_institutions(text)


def parse_institutions(text: str) -> InstitutionAliases:
    """The table in `text`; a row with an unknown key (a misspelt "zh-tw" would lose its name),
    or Chinese names that do not say whose they are, is refused with the row named."""
    rows = tomllib.loads(text)["institutions"]
    for number, row in enumerate(rows, start=1):
        where = f"institutions.toml, institutions[{number}] ({row.get('name', '?')})"
        unknown = sorted(set(row) - _KEYS)
        if unknown:
            raise ValueError(f"{where}: unknown key(s) {', '.join(unknown)}")
        chinese = row.get("chinese")
        if ("zh-TW" in row or "zh-CN" in row) and chinese not in {"own", "ours"}:
            raise ValueError(f'{where}: `chinese` must say "own" or "ours" for its Chinese names')
        if chinese == "own" and not str(row.get("source", "")).startswith("http"):
            raise ValueError(f"{where}: an institution's own Chinese name needs the `source` page")
    return InstitutionAliases(
        Institution(
            name=row["name"],
            aliases=tuple(row.get("aliases", ())),
            zh_tw=row.get("zh-TW"),
            zh_cn=row.get("zh-CN"),
            chinese=row.get("chinese", "ours"),
            source=row.get("source"),
        )
        for row in rows
    )
