"""Chinese read as English for search: a zh-TW or zh-CN query finds what English alone says.

A Chinese query matched only our Chinese summaries, so it missed every paper without one (its
title and abstract are English) and every summary that words the topic otherwise. The glossary
maps a two-character word (具身, 壓縮) to the English stems that go with it (embodi, compress):
learned from the catalogue itself, where each summary is written in English and in both Chinese
scripts, by `learn` (run by `python -m tools.glossary`, which writes `glossary.toml` beside this
module). A pair is kept when the two occur in the same papers' summaries far more than apart
(Dice's coefficient, and more often than chance), in at least two papers.

Search (bot/store/search/query.py) reads a Chinese run by most of its words' glosses among a
paper's English stems, at a low weight, only when no paper has every word as typed: a word of
the table is in two summaries at least, so alone it is nearly always found as typed, and the
glosses serve a longer run or several words together (具身智能 模型压缩: no summary says both).
The field's vocabulary (bot/domain/vocabulary.toml: 無人機, drone) is read before the glossary.

The table knows only words two of our summaries use; a dictionary (dictionary.py, CC-CEDICT,
added as the bot starts) knows the rest of the language (充氣: inflat). A run is read as words:
cut where the fewest words of the table or the dictionary cover it, the dictionary's words
before the table's pairs where cuts tie (強化學習代理 → 強化, 學習, 代理; a character alone, 的,
is no word and has no gloss), each word's stems the table's first, then the dictionary's. A run
that its words cover half of or less is read by the table's overlapping pairs instead, as it
was before the dictionary.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources

from bot.store.search.dictionary import MAX_LENGTH, Dictionary
from bot.store.search.text import Glosses, fold, is_cjk, stems, tokens

GLOSSARY = "glossary.toml"
MIN_PAPERS = 2  # a pair seen in one paper only is chance
MIN_DICE = 0.4  # 2 × papers holding both / (papers holding the word + papers holding the stem)
# Together this many times more often than chance (both × papers / (word's × stem's)): Dice alone
# pairs a word in a quarter of the summaries (方法) with "the", which every English text holds.
MIN_LIFT = 1.5
MAX_GLOSSES = 3  # the best few stems of a word, within NEAR_BEST of the best
NEAR_BEST = 0.75
MAX_READ = 4  # stems a word of a query is read as, the table's first
_RUN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+")  # Chinese (Han) only


def bigrams(text: str) -> set[str]:
    """The overlapping two-character words of the Chinese runs of `text`, folded."""
    return {run[i : i + 2] for run in _RUN.findall(fold(text)) for i in range(len(run) - 1)}


def english_stems(text: str) -> set[str]:
    """The stems of `text`'s English words as the index holds them: no CJK, digits or letters
    alone."""
    words = [word for word in tokens(text) if not is_cjk(word) and len(word) > 1]
    return {stem for stem in stems(words) if not stem.isdigit()}


def learn(papers: Iterable[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    """From (Chinese text, English text) per paper, each two-character word's English stems,
    best first: seen together in MIN_PAPERS papers or more, MIN_LIFT times chance or more, with
    a Dice coefficient of MIN_DICE or more, at most MAX_GLOSSES within NEAR_BEST of the word's
    best (ties by stem)."""
    words: Counter[str] = Counter()
    english: Counter[str] = Counter()
    together: dict[str, Counter[str]] = {}
    taught = 0
    for chinese, text in papers:
        found, said = bigrams(chinese), english_stems(text)
        if not found or not said:
            continue
        taught += 1
        words.update(found)
        english.update(said)
        for word in found:
            together.setdefault(word, Counter()).update(said)
    table: dict[str, tuple[str, ...]] = {}
    for word, stems_seen in together.items():
        scored = sorted(
            (-2 * both / (words[word] + english[stem]), stem)
            for stem, both in stems_seen.items()
            if both >= MIN_PAPERS and both * taught >= MIN_LIFT * words[word] * english[stem]
        )
        kept = [(-score, stem) for score, stem in scored if -score >= MIN_DICE]
        if kept:
            best = kept[0][0]
            table[word] = tuple(s for d, s in kept[:MAX_GLOSSES] if d >= best * NEAR_BEST)
    return dict(sorted(table.items()))


class Glossary:
    """Two-character Chinese words and their English stems (the learned table), and a
    dictionary's words of any length (dictionary.py)."""

    def __init__(
        self, glosses: Mapping[str, Iterable[str]], dictionary: Dictionary | None = None
    ) -> None:
        self._glosses = {fold(word): tuple(found) for word, found in glosses.items()}
        self._dictionary = dictionary
        self._longest = 2 if dictionary is None else MAX_LENGTH  # the table's words are pairs

    def with_dictionary(self, dictionary: Dictionary) -> Glossary:
        """This table, and `dictionary`'s words beside it (load_dictionary: the bot loads it
        off the event loop as it starts)."""
        return Glossary(self._glosses, dictionary)

    def __len__(self) -> int:
        """The learned table's words."""
        return len(self._glosses)

    def read(self, run: str) -> Glosses:
        """Per word of the Chinese `run` (`words`), its stems: the learned table's, then the
        dictionary's, at most MAX_READ. Where those words cover half the run or less, the
        table's reading of its overlapping two-character words (`pairs`) instead (可解釋性:
        of its words only 可解 is known). None for a run that is not all Han (Japanese with
        kana, Korean): the tables are Chinese."""
        run = fold(run)
        if not _RUN.fullmatch(run):
            return ()
        words = self.words(run)
        if 2 * sum(map(len, words)) <= len(run):
            return self.pairs(run)
        return tuple(self._stems(word)[:MAX_READ] for word in words)

    def pairs(self, run: str) -> Glosses:
        """Per overlapping two-character word of the Chinese `run`, the learned table's stems
        (none: ()); none at all when no pair has any."""
        run = fold(run)
        if not _RUN.fullmatch(run):
            return ()
        found = tuple(self._glosses.get(run[i : i + 2], ()) for i in range(len(run) - 1))
        return found if any(found) else ()

    def words(self, run: str) -> list[str]:
        """The words of the folded Han `run` that the fewest pieces cover it: words of two
        characters or more that the table or the dictionary holds, a character that starts
        none a piece alone and left out. Where cuts tie, the one with fewer words the
        dictionary lacks (the table learns every pair, 經網 of 神經網路 too), then the longer
        word first (強化 學 習 before 強 化學 習)."""
        # cost[i]: (pieces, pieces only the table holds) covering run[i:]; first[i]: the
        # length of its first piece
        cost: list[tuple[int, int]] = [(len(run) + 1, 0)] * len(run) + [(0, 0)]
        first = [1] * (len(run) + 1)
        for start in range(len(run) - 1, -1, -1):
            for length in range(min(self._longest, len(run) - start), 0, -1):
                piece = run[start : start + length]
                if length == 1 or (self._dictionary is not None and piece in self._dictionary):
                    table_only = 0
                elif piece in self._glosses:
                    table_only = 1
                else:
                    continue
                pieces, learned = cost[start + length]
                if (pieces + 1, learned + table_only) < cost[start]:
                    cost[start] = (pieces + 1, learned + table_only)
                    first[start] = length
        found, start = [], 0
        while start < len(run):
            length = first[start]
            if length > 1:
                found.append(run[start : start + length])
            start += length
        return found

    def _stems(self, word: str) -> tuple[str, ...]:
        learned = self._glosses.get(word, ())
        known = self._dictionary.get(word) if self._dictionary is not None else ()
        return tuple(dict.fromkeys((*learned, *known)))


def parse_glossary(text: str) -> Glossary:
    return Glossary(tomllib.loads(text).get("glosses", {}))


@cache
def load_glossary() -> Glossary:
    """The learned table that ships with Laurel (read once per process); the dictionary is
    added by `with_dictionary`."""
    text = (resources.files("bot.store.search") / GLOSSARY).read_text(encoding="utf-8")
    return parse_glossary(text)
