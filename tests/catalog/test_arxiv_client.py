"""ArxivClient against the loopback arXiv stand-in: batching, politeness, retries, errors."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.catalog.arxiv.client import (
    ArxivClient,
    ArxivNotFoundError,
    ArxivQueryError,
    ArxivUnavailableError,
)
from bot.domain.identifiers import ArxivId, parse_arxiv_id
from bot.settings import ArxivSettings
from laurel_console.localarxiv.server import LocalArxiv
from tests.support.clock import ManualClock


@pytest.fixture
def recordings(shared_dir: Path) -> Path:
    return shared_dir / "datasets" / "arxiv-api-responses"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def arxiv(recordings: Path, clock: ManualClock) -> AsyncIterator[LocalArxiv]:
    async with LocalArxiv(recordings, clock=clock.monotonic) as server:
        yield server


@pytest.fixture
async def session() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as http:
        yield http


def client_for(
    arxiv: LocalArxiv, session: aiohttp.ClientSession, clock: ManualClock, **settings: Any
) -> ArxivClient:
    return ArxivClient(session, ArxivSettings(base_url=arxiv.url, **settings), clock=clock)


def ids(*texts: str) -> list[ArxivId]:
    return [parse_arxiv_id(t) for t in texts]


async def test_one_id(
    arxiv: LocalArxiv, session: aiohttp.ClientSession, clock: ManualClock
) -> None:
    client = client_for(arxiv, session, clock)
    (wanted,) = ids("1605.08386")
    result = await client.fetch([wanted])
    assert result.missing == ()
    assert result.entry(wanted).title == "Heat-bath random walks with Markov bases"
    assert [r.ids for r in arxiv.requests] == [("1605.08386",)]
    assert arxiv.requests[0].max_results == "1"


async def test_several_ids_in_one_request_and_the_missing_named(
    arxiv: LocalArxiv, session: aiohttp.ClientSession, clock: ManualClock
) -> None:
    client = client_for(arxiv, session, clock)
    # 0808.05394 is malformed to Laurel's parser but not to arXiv's, which finds nothing.
    asked = ids("1605.08386", "astro-ph/0601001", "1707.08567", "2104.12255v1")
    asked.insert(2, ArxivId("0808.05394"))
    result = await client.fetch(asked)
    assert len(arxiv.requests) == 1
    assert [str(e.versioned_id) for e in result.entries] == [
        "1605.08386v1", "astro-ph/0601001v1", "1707.08567v1", "2104.12255v1",
    ]  # fmt: skip
    assert result.missing == (ArxivId("0808.05394"),)
    with pytest.raises(ArxivNotFoundError) as raised:
        result.entry(ArxivId("0808.05394"))
    assert raised.value.params == {"arxiv_id": "0808.05394"}


async def test_a_version_arxiv_does_not_have_is_missing(
    arxiv: LocalArxiv, session: aiohttp.ClientSession, clock: ManualClock
) -> None:
    result = await client_for(arxiv, session, clock).fetch(ids("2104.12255v2"))
    assert result.entries == ()
    assert result.missing == (ArxivId("2104.12255", 2),)


async def test_batches_are_spaced_three_seconds_apart(
    arxiv: LocalArxiv, session: aiohttp.ClientSession, clock: ManualClock
) -> None:
    client = client_for(arxiv, session, clock, ids_per_request=2)
    asked = ids("1605.08386", "astro-ph/0601001", "1707.08567", "2104.12255", "2202.12139")
    result = await client.fetch(asked)
    assert len(result.entries) == 5
    assert [r.ids for r in arxiv.requests] == [
        ("1605.08386", "astro-ph/0601001"), ("1707.08567", "2104.12255"), ("2202.12139",),
    ]  # fmt: skip
    times = [r.at for r in arxiv.requests]
    assert [b - a for a, b in itertools.pairwise(times)] == [3.0, 3.0]
    assert clock.sleeps == [3.0, 3.0]


async def test_callers_at_once_share_one_pace(
    arxiv: LocalArxiv, session: aiohttp.ClientSession, clock: ManualClock
) -> None:
    client = client_for(arxiv, session, clock)
    await asyncio.gather(
        *(client.fetch(ids(t)) for t in ("1605.08386", "1707.08567", "2104.12255"))
    )
    times = sorted(r.at for r in arxiv.requests)
    assert [b - a for a, b in itertools.pairwise(times)] == [3.0, 3.0]


async def test_no_wait_when_the_last_request_is_long_past(
    arxiv: LocalArxiv, session: aiohttp.ClientSession, clock: ManualClock
) -> None:
    client = client_for(arxiv, session, clock)
    await client.fetch(ids("1605.08386"))
    clock.advance(10)
    await client.fetch(ids("1707.08567"))
    assert clock.sleeps == []


async def test_5xx_is_retried_with_backoff(
    arxiv: LocalArxiv, session: aiohttp.ClientSession, clock: ManualClock
) -> None:
    arxiv.faults.fail(2, status=503)
    client = client_for(arxiv, session, clock, backoff_seconds=5.0, min_interval_seconds=3.0)
    result = await client.fetch(ids("1605.08386"))
    assert len(result.entries) == 1
    assert [r.status for r in arxiv.requests] == [503, 503, 200]
    # Back-off of 5 s, then 10 s; each is longer than the 3 s interval, so no extra wait.
    assert clock.sleeps == [5.0, 10.0]


async def test_5xx_every_time_is_arxiv_unavailable(
    arxiv: LocalArxiv, session: aiohttp.ClientSession, clock: ManualClock
) -> None:
    arxiv.faults.fail(3, status=502)
    client = client_for(arxiv, session, clock, retries=2, backoff_seconds=1.0)
    with pytest.raises(ArxivUnavailableError) as raised:
        await client.fetch(ids("1605.08386"))
    assert raised.value.attempts == 3
    assert raised.value.reason == "HTTP 502"
    assert len(arxiv.requests) == 3
    # Back-off of 1 s then 2 s, each topped up to arXiv's 3 s interval.
    assert clock.sleeps == [1.0, 2.0, 2.0, 1.0]
    times = [r.at for r in arxiv.requests]
    assert [b - a for a, b in itertools.pairwise(times)] == [3.0, 3.0]
    # The next call finds arXiv well again.
    assert len((await client.fetch(ids("1605.08386"))).entries) == 1


async def test_a_slow_reply_times_out_and_is_retried(
    arxiv: LocalArxiv, session: aiohttp.ClientSession, clock: ManualClock
) -> None:
    arxiv.faults.delay(1, seconds=30)
    client = client_for(arxiv, session, clock, timeout_seconds=0.2, backoff_seconds=0)
    result = await client.fetch(ids("1707.08567"))
    assert len(result.entries) == 1
    assert len(arxiv.requests) == 2


async def test_only_timeouts_is_arxiv_unavailable(
    arxiv: LocalArxiv, session: aiohttp.ClientSession, clock: ManualClock
) -> None:
    arxiv.faults.delay(2, seconds=30)
    client = client_for(arxiv, session, clock, timeout_seconds=0.1, retries=1)
    with pytest.raises(ArxivUnavailableError, match="arxiv-unavailable") as raised:
        await client.fetch(ids("1707.08567"))
    assert raised.value.reason == "no answer within 0.1 s"


async def test_arxivs_error_feed_is_raised_with_its_message(
    arxiv: LocalArxiv, session: aiohttp.ClientSession, clock: ManualClock
) -> None:
    client = client_for(arxiv, session, clock)
    # An id our parser would refuse, sent anyway: arXiv answers 400 with an "Error" entry.
    with pytest.raises(ArxivQueryError) as raised:
        await client.fetch([ArxivId("1605.08386"), ArxivId("1234.5678x")])
    assert raised.value.message == "incorrect id format for 1234.5678x"
    assert [r.status for r in arxiv.requests] == [400]  # not retried: it would fail again


async def test_nobody_listening_is_arxiv_unavailable(
    session: aiohttp.ClientSession, clock: ManualClock
) -> None:
    server = await LocalArxiv().start()
    url = server.url
    await server.stop()
    settings = ArxivSettings(base_url=url, retries=1, backoff_seconds=0)
    with pytest.raises(ArxivUnavailableError) as raised:
        await ArxivClient(session, settings, clock=clock).fetch(ids("1605.08386"))
    assert raised.value.reason.startswith("connection failed")


async def test_every_recorded_entry_in_one_large_reply(
    arxiv: LocalArxiv, session: aiohttp.ClientSession, clock: ManualClock
) -> None:
    every = [ArxivId(key) for key in arxiv.entries]
    result = await client_for(arxiv, session, clock, ids_per_request=200).fetch(every)
    assert len(arxiv.requests) == 1
    assert len(every) == 104
    assert {e.id for e in result.entries} == set(every)
    assert result.missing == ()


async def test_search_title_asks_one_phrase_and_strips_query_syntax(recordings: Path) -> None:
    async with LocalArxiv(recordings) as server, aiohttp.ClientSession() as http:
        settings = ArxivSettings(base_url=server.url, min_interval_seconds=0)
        client = ArxivClient(http, settings, clock=ManualClock())
        feed = await client.search_title('Heat-bath random walks: with "Markov" bases')
        nothing = await client.search_title("…!?")
    assert [e.id.id for e in feed.entries] == ["1605.08386"]
    assert nothing.entries == ()
    assert len(server.requests) == 1  # a title of no words is not worth a request
    assert server.requests[0].search_query == 'ti:"Heat bath random walks with Markov bases"'
    assert server.requests[0].max_results == "10"
