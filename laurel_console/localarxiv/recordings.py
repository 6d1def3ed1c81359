"""The recorded arXiv replies, indexed the two ways the stand-in answers from them.

Each file of the dataset holds `{"url", "status_code", "body"}`. The body was stored as text
decoded as Latin-1 (so "Wübben" reads "WÃ¼bben"); encoding it back as Latin-1 gives the exact
UTF-8 bytes arXiv sent, which is what the stand-in serves.

A request that repeats a recorded one is answered with that reply, byte for byte. Any other
request for ids is answered with a feed built from the recorded entries of those ids, and a title
query (`ti:"…"`) with the recorded entries whose titles hold the phrase.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from bot.domain.identifiers import IdentifierError, parse_arxiv_id

_ENTRY = re.compile(r"<entry>.*?</entry>", re.DOTALL)
_ENTRY_ID = re.compile(r"<id>\s*(.*?)\s*</id>")
_ENTRY_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.DOTALL)
# The parameters that decide what arXiv answers (sortBy/sortOrder only order a search).
QUERY_KEYS = ("search_query", "id_list", "start", "max_results")
QueryKey = tuple[str, str, str, str]
# Where the development checkout keeps the recordings (the datasets beside it, ../shared, as
# `laurel console` and `laurel localarxiv` are run from the checkout): their default.
RECORDINGS = Path("../shared/datasets/arxiv-api-responses")


@dataclass(frozen=True, slots=True)
class Recording:
    name: str
    url: str
    status: int
    body: bytes

    @property
    def key(self) -> QueryKey:
        return query_key(parse_qs(urlsplit(self.url).query, keep_blank_values=True))


@dataclass(frozen=True, slots=True)
class RecordedEntry:
    """One `<entry>` element's text, as it appears in a recorded feed."""

    id: str
    version: int | None
    xml: str
    title: str = ""


def query_key(params: Mapping[str, list[str]] | Mapping[str, str]) -> QueryKey:
    def one(name: str, default: str) -> str:
        value = params.get(name)
        if isinstance(value, list):
            value = value[0] if value else None
        return default if value is None else value

    ids = ",".join(i.strip() for i in one("id_list", "").split(",") if i.strip())
    return (one("search_query", ""), ids, one("start", "0"), one("max_results", "10"))


def load(folder: Path) -> list[Recording]:
    recordings = []
    for path in sorted(folder.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        body = str(data["body"]).encode("latin-1")
        recordings.append(Recording(path.name, str(data["url"]), int(data["status_code"]), body))
    return recordings


def entries_of(recordings: Iterable[Recording]) -> dict[str, RecordedEntry]:
    """Every entry of every recorded feed, by arXiv id without version (the first seen wins)."""
    found: dict[str, RecordedEntry] = {}
    for recording in recordings:
        text = recording.body.decode("utf-8")
        for match in _ENTRY.finditer(text):
            raw_id = _ENTRY_ID.search(match[0])
            if raw_id is None or "/api/errors" in raw_id[1]:
                continue
            try:
                arxiv_id = parse_arxiv_id(raw_id[1])
            except IdentifierError:
                continue
            title = _ENTRY_TITLE.search(match[0])
            text_title = " ".join(html.unescape(title[1]).split()) if title else ""
            found.setdefault(
                arxiv_id.id, RecordedEntry(arxiv_id.id, arxiv_id.version, match[0], text_title)
            )
    return found
