"""The arXiv API client: many ids per request, one request every few seconds, retries on 5xx.

    client = ArxivClient(session, settings.arxiv, clock=clock)   # one per process, shared
    result = await client.fetch([parse_arxiv_id("2502.06768")])
    entry = result.entry(arxiv_id)                          # or ArxivNotFoundError
    paper = paper_from_arxiv(entry, year=2025)              # the catalogue's Paper
    feed = await client.search_title("Attention Is All You Need")   # ti:"…", one a request

The session is handed in (the composition root owns it), and so is the clock (its monotonic
time and its sleep), so tests of the politeness interval and of back-off advance a
`ManualClock` instead of sleeping.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass

import aiohttp

from bot.catalog.arxiv.atom import ArxivEntry, Feed, parse_feed
from bot.catalog.arxiv.errors import (
    ArxivBadResponseError,
    ArxivError,
    ArxivNotFoundError,
    ArxivQueryError,
    ArxivUnavailableError,
)
from bot.catalog.arxiv.paper import paper_from_arxiv
from bot.domain.clock import Clock
from bot.domain.identifiers import ArxivId
from bot.settings import ArxivSettings

__all__ = [
    "TITLE_RESULTS",
    "ArxivBadResponseError",
    "ArxivClient",
    "ArxivEntry",
    "ArxivError",
    "ArxivNotFoundError",
    "ArxivQueryError",
    "ArxivResult",
    "ArxivUnavailableError",
    "paper_from_arxiv",
    "title_phrase",
]

log = logging.getLogger(__name__)
_MAX_BODY = 32 * 1024 * 1024  # a 2,000-entry feed is ~5 MB; more is not arXiv talking


TITLE_RESULTS = 10  # a whole title as a phrase rarely matches more papers than this


def title_phrase(title: str) -> str:
    """A title as the words of an arXiv phrase query: punctuation (quotes, colons, brackets,
    which arXiv's query parser reads as syntax) becomes space; case is arXiv's business."""
    return " ".join(re.findall(r"[^\W_]+", title))


@dataclass(frozen=True, slots=True)
class ArxivResult:
    """What arXiv had for the ids asked for: their entries, and the ids it does not know."""

    entries: tuple[ArxivEntry, ...]
    missing: tuple[ArxivId, ...]

    def entry(self, arxiv_id: ArxivId) -> ArxivEntry:
        """The entry for `arxiv_id` (any version if none is named), else `ArxivNotFoundError`."""
        for entry in self.entries:
            if _answers(entry, arxiv_id):
                return entry
        raise ArxivNotFoundError(str(arxiv_id))


def _answers(entry: ArxivEntry, asked: ArxivId) -> bool:
    return entry.id.id == asked.id and asked.version in (None, entry.version)


class ArxivClient:
    def __init__(
        self,
        session: aiohttp.ClientSession,
        settings: ArxivSettings,
        *,
        clock: Clock,
    ) -> None:
        self._session = session
        self._settings = settings
        self._clock = clock
        # One request at a time, whoever asks: the interval is arXiv's, not one caller's.
        self._turn = asyncio.Lock()
        self._last_request: float | None = None

    async def fetch(self, ids: Sequence[ArxivId]) -> ArxivResult:
        """Every entry arXiv has for `ids`, asking for `ids_per_request` of them at a time."""
        wanted = list(dict.fromkeys(ids))
        size = self._settings.ids_per_request
        entries: list[ArxivEntry] = []
        for start in range(0, len(wanted), size):
            batch = wanted[start : start + size]
            feed = await self._query(
                {
                    "search_query": "",
                    "id_list": ",".join(str(a) for a in batch),
                    "start": "0",
                    "max_results": str(len(batch)),
                }
            )
            entries += [e for e in feed.entries if any(_answers(e, asked) for asked in batch)]
        missing = tuple(a for a in wanted if not any(_answers(e, a) for e in entries))
        return ArxivResult(tuple(entries), missing)

    async def search_title(self, title: str, *, max_results: int = TITLE_RESULTS) -> Feed:
        """The papers whose titles hold `title` as a phrase (arXiv's `ti:"…"`), best first.

        One title a request: OR-ing several into one query would let one title's many partial
        matches crowd another's out of the capped result list.
        """
        phrase = title_phrase(title)
        if not phrase:
            return Feed((), 0)
        return await self._query(
            {
                "search_query": f'ti:"{phrase}"',
                "id_list": "",
                "start": "0",
                "max_results": str(max_results),
            }
        )

    async def _query(self, params: dict[str, str]) -> Feed:
        attempts = self._settings.retries + 1
        reason = ""
        for attempt in range(attempts):
            if attempt:
                await self._clock.sleep(self._settings.backoff_seconds * 2 ** (attempt - 1))
            try:
                return await self._get(params)
            except _Retryable as exc:
                reason = str(exc)
                log.warning("arXiv request %d/%d failed: %s", attempt + 1, attempts, reason)
        raise ArxivUnavailableError(reason, attempts)

    async def _get(self, params: dict[str, str]) -> Feed:
        async with self._turn:
            await self._wait_turn()
            timeout = aiohttp.ClientTimeout(total=self._settings.timeout_seconds)
            try:
                async with self._session.get(
                    self._settings.base_url, params=params, timeout=timeout
                ) as response:
                    body = await _read_bounded(response)
                    status = response.status
            except TimeoutError:
                raise _Retryable(f"no answer within {self._settings.timeout_seconds:g} s") from None
            except aiohttp.ClientError as exc:
                raise _Retryable(f"connection failed ({type(exc).__name__})") from None
            finally:
                self._last_request = self._clock.monotonic()
        if status >= 500 or status == 429:
            raise _Retryable(f"HTTP {status}")
        if len(body) > _MAX_BODY:
            raise ArxivBadResponseError(f"the reply is larger than {_MAX_BODY // 2**20} MB")
        # arXiv answers a query it cannot run with HTTP 400 *and* an error feed saying why:
        # parse first, so the reason reaches the person.
        try:
            feed = parse_feed(body)
        except ArxivBadResponseError:
            if status != 200:
                raise ArxivBadResponseError(f"HTTP {status}") from None
            raise
        if status != 200:
            raise ArxivBadResponseError(f"HTTP {status}")
        return feed

    async def _wait_turn(self) -> None:
        if self._last_request is None:
            return
        wait = self._last_request + self._settings.min_interval_seconds - self._clock.monotonic()
        if wait > 0:
            await self._clock.sleep(wait)


async def _read_bounded(response: aiohttp.ClientResponse) -> bytes:
    """The body, or its first _MAX_BODY + 1 bytes: enough to tell that it is too large."""
    chunks, size = [], 0
    async for chunk in response.content.iter_chunked(64 * 1024):
        chunks.append(chunk)
        size += len(chunk)
        if size > _MAX_BODY:
            break
    return b"".join(chunks)


class _Retryable(Exception):
    """A failure that may pass: a 5xx, a timeout, a dropped connection."""
