"""Finding the arXiv id of a paper that has none, by its exact title.

arXiv is asked for the title as a phrase (`ti:"…"`, one title a request, at the client's shared
pace). An entry is taken only when its title is the paper's (`title_key`: case, accents,
punctuation and spacing aside) and arXiv first published it in the paper's year or the two
before (a preprint comes before its venue, not years after). Several such entries with
different ids are ambiguous: the paper is left alone and counted. An id another paper holds is
never given to a second one (the writer would merge the two), nor is a DOI.

Papers looked up in vain are remembered in bot_state, as ids arXiv did not know are, so a
second run asks only about papers it has not asked about (`retry_missing` asks again).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from bot.catalog.arxiv.client import ArxivClient, ArxivEntry, ArxivError
from bot.catalog.arxiv.enrich import EnrichReport, Filled, TitleMiss, filled, write_gaps
from bot.catalog.arxiv.paper import arxiv_source, missing_from
from bot.catalog.parts import CatalogParts
from bot.domain.models import Award
from bot.domain.text import title_key
from bot.store.bot_state import BotStateRepository
from bot.store.catalog.enrichment import Incomplete
from bot.store.catalog.papers import PaperRepository

UNRESOLVED = "enrich.title_unresolved"  # bot_state: ids of papers a title lookup did not settle
YEARS_BEFORE = 2  # an arXiv preprint may come out this many years before the paper's venue


class Outcome(StrEnum):
    FOUND = "found"
    AMBIGUOUS = "ambiguous"
    NOT_FOUND = "not-found"


@dataclass(frozen=True, slots=True)
class TitleMatch:
    outcome: Outcome
    entry: ArxivEntry | None = None
    candidates: tuple[str, ...] = ()


def match_title(title: str, year: int, entries: Sequence[ArxivEntry]) -> TitleMatch:
    """The one entry of `entries` that is the paper titled `title` of `year`, if exactly one is."""
    key = title_key(title)
    plausible: dict[str, ArxivEntry] = {}
    for entry in entries:
        published = entry.published.year if entry.published else None
        if title_key(entry.title) != key or published is None:
            continue
        if year - YEARS_BEFORE <= published <= year:
            plausible.setdefault(entry.id.id, entry)
    if not plausible:
        return TitleMatch(Outcome.NOT_FOUND)
    if len(plausible) > 1:
        return TitleMatch(Outcome.AMBIGUOUS, candidates=tuple(sorted(plausible)))
    (entry,) = plausible.values()
    return TitleMatch(Outcome.FOUND, entry, (entry.id.id,))


async def to_resolve(
    parts: CatalogParts, *, limit: int | None = None, retry_missing: bool = False
) -> list[Incomplete]:
    """The papers without an arXiv id that a run would look up by title, in order."""
    skip = set() if retry_missing else await _unresolved(parts.state)
    todo = [i for i in await parts.enrichment.without_arxiv() if i.paper_id not in skip]
    return todo[:limit]


async def resolve_titles(
    parts: CatalogParts,
    client: ArxivClient,
    todo: list[Incomplete],
    report: EnrichReport,
    *,
    dry_run: bool = False,
    progress: Callable[[int], object] | None = None,
) -> None:
    """Look each paper of `todo` up by title; write what a unique match fills, count the rest.

    On an arXiv failure, `report.stopped_by` is set and what was found before it is kept.
    """
    state, papers, catalog = parts.state, parts.papers, parts.catalog
    for item in todo:
        report.looked_up += 1
        try:
            feed = await client.search_title(item.paper.title)
        except ArxivError as exc:
            report.stopped_by = exc
            return
        match = match_title(item.paper.title, item.year, feed.entries)
        gap = None
        if match.outcome is Outcome.FOUND and match.entry is not None:
            gap = await _gap(papers, item, match.entry, report)
        elif match.outcome is Outcome.AMBIGUOUS:
            report.ambiguous.append(TitleMiss(item.paper.title, match.candidates))
        else:
            report.title_not_found.append(item.paper.title)
        if gap is not None:
            await write_gaps(catalog, [gap], report, dry_run=dry_run)
        elif not dry_run:
            await _remember(state, item.paper_id)
        if progress:
            progress(1)


async def _gap(
    papers: PaperRepository, item: Incomplete, entry: ArxivEntry, report: EnrichReport
) -> tuple[Award, Filled] | None:
    """The award carrying what `entry` gives the paper (its id first), or None if another
    paper (live or removed) holds that id."""
    holder = await papers.holder(arxiv=entry.id.id)
    if holder is not None:
        held = f"arXiv:{entry.id.id} is paper #{holder[0]}"
        report.taken.append(TitleMiss(item.paper.title, (held,)))
        return None
    found = missing_from(item.paper, entry)
    if found is None:  # cannot happen: a paper without an id always gains one
        return None
    paper, fields = found
    doi_holder = await papers.holder(doi=paper.doi) if paper.doi else None
    if doi_holder is not None and doi_holder[0] != item.paper_id:
        paper = paper.model_copy(update={"doi": None})
        fields = tuple(f for f in fields if f != "doi")
    fields = ("arxiv", *fields)
    paper = paper.model_copy(update={"sources": (arxiv_source(entry, covers=fields),)})
    award = item.award.model_copy(update={"paper": paper})
    return award, filled(entry.id.id, item.paper, fields)


async def _unresolved(state: BotStateRepository) -> set[int]:
    stored = await state.get(UNRESOLVED)
    return set(json.loads(stored)) if stored else set()


async def _remember(state: BotStateRepository, paper_id: int) -> None:
    before = await _unresolved(state)
    if paper_id not in before:
        await state.put(UNRESOLVED, json.dumps(sorted(before | {paper_id})))
