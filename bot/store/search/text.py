"""Turning what a person types into a safe FTS5 query, and text into what the index holds.

Nothing a person types reaches FTS5's query syntax: words are pulled out of the text and each
is quoted, so quotes, operators (AND, NEAR, *, ^, :), parentheses and emoji cannot make a query
fail. No words at all means no results, never an error.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

import tantivy

from bot.domain.institutions import InstitutionAliases
from bot.domain.text import visible
from bot.domain.vocabulary import Vocabulary

MAX_TERMS = 12
# A prefix of one or two letters ("li*") matches a large part of any catalogue and costs a
# ranking of all of it; a whole short word ("li") is still matched exactly.
MIN_PREFIX = 3
MAX_TERM_LENGTH = 64
# Scripts written without spaces between words: indexed and queried one character a token.
_CJK = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
_CJK_CHAR = re.compile(f"([{_CJK}])")
_WORD = re.compile(r"[^\W_]+")
_CJK_RUN = re.compile(f"[{_CJK}]+")
# A word typed in capitals, two or more, maybe with digits: an acronym (VAR, GPT4, ECML).
_ACRONYM = re.compile(r"(?=(?:\d*[A-Z]){2})[A-Z\d]+")


def index_text(text: str) -> str:
    """Space out CJK characters so that the unicode61 tokenizer sees each as a token."""
    return _CJK_CHAR.sub(r" \1 ", text)


def match_query(
    text: str,
    institutions: InstitutionAliases | None = None,
    vocabulary: Vocabulary | None = None,
) -> str | None:
    """An FTS5 MATCH expression for `text` (all words, the last one as a prefix), or None.

    An institution the text names (清华, Tsinghua, THU) matches what was typed anywhere, or any
    of the institution's names among the affiliations: naming one only ever adds results. A
    topic of the vocabulary (self-driving) matches any of its names (autonomous driving).
    """
    text = visible(text[:2_000])  # a zero-width space inside a word does not split it
    groups: list[str] = []
    if institutions is not None:
        text, named = institutions.mentioned(text)
        for typed, institution in named[:MAX_TERMS]:
            phrases = [_phrase(typed)]
            phrases += [f"affiliations : {_phrase(name)}" for name in institution.names]
            groups.append("(" + " OR ".join(phrases) + ")")
    if vocabulary is not None:
        text, rings = vocabulary.mentioned(text)
        for _typed, ring in rings[: MAX_TERMS - len(groups)]:
            phrases = [phrase for name in ring if (phrase := _phrase(name)) != '""']
            groups.append("(" + " OR ".join(phrases) + ")")
    terms: list[str] = []
    for word in _WORD.findall(text):
        for part in _split_cjk(word):
            terms.append(part)
            if len(terms) == MAX_TERMS:
                break
        if len(terms) == MAX_TERMS:
            break
    if not terms and not groups:
        return None
    kept = terms[: max(0, MAX_TERMS - len(groups))]
    quoted = [f'"{term}"' for term in kept]
    if kept and kept == terms and len(kept[-1]) >= MIN_PREFIX:
        quoted[-1] += "*"  # what someone is still typing
    # FTS5 takes no implicit AND after a parenthesised group: say it where there are groups.
    return (" AND " if groups else " ").join(groups + quoted)


def _phrase(name: str) -> str:
    """A name as one quoted FTS5 phrase of its words (CJK one character a token)."""
    words = [part for word in _WORD.findall(name) for part in _split_cjk(word)]
    return '"' + " ".join(words) + '"'


def _split_cjk(word: str) -> list[str]:
    """`attention注意力機制` → `attention`, `注 意 力 機 制` (a phrase of single characters)."""
    parts: list[str] = []
    position = 0
    for run in _CJK_RUN.finditer(word):
        if run.start() > position:
            parts.append(word[position : run.start()][:MAX_TERM_LENGTH])
        parts.append(" ".join(run.group()[:MAX_TERM_LENGTH]))
        position = run.end()
    if position < len(word):
        parts.append(word[position:][:MAX_TERM_LENGTH])
    return parts


# -- the derived index (bot/store/search/index.py): the same words, folded in Python -----------


def is_cjk(token: str) -> bool:
    """A token of a script written without spaces (one character a token)."""
    return _CJK_RUN.match(token) is not None


# Words longer than this are indexed by their first PREFIX_MAX letters as prefixes; a typed
# prefix longer than that is looked up by its first PREFIX_MAX letters.
PREFIX_MAX = 16
_MARKS = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


def fold(text: str) -> str:
    """Case and diacritics folded as FTS5's unicode61 folds them (Jürgen → jurgen)."""
    return _MARKS.sub("", unicodedata.normalize("NFKD", text)).casefold()


def tokens(text: str) -> list[str]:
    """The index's tokens for `text`: folded words, CJK one character a token, each word cut
    to MAX_TERM_LENGTH letters as queries cut it."""
    words: list[str] = _WORD.findall(index_text(fold(text)))
    if max(map(len, words), default=0) > MAX_TERM_LENGTH:
        words = [word[:MAX_TERM_LENGTH] for word in words]
    return words


