"""The recorded arXiv API replies (../shared/datasets/arxiv-api-responses), read as the
client would: the bytes arXiv sent, and the one entry of a reply."""

from __future__ import annotations

import json

import pytest

from bot.catalog.arxiv.atom import ArxivEntry, parse_feed
from tests.support.shared_dir import SHARED

RECORDINGS = SHARED / "datasets" / "arxiv-api-responses"
NO_RECORDINGS = "the recorded arXiv replies (../shared/datasets/arxiv-api-responses) are absent"


def recorded_body(name: str) -> bytes:
    if not RECORDINGS.is_dir():
        pytest.skip(NO_RECORDINGS)
    data = json.loads((RECORDINGS / name).read_text(encoding="utf-8"))
    # Stored as text decoded as Latin-1; this gives back the UTF-8 bytes arXiv sent.
    return str(data["body"]).encode("latin-1")


def only_entry(name: str) -> ArxivEntry:
    feed = parse_feed(recorded_body(name))
    assert len(feed.entries) == 1
    return feed.entries[0]
