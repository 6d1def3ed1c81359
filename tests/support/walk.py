"""What a member reads in an answer, and the checks of the language walk (issue 25, goals).

`readable` gathers every piece of text Discord shows of a message: content, embed titles,
descriptions, fields, footers, button labels and select options. `latin_sentences` finds, in a
Chinese answer, runs of English words left once names, titles, venue acronyms, URLs, code and
mentions are taken out; `typed_commands` finds a command written out instead of mentioned.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

_URL = re.compile(r"https?://\S+?(?=[)\s>\]]|$)")
_MENTION = re.compile(r"<(?:/[^<>]+|[@#][!&]?\d+|t:\d+(?::\w)?|a?:\w+:\d+)>")
_CODE = re.compile(r"`[^`]*`")
LATIN_RUN = re.compile(r"[A-Za-z][A-Za-z'’.-]*(?:[ ,:;&/()]+[A-Za-z][A-Za-z'’.-]*){2,}")
_TYPED = re.compile(r"(?<![<\w:/.])/(?:about|help|paper|awards|stats|digest|curate)\b")
# Names of things, not sentences: they stay as written in every language.
ALWAYS_ALLOWED = (
    "arXiv", "PDF", "DOI", "OpenReview", "Laurel", "Discord", "GitHub", "UTC", "CJK",
    "Conference-Acceptance-Rate",
)  # fmt: skip


def readable(message: dict[str, Any]) -> list[str]:
    texts = [message.get("content") or ""]
    for embed in message.get("embeds") or []:
        texts += [embed.get("title") or "", embed.get("description") or ""]
        texts += [(embed.get("author") or {}).get("name") or ""]
        texts += [(embed.get("footer") or {}).get("text") or ""]
        for field in embed.get("fields") or []:
            texts += [field["name"], field["value"]]
    for row in message.get("components") or []:
        for item in row.get("components") or []:
            texts.append(item.get("label") or "")
            texts.append(item.get("placeholder") or "")
            texts += [o.get("label", "") for o in item.get("options") or []]
    return [t for t in texts if t]


def typed_commands(texts: Iterable[str]) -> list[str]:
    found = []
    for text in texts:
        bare = _URL.sub(" ", _MENTION.sub(" ", text))
        found += [m.group(0) for m in _TYPED.finditer(bare)]
    return found


def latin_sentences(texts: Iterable[str], allowed: Iterable[str]) -> list[str]:
    """English runs of three words or more left in `texts` once `allowed` names are out."""
    names = sorted({a for a in allowed if a and len(a) > 1}, key=len, reverse=True)
    found = []
    for text in texts:
        bare = _CODE.sub(" ", _URL.sub(" ", _MENTION.sub(" ", text.replace("\\", ""))))
        for name in names:
            if name in bare:
                bare = bare.replace(name, " ")
        for name in ALWAYS_ALLOWED:
            bare = bare.replace(name, " ")
        found += [m.group(0) for m in LATIN_RUN.finditer(bare)]
    return found
