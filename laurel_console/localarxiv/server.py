"""LocalArxiv: a loopback stand-in for the arXiv API, answering from recorded replies.

    async with LocalArxiv(recordings_dir) as arxiv:      # serves on 127.0.0.1, any free port
        settings = ArxivSettings(base_url=arxiv.url)
        arxiv.faults.fail(2, status=503)                 # the next two requests get a 503
        arxiv.faults.delay(1, seconds=30)                # the one after that hangs 30 s
        ...
        arxiv.requests                                   # when each request came, and what for

Answers: a request repeating a recorded one gets that reply byte for byte; any other request for
ids gets a feed built from the recorded entries of those ids (unknown ids are simply absent, as
on arXiv); a title query (`search_query=ti:"…"`, terms joined by AND) gets the recorded entries
whose titles hold each phrase, as arXiv matches a phrase (case, accents and punctuation aside);
a malformed id or parameter gets arXiv's error feed with HTTP 400. Other searches find nothing
unless recorded.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from aiohttp import web

from bot.domain.identifiers import ArxivId
from bot.domain.text import title_key
from laurel_console.localarxiv import feeds
from laurel_console.localarxiv.recordings import Recording, entries_of, load, query_key

ATOM_TYPE = "application/atom+xml"
# arXiv's own check of an id's form, looser than Laurel's parser: it answers 0000.0000 or
# 0808.05394 with an empty feed (as recorded), and only what fails this with an error.
_ID_FORM = re.compile(
    r"(?P<id>[0-9]{4}\.[0-9]{4,5}|[a-z]+(?:-[a-z]+)*(?:\.[A-Z]{2})?/[0-9]{7})(?:v(?P<v>[0-9]+))?"
)
_TITLE_TERM = re.compile(r'ti:(?:"(?P<phrase>[^"]*)"|(?P<word>[^\s"()]+))')
_AND = re.compile(r"\s+AND\s+")


@dataclass(frozen=True, slots=True)
class RecordedRequest:
    at: float
    search_query: str
    ids: tuple[str, ...]
    start: str
    max_results: str
    status: int


@dataclass(slots=True)
class Faults:
    """What the next requests will suffer, in order: a status code, a delay in seconds, or
    nothing (None: answered as usual, so a fault can be planned for a later request)."""

    planned: list[int | float | None] = field(default_factory=list)

    def answer(self, count: int = 1) -> None:
        self.planned += [None] * count

    def fail(self, count: int = 1, *, status: int = 503) -> None:
        self.planned += [status] * count

    def delay(self, count: int = 1, *, seconds: float) -> None:
        self.planned += [float(seconds)] * count

    def next(self) -> int | float | None:
        return self.planned.pop(0) if self.planned else None


class LocalArxiv:
    def __init__(
        self,
        recordings_dir: Path | None = None,
        *,
        synthesize: bool = False,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.recordings: list[Recording] = load(recordings_dir) if recordings_dir else []
        self._verbatim = {r.key: r for r in self.recordings}
        self.entries = entries_of(self.recordings)
        self.synthesize = synthesize
        self.faults = Faults()
        self.requests: list[RecordedRequest] = []
        self._clock = clock
        # Set when the stand-in stops, so that a delayed reply does not outlive it.
        self._stopping = asyncio.Event()
        self.app = web.Application()
        self.app.router.add_get("/api/query", self._query)
        self._runner: web.AppRunner | None = None
        self.url = ""

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> LocalArxiv:
        self._runner = web.AppRunner(self.app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        bound_host, bound_port = self._runner.addresses[0][:2]
        self.url = f"http://{bound_host}:{bound_port}/api/query"
        return self

    async def stop(self) -> None:
        self._stopping.set()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> LocalArxiv:
        return await self.start()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.stop()

    # -- answering -----------------------------------------------------------------------
    async def _query(self, request: web.Request) -> web.Response:
        key = query_key(request.query)
        search_query, id_list, start, max_results = key
        fault = self.faults.next()
        status, body = (fault, b"") if isinstance(fault, int) else self._answer(key)
        self.requests.append(
            RecordedRequest(
                self._clock(),
                search_query,
                tuple(id_list.split(",")) if id_list else (),
                start,
                max_results,
                status,
            )
        )
        if isinstance(fault, float):
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stopping.wait(), fault)
        if status >= 500:
            return web.Response(status=status, text="Service Unavailable")
        return web.Response(status=status, body=body, content_type=ATOM_TYPE, charset="utf-8")

    def _answer(self, key: tuple[str, str, str, str]) -> tuple[int, bytes]:
        recorded = self._verbatim.get(key)
        if recorded is not None:
            return recorded.status, recorded.body
        search_query, id_list, start, max_results = key
        problem = _problem(id_list, start, max_results)
        if problem is not None:
            return 400, feeds.error_feed(
                problem,
                search_query=search_query,
                id_list=id_list,
                start=start,
                max_results=max_results,
            )
        if search_query and not id_list:
            found = self._titled(search_query)
        else:
            found = self._entries_for(id_list.split(",") if id_list else [])
        first, count = int(start), int(max_results)
        return 200, feeds.results_feed(
            found[first : first + count],
            search_query=search_query,
            id_list=id_list,
            start=first,
            max_results=count,
            total=len(found),
        )

    def _entries_for(self, ids: list[str]) -> list[str]:
        """The entries for `ids`, in the order asked; a search with no recording finds nothing."""
        found = []
        for text in ids:
            form = _ID_FORM.fullmatch(text)
            assert form is not None  # _problem() has refused the query otherwise
            asked = ArxivId(form["id"], int(form["v"]) if form["v"] else None)
            recorded = self.entries.get(asked.id)
            if recorded is not None and asked.version in (None, recorded.version):
                found.append(recorded.xml)
            elif recorded is None and self.synthesize:
                found.append(feeds.synthetic_entry(asked))
        return found

    def _titled(self, search_query: str) -> list[str]:
        """The recorded entries whose titles hold every phrase of a `ti:` query."""
        phrases = _title_phrases(search_query)
        if not phrases:
            return []
        return [
            entry.xml
            for entry in self.entries.values()
            if all(f" {p} " in f" {title_key(entry.title)} " for p in phrases)
        ]


def _title_phrases(search_query: str) -> list[str]:
    """The phrases of `ti:"a b" AND ti:c` as title keys; none for any other search."""
    phrases = []
    for term in _AND.split(search_query.strip()):
        match = _TITLE_TERM.fullmatch(term)
        if match is None:
            return []
        phrases.append(title_key(match["phrase"] or match["word"] or ""))
    return phrases if all(phrases) else []


def _problem(id_list: str, start: str, max_results: str) -> str | None:
    """What arXiv would refuse in these parameters, in arXiv's words."""
    if not start.isdigit():
        return "start must be an integer"
    if not max_results.isdigit():
        return "max_results must be an integer"
    for text in id_list.split(",") if id_list else []:
        if _ID_FORM.fullmatch(text) is None:
            return f"incorrect id format for {text}"
    return None


async def serve(recordings_dir: Path | None, host: str, port: int, *, synthesize: bool) -> None:
    """Run the stand-in until cancelled (Ctrl-C), printing where it listens."""
    arxiv = await LocalArxiv(recordings_dir, synthesize=synthesize).start(host, port)
    try:
        print(
            f"localarxiv: serving {len(arxiv.entries)} recorded entries at {arxiv.url}"
            + (" (unknown ids get synthetic entries)" if synthesize else ""),
            flush=True,
        )
        await asyncio.Event().wait()
    finally:
        await arxiv.stop()
