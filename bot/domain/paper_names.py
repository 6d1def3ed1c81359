"""The names a paper gives itself, for search: "BERT" of "BERT: Pre-training of…", "TRPO" of
"Trust region policy optimization (TRPO) is…". Taken only from the paper's own title and
abstract; a name the paper does not use (a catalogue's nickname) comes from curators, with a
source, never from here (issue 27)."""

from __future__ import annotations

import re

# "Name: rest of the title" (or "Name - rest"): a short name before the colon.
_TITLE_NAME = re.compile(r"^\s*([^:–—]{1,40}?)\s*(?::|\s[–—-]\s)\s*\S")
# An acronym in parentheses: "(TRPO)", "(RPN)", "(GxVAEs)": two or more capitals, short.
_PARENTHESISED = re.compile(r"\(([A-Za-z][A-Za-z0-9\-]{1,14})\)")
_MAX_WORDS = 3


def own_names(title: str, abstract: str | None = None) -> list[str]:
    """The paper's own short names, in the order found, without repeats."""
    found: list[str] = []
    head = _TITLE_NAME.match(title)
    if head is not None and len(head.group(1).split()) <= _MAX_WORDS:
        found.append(head.group(1).strip())
    for text in (title, abstract or ""):
        for match in _PARENTHESISED.finditer(text):
            name = match.group(1)
            if sum(ch.isupper() for ch in name) >= 2:
                found.append(name)
    return list(dict.fromkeys(found))
