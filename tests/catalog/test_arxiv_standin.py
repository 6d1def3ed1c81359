"""The loopback arXiv stand-in: recorded replies byte for byte, built feeds, arXiv's errors."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest

from bot.catalog.arxiv.atom import parse_feed
from bot.catalog.arxiv.errors import ArxivQueryError
from laurel_console.localarxiv.server import LocalArxiv


@pytest.fixture
def recordings(shared_dir: Path) -> Path:
    return shared_dir / "datasets" / "arxiv-api-responses"


@pytest.fixture
async def arxiv(recordings: Path) -> AsyncIterator[LocalArxiv]:
    async with LocalArxiv(recordings) as server:
        yield server


async def get(server: LocalArxiv, query: str) -> tuple[int, bytes]:
    async with aiohttp.ClientSession() as session, session.get(f"{server.url}?{query}") as reply:
        return reply.status, await reply.read()


async def test_every_recorded_request_gets_its_reply_verbatim(
    arxiv: LocalArxiv, recordings: Path
) -> None:
    for path in sorted(recordings.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        status, body = await get(arxiv, urlsplit(data["url"]).query)
        assert status == data["status_code"]
        assert body == data["body"].encode("latin-1"), path.name
    assert len(arxiv.requests) == len(arxiv.recordings) == 17


async def test_ids_not_asked_that_way_get_a_feed_built_from_recorded_entries(
    arxiv: LocalArxiv,
) -> None:
    status, body = await get(arxiv, "id_list=2202.12139,1605.08386v1,9912.12345&max_results=5")
    assert status == 200
    feed = parse_feed(body)
    assert [str(e.versioned_id) for e in feed.entries] == ["2202.12139v1", "1605.08386v1"]
    assert feed.total_results == 2
    assert arxiv.requests[0].ids == ("2202.12139", "1605.08386v1", "9912.12345")


async def test_paging_over_built_feeds(arxiv: LocalArxiv) -> None:
    ids = "1605.08386,1707.08567,2104.12255"
    _, body = await get(arxiv, f"id_list={ids}&start=1&max_results=1")
    feed = parse_feed(body)
    assert [e.id.id for e in feed.entries] == ["1707.08567"]
    assert feed.total_results == 3


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("id_list=1605.08386,hello", "incorrect id format for hello"),
        ("id_list=1605.08386&start=x", "start must be an integer"),
        ("id_list=1605.08386&max_results=-1", "max_results must be an integer"),
    ],
)
async def test_what_arxiv_refuses_gets_its_error_feed(
    arxiv: LocalArxiv, query: str, message: str
) -> None:
    status, body = await get(arxiv, query)
    assert status == 400
    with pytest.raises(ArxivQueryError) as raised:
        parse_feed(body)
    assert raised.value.message == message


async def test_unknown_ids_get_marked_synthetic_entries_only_when_asked(recordings: Path) -> None:
    async with LocalArxiv(recordings, synthesize=True) as server:
        _, body = await get(server, "id_list=2305.08846,1605.08386")
    made_up, recorded = parse_feed(body).entries
    assert made_up.title == "Synthetic record for arXiv:2305.08846"
    assert "not the paper's abstract" in made_up.abstract
    assert recorded.title == "Heat-bath random walks with Markov bases"


async def test_title_queries_find_the_recorded_entries_holding_the_phrase(
    arxiv: LocalArxiv,
) -> None:
    # Case, accents and punctuation aside, as arXiv matches a quoted phrase.
    _, body = await get(arxiv, 'search_query=ti:"heat bath random walks WITH markov"')
    assert [e.id.id for e in parse_feed(body).entries] == ["1605.08386"]
    _, body = await get(arxiv, 'search_query=ti:"Testing Deep Learning Models: A First"')
    assert [e.id.id for e in parse_feed(body).entries] == ["2202.12139"]
    _, body = await get(arxiv, 'search_query=ti:"mutation testing" AND ti:ethereum')
    assert [e.title for e in parse_feed(body).entries] == [
        "Mutation Testing for Ethereum Smart Contract"
    ]


async def test_a_phrase_matches_whole_words_in_order(arxiv: LocalArxiv) -> None:
    for query in ('ti:"markov heat bath"', 'ti:"heat bat"', 'ti:"no such title anywhere"'):
        status, body = await get(arxiv, f"search_query={query}")
        assert status == 200
        feed = parse_feed(body)
        assert feed.entries == ()
        assert feed.total_results == 0


async def test_title_queries_page_and_other_searches_find_nothing(arxiv: LocalArxiv) -> None:
    _, body = await get(arxiv, 'search_query=ti:"testing"&max_results=3')
    feed = parse_feed(body)
    assert len(feed.entries) == 3
    assert feed.total_results is not None
    assert feed.total_results > 20
    _, body = await get(arxiv, 'search_query=abs:"testing"&max_results=3')
    assert parse_feed(body).entries == ()
