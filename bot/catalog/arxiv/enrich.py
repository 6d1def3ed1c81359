"""`laurel enrich`: complete imported papers from arXiv, a batch at a time, through the one write.

Each batch of papers is fetched in one request and written in one transaction (fill policy,
actor "enrich"), so an interruption loses at most the batch in flight. Papers already complete
are never asked for again, nor are ids arXiv did not know or could not complete (an author list
a source cut short that arXiv's does not extend, say), remembered in bot_state until a run with
`retry_missing`: a second run does only what the first did not finish. Papers with no
arXiv id are looked up by title (bot.catalog.arxiv.titles) and written the same way.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from bot.catalog.arxiv.client import ArxivClient, ArxivError
from bot.catalog.arxiv.paper import missing_from
from bot.catalog.parts import CatalogParts
from bot.domain.identifiers import ArxivId
from bot.domain.models import Award, CatalogBatch, Paper, Rejection
from bot.domain.writes import Policy
from bot.store.bot_state import BotStateRepository
from bot.store.catalog.enrichment import Incomplete
from bot.store.catalog.repository import CatalogRepository

ACTOR = "enrich"
# bot_state: the arXiv ids arXiv answered nothing for, or nothing that completes the paper
NOT_ON_ARXIV = "enrich.not_on_arxiv"


@dataclass(frozen=True, slots=True)
class Filled:
    arxiv: str
    title: str
    fields: tuple[str, ...]
    # arXiv's author list replaces one a source cut short: written with the "update" policy
    # (fill would keep the short list and file arXiv's as an alternative).
    completes_authors: bool = False


@dataclass(frozen=True, slots=True)
class TitleMiss:
    """A paper looked up by title and left alone: its title, and the arXiv ids that matched."""

    title: str
    candidates: tuple[str, ...] = ()


@dataclass(slots=True)
class EnrichReport:
    considered: int = 0
    filled: list[Filled] = field(default_factory=list)
    not_found: list[str] = field(default_factory=list)
    nothing_new: int = 0
    rejected: list[Rejection] = field(default_factory=list)
    # Papers without an arXiv id, looked up by title: how many were asked about, and those
    # whose title matched several papers, none, or one whose id another paper already holds.
    looked_up: int = 0
    ambiguous: list[TitleMiss] = field(default_factory=list)
    title_not_found: list[str] = field(default_factory=list)
    taken: list[TitleMiss] = field(default_factory=list)
    # Set when arXiv failed part-way: the batches before it are written, a re-run does the rest.
    stopped_by: ArxivError | None = None

    @property
    def by_title(self) -> list[Filled]:
        """The papers that got their arXiv id from a title match."""
        return [f for f in self.filled if "arxiv" in f.fields]

    @property
    def abstracts(self) -> int:
        return sum("abstract" in f.fields for f in self.filled)

    def summary(self, *, dry_run: bool) -> str:
        verb = "would fill" if dry_run else "filled"
        by_id = len(self.filled) - len(self.by_title)
        text = (
            f"{self.considered} papers lacked something: {verb} {by_id}, "
            f"{len(self.not_found)} not on arXiv, {self.nothing_new} with nothing new, "
            f"{len(self.rejected)} rejected"
        )
        if self.looked_up:
            text += (
                f"\n{self.looked_up} papers without an arXiv id looked up by title: "
                f"{len(self.by_title)} ids found, {len(self.ambiguous)} ambiguous, "
                f"{len(self.title_not_found)} not found"
                + (f", {len(self.taken)} already another paper's" if self.taken else "")
            )
        return text + f"\n{self.abstracts} abstracts {'to fill' if dry_run else 'filled'}"


async def to_enrich(
    parts: CatalogParts, *, limit: int | None = None, retry_missing: bool = False
) -> list[Incomplete]:
    """The papers a run would ask arXiv about, in order."""
    skip = set() if retry_missing else await _not_on_arxiv(parts.state)
    todo = [i for i in await parts.enrichment.incomplete() if i.paper.arxiv not in skip]
    return todo[:limit]


async def enrich(
    parts: CatalogParts,
    client: ArxivClient,
    todo: list[Incomplete],
    *,
    batch: int,
    dry_run: bool = False,
    progress: Callable[[int], object] | None = None,
) -> EnrichReport:
    """Fill what the papers `todo` lack from arXiv, through `parts.catalog` (stamped by the
    root's clock); with `dry_run`, rehearse and write nothing."""
    report = EnrichReport(considered=len(todo))
    state = parts.state
    for start in range(0, len(todo), batch):
        chunk = todo[start : start + batch]
        missing_before = len(report.not_found)
        try:
            gaps = await _fetch_gaps(client, chunk, report)
        except ArxivError as exc:
            report.stopped_by = exc
            return report
        if gaps:
            await write_gaps(parts.catalog, gaps, report, dry_run=dry_run)
        if not dry_run:
            asked = {item.paper.arxiv or "" for item in chunk}
            left = {i.paper.arxiv or "" for i in await parts.enrichment.incomplete()}
            await _remember(state, asked, [*report.not_found[missing_before:], *(asked & left)])
        if progress:
            progress(len(chunk))
    return report


async def _not_on_arxiv(state: BotStateRepository) -> set[str]:
    stored = await state.get(NOT_ON_ARXIV)
    return set(json.loads(stored)) if stored else set()


async def _remember(state: BotStateRepository, asked: set[str], missing: list[str]) -> None:
    """Record which of the ids just `asked` arXiv did not know (and forget those it now knows)."""
    before = await _not_on_arxiv(state)
    after = (before - asked) | set(missing)
    if after != before:
        await state.put(NOT_ON_ARXIV, json.dumps(sorted(after)))


async def _fetch_gaps(
    client: ArxivClient, chunk: list[Incomplete], report: EnrichReport
) -> list[tuple[Award, Filled]]:
    """Each paper of `chunk` that arXiv can complete: the award carrying its gaps, and them."""
    # The latest version is asked for, whatever revision the import named: its abstract is
    # the one arXiv shows, and the writer keeps the higher version number.
    result = await client.fetch([ArxivId(item.paper.arxiv or "") for item in chunk])
    by_id = {entry.id.id: entry for entry in result.entries}
    gaps = []
    for item in chunk:
        entry = by_id.get(item.paper.arxiv or "")
        if entry is None:
            report.not_found.append(item.paper.arxiv or "")
            continue
        found = missing_from(item.paper, entry)
        if found is None:
            report.nothing_new += 1
            continue
        paper, fields = found
        award = item.award.model_copy(update={"paper": paper})
        gaps.append((award, filled(entry.id.id, item.paper, fields)))
    return gaps


def filled(arxiv: str, stored: Paper, fields: tuple[str, ...]) -> Filled:
    return Filled(arxiv, stored.title, fields, bool(stored.authors) and "authors" in fields)


async def write_gaps(
    catalog: CatalogRepository,
    gaps: list[tuple[Award, Filled]],
    report: EnrichReport,
    *,
    dry_run: bool,
) -> None:
    """Write each paper's gaps through its award (fill policy; "update" for an author list that
    completes a cut-short one); count what was written."""
    fills = [(a, f) for a, f in gaps if not f.completes_authors]
    completions = [(a, f) for a, f in gaps if f.completes_authors]
    groups: tuple[tuple[list[tuple[Award, Filled]], Policy], ...] = (
        (fills, "fill"),
        (completions, "update"),
    )
    for group, policy in groups:
        if group:
            await _write_group(catalog, group, report, policy=policy, dry_run=dry_run)


async def _write_group(
    catalog: CatalogRepository,
    gaps: list[tuple[Award, Filled]],
    report: EnrichReport,
    *,
    policy: Policy,
    dry_run: bool,
) -> None:
    awards = [award for award, _ in gaps]
    written, rejected = await _apply(catalog, awards, policy=policy, dry_run=dry_run)
    # The one likely rejection: arXiv gives a DOI that another paper already holds. Such a
    # paper is filled without it, and the first rejection is reported so a curator can look.
    retry = [(a, f) for a, f in gaps if f.arxiv not in written and a.paper.doi is not None]
    if retry:
        without_doi = [_without_doi(award) for award, _ in retry]
        again, _ = await _apply(catalog, without_doi, policy=policy, dry_run=dry_run)
        written |= again
        gaps = [
            (a, f) if (a, f) not in retry else (a, replace(f, fields=_drop(f.fields, "doi")))
            for a, f in gaps
        ]
    report.rejected += rejected
    for _, filled in gaps:
        if filled.arxiv not in written:
            continue
        if filled.fields:
            report.filled.append(filled)
        else:
            report.nothing_new += 1  # only a newer version number


async def _apply(
    catalog: CatalogRepository, awards: list[Award], *, policy: Policy, dry_run: bool
) -> tuple[set[str], list[Rejection]]:
    """Write `awards`; the arXiv ids of the papers written, and the records rejected."""
    batch = CatalogBatch(awards=tuple(awards))
    plan = await catalog.apply(batch, actor=ACTOR, policy=policy, dry_run=dry_run)
    # A rejected record leaves no change behind; a paper's change is labelled "… arXiv:<id>".
    written = {c.label.rsplit(" arXiv:", 1)[-1] for c in plan.changes if c.entity == "paper"}
    return written, plan.rejected


def _without_doi(award: Award) -> Award:
    sources = tuple(
        s.model_copy(update={"covers": _drop(s.covers, "doi")}) for s in award.paper.sources
    )
    paper = award.paper.model_copy(update={"doi": None, "sources": sources})
    return award.model_copy(update={"paper": paper})


def _drop(fields: tuple[str, ...], name: str) -> tuple[str, ...]:
    return tuple(f for f in fields if f != name)
