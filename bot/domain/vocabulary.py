"""The field's vocabulary for search: names that mean the same topic (RL, reinforcement
learning, 強化學習), read from `vocabulary.toml` beside this module. A query that mentions one
name of a ring matches papers saying any of them (bot/store/search/text.py)."""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Iterable
from importlib import resources

from bot.domain.institutions import name_key as _name_key

_CJK = re.compile("[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af]")


def name_key(name: str) -> str:
    """How names are compared: case, spacing and hyphens (self-driving, self driving) ignored."""
    return _name_key(re.sub(r"[\s-]+", " ", name))


class Vocabulary:
    """Rings of equivalent names; `mentioned` finds them in a query, longest first."""

    def __init__(self, rings: Iterable[tuple[str, ...]]) -> None:
        self._ring: dict[str, tuple[str, ...]] = {}
        for ring in rings:
            for name in ring:
                self._ring.setdefault(name_key(name), ring)
        keys = sorted(self._ring, key=lambda key: (-len(key), key))
        self._pattern = re.compile(
            "|".join(_mention(key) for key in keys) or "(?!)", flags=re.IGNORECASE
        )

    def names(self, name: str) -> tuple[str, ...]:
        """Every name of the ring `name` belongs to (just `name` outside the vocabulary)."""
        return self._ring.get(name_key(name), (name,))

    def mentioned(self, text: str) -> tuple[str, list[tuple[str, tuple[str, ...]]]]:
        """The rings `text` mentions (each with the words used), and the rest of the text."""
        found: list[tuple[str, tuple[str, ...]]] = []

        def take(match: re.Match[str]) -> str:
            typed = match.group()
            ring = self._ring[name_key(typed)]
            if all(ring is not seen for _, seen in found):
                found.append((typed, ring))
            return " "

        rest = self._pattern.sub(take, text)
        return rest, found


def _mention(key: str) -> str:
    """A name inside a text: CJK names anywhere, others as whole words (hyphen or space)."""
    escaped = r"[\s-]+".join(re.escape(part) for part in re.split(r"[\s-]+", key))
    return escaped if _CJK.search(key) else rf"(?<![\w-]){escaped}(?![\w-])"


@functools.cache
def load_vocabulary() -> Vocabulary:
    """The vocabulary that ships with Laurel (read once per process)."""
    text = (resources.files("bot.domain") / "vocabulary.toml").read_text(encoding="utf-8")
    return Vocabulary(tuple(row["names"]) for row in tomllib.loads(text)["topics"])