def prefixes(words: list[str], memo: dict[str, str] | None = None) -> str:
    """Edge n-grams (MIN_PREFIX to PREFIX_MAX letters) of the distinct words, space-joined; a
    CJK token is one character, too short to have any. `memo` keeps each word's n-grams
    across calls (a rebuild meets the same words again and again)."""
    memo = {} if memo is None else memo
    found: list[str] = []
    for word in dict.fromkeys(words):
        if len(word) >= MIN_PREFIX:
            grams = memo.get(word)
            if grams is None:
                top = min(len(word), PREFIX_MAX) + 1
                grams = memo[word] = " ".join([word[:n] for n in range(MIN_PREFIX, top)])
            found.append(grams)
    return " ".join(found)


_STEMMER = (
    tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.whitespace())
    .filter(tantivy.Filter.stemmer("english"))
    .build()
)


def stems(words: list[str]) -> list[str]:
    """English stems (Snowball) of folded words: grasping, grasps → grasp. A CJK token is
    its own stem."""
    return list(_STEMMER.analyze(" ".join(words)))  # none for none


def exact_key(text: str) -> str:
    """A title as an exact match compares it: its folded words, one space apart."""
    return " ".join(tokens(text[:2_000]))[:2_000]


# Per word of a Chinese run, its English stems (glossary.py: Glossary.read).
Glosses = tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class Parsed:
    """What a person typed, for the derived index: every group must match.

    `terms` are single words or phrases (a CJK run, one character a token); `institutions`
    are, per institution named, the words typed and every name it goes by, any of which
    matches; `topics`, per vocabulary ring named (RL, reinforcement learning, 強化學習), every
    name of the ring as tokens, the one typed first, any of which matches anywhere; `prefix`
    is the last word still being typed, or None; `whole` is the text as an exact title
    would read (exact_key); `capitals`: the last word was typed in capitals (VAR, GAN): an
    acronym typed whole, not a word still being typed; `glosses`, per Chinese run typed, the
    English stems of each of its words (bot/store/search/glossary.py).
    """

    terms: tuple[tuple[str, ...], ...]
    institutions: tuple[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]], ...]
    prefix: str | None
    topics: tuple[tuple[tuple[str, ...], ...], ...] = ()
    whole: str = ""
    capitals: bool = False
    glosses: tuple[tuple[tuple[str, ...], Glosses], ...] = ()

    def glossed(self, term: tuple[str, ...]) -> Glosses:
        """The glosses of the Chinese run `term` (none: ())."""
        return next((found for run, found in self.glosses if run == term), ())


def parse(
    text: str,
    institutions: InstitutionAliases | None = None,
    vocabulary: Vocabulary | None = None,
    glossary: Callable[[str], Glosses] | None = None,
) -> Parsed | None:
    """`text` as the derived index's query, as `match_query` reads it for FTS5; None: no words.
    `glossary` (Glossary.read): a Chinese run's glosses, its words' English stems."""
    text = visible(text[:2_000])
    whole = exact_key(text)
    typed_words = _WORD.findall(text)
    capitals = bool(typed_words) and _ACRONYM.fullmatch(typed_words[-1]) is not None
    named: list[tuple[tuple[str, ...], tuple[tuple[str, ...], ...]]] = []
    if institutions is not None:
        text, mentioned = institutions.mentioned(text)
        for typed, institution in mentioned[:MAX_TERMS]:
            names = tuple(t for name in institution.names if (t := tuple(tokens(name))))
            if typed_tokens := tuple(tokens(typed)):
                named.append((typed_tokens, names))
    topics: list[tuple[tuple[str, ...], ...]] = []
    if vocabulary is not None:
        text, rings = vocabulary.mentioned(text)
        for typed, ring in rings[:MAX_TERMS]:
            said = tuple(tokens(typed))  # the name typed first: it weighs most
            others = (t for name in ring if (t := tuple(tokens(name))) and t != said)
            topics.append((said, *others))
    # A CJK run is a phrase of single characters; any other part is one word (no spaces).
    parts = [part for word in _WORD.findall(fold(text)) for part in _split_cjk(word)]
    terms = [tuple(part.split(" ")) for part in parts]
    if not terms and not named and not topics:
        return None
    # Words past the cap are dropped; then the last word kept is not the one being typed.
    kept = terms[: max(0, MAX_TERMS - len(named) - len(topics))]
    prefix = None
    last = kept[-1][0] if kept and kept == terms and len(kept[-1]) == 1 else ""
    if len(last) >= MIN_PREFIX and not _CJK_RUN.match(last):
        prefix = kept.pop()[0]  # what someone is still typing
    glosses = []
    if glossary is not None:
        for term in dict.fromkeys(kept):
            if len(term) > 1 and (found := glossary("".join(term))) and any(found):
                glosses.append((term, found))
    return Parsed(
        terms=tuple(kept),
        institutions=tuple(named),
        prefix=prefix,
        topics=tuple(topics),
        whole=whole,
        capitals=capitals,
        glosses=tuple(glosses),
    )
