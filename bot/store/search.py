"""Turning what a person types into a safe FTS5 query, and text into what the index holds.

Nothing a person types reaches FTS5's query syntax: words are pulled out of the text and each
is quoted, so quotes, operators (AND, NEAR, *, ^, :), parentheses and emoji cannot make a query
fail. No words at all means no results, never an error.
"""

from __future__ import annotations

import re

from bot.domain.institutions import InstitutionAliases

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


def index_text(text: str) -> str:
    """Space out CJK characters so that the unicode61 tokenizer sees each as a token."""
    return _CJK_CHAR.sub(r" \1 ", text)


def match_query(text: str, institutions: InstitutionAliases | None = None) -> str | None:
    """An FTS5 MATCH expression for `text` (all words, the last one as a prefix), or None.

    An institution the text names (清华, Tsinghua, THU) matches what was typed anywhere, or any
    of the institution's names among the affiliations: naming one only ever adds results.
    """
    text = text[:2_000]
    groups: list[str] = []
    if institutions is not None:
        text, named = institutions.mentioned(text)
        for typed, institution in named[:MAX_TERMS]:
            phrases = [_phrase(typed)]
            phrases += [f"affiliations : {_phrase(name)}" for name in institution.names]
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
