"""`laurel enrich`: fill in what imported papers lack from arXiv.

enrich reads the papers with an arXiv id that lack an abstract, authors or links, asks arXiv for
them many ids at a time and one request every `min_interval_seconds`, and writes each batch as it
comes; then it looks up the papers with no arXiv id by exact title, one a request, and takes a
match only when it is unique and of a plausible year. A dry run fetches the same and writes
nothing. Stopped part-way, it keeps what it wrote: run it again to do the rest. To try it
without the network:

    laurel localarxiv --port 8765 --synthesize &        # recorded replies, made-up for the rest
    laurel enrich --dry-run --base-url http://127.0.0.1:8765/api/query
"""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

import aiohttp
from tqdm import tqdm

from bot import __version__
from bot.catalog.arxiv.client import ArxivClient
from bot.catalog.arxiv.enrich import EnrichReport
from bot.catalog.arxiv.enrich_job import plan_enrich
from bot.catalog.arxiv.enrich_job import run_enrich as run_job
from bot.catalog.parts import CatalogParts
from bot.cli.common import clock_of, open_database
from bot.render.i18n import Strings
from bot.settings import ArxivSettings, Settings


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "enrich", help="fill in abstracts, authors and links of papers from arXiv"
    )
    parser.add_argument("--dry-run", action="store_true", help="fetch and show; write nothing")
    parser.add_argument("--limit", type=_positive, help="at most this many papers")
    parser.add_argument(
        "--batch", type=_positive, help="ids per request (default: [arxiv] ids_per_request)"
    )
    parser.add_argument("--base-url", help="the arXiv API (default: [arxiv] base_url)")
    parser.add_argument(
        "--retry-missing",
        action="store_true",
        help="ask again for ids arXiv did not know, and titles it did not match, in an earlier run",
    )
    parser.set_defaults(handler=run_enrich)


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:  # argparse would say "invalid _positive value"
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def arxiv_settings(settings: Settings, args: argparse.Namespace) -> ArxivSettings:
    update: dict[str, Any] = {}
    if args.base_url:
        update["base_url"] = args.base_url
    if args.batch:
        update["ids_per_request"] = args.batch
    return ArxivSettings.model_validate({**settings.arxiv.model_dump(), **update})


async def run_enrich(settings: Settings, args: argparse.Namespace) -> int:
    options = arxiv_settings(settings, args)
    async with await open_database(settings, args, create=False) as db:
        parts = CatalogParts.over(db, clock_of(args))
        todo = await plan_enrich(parts, limit=args.limit, retry_missing=args.retry_missing)
        print(plan_line(len(todo.by_id), options))
        if todo.by_title:
            print(title_plan_line(len(todo.by_title), options))
        if not todo:
            return 0
        headers = {"User-Agent": f"laurel/{__version__} (laurel enrich)"}
        async with aiohttp.ClientSession(headers=headers) as session:
            client = ArxivClient(session, options, clock=clock_of(args))
            with tqdm(
                total=len(todo), unit="paper", disable=None, file=sys.stderr, leave=False
            ) as bar:
                report = await run_job(
                    parts,
                    client,
                    todo,
                    batch=options.ids_per_request,
                    dry_run=args.dry_run,
                    progress=bar.update,
                )
    return print_report(report, dry_run=args.dry_run)


def plan_line(todo: int, options: ArxivSettings) -> str:
    """How many papers, in how many requests, and how long that takes at the polite rate."""
    requests = math.ceil(todo / options.ids_per_request)
    seconds = max(requests - 1, 0) * options.min_interval_seconds
    return (
        f"{todo} paper{'s' if todo != 1 else ''} to complete from arXiv: {requests} "
        f"request{'s' if requests != 1 else ''} of up to {options.ids_per_request} ids, "
        f"one every {options.min_interval_seconds:g} s (at least {seconds:g} s of waiting)"
    )


def title_plan_line(todo: int, options: ArxivSettings) -> str:
    seconds = todo * options.min_interval_seconds
    return (
        f"{todo} paper{'s' if todo != 1 else ''} without an arXiv id to look up by title: "
        f"one request each (about {seconds:g} s more)"
    )


def print_report(report: EnrichReport, *, dry_run: bool) -> int:
    verb = "would fill" if dry_run else "filled"
    for filled in report.filled:
        print(f"{verb}  arXiv:{filled.arxiv} “{filled.title[:70]}”  [{', '.join(filled.fields)}]")
    for arxiv_id in report.not_found:
        print(f"not on arXiv  {arxiv_id}")
    for miss in report.ambiguous:
        found = ", ".join(f"arXiv:{c}" for c in miss.candidates)
        print(f"ambiguous title  “{miss.title[:70]}”: {found} (left alone)")
    for title in report.title_not_found:
        print(f"no title match  “{title[:70]}”")
    for miss in report.taken:
        print(f"title match held by another paper  “{miss.title[:70]}”: {miss.candidates[0]}")
    for rejection in report.rejected:
        print(f"reject  {rejection.where}: {rejection.reason}")
    print(report.summary(dry_run=dry_run))
    if dry_run:
        print("dry run: nothing was written")
    elif report.not_found or report.title_not_found or report.ambiguous or report.taken:
        print(
            "ids arXiv did not know and titles left unmatched are skipped from now on "
            "(--retry-missing asks again)"
        )
    if report.stopped_by is not None:
        error = report.stopped_by
        text = Strings.load().text(error.key, "en", **error.params)
        print(f"laurel: {text}", file=sys.stderr)
        print(
            "laurel: what was filled is kept; run `laurel enrich` again for the rest",
            file=sys.stderr,
        )
        return 1
    return 0
