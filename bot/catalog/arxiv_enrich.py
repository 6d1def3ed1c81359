"""`laurel enrich`: complete imported papers from arXiv, a batch at a time, through the one write.

Each batch of papers is fetched in one request and written in one transaction (fill policy,
actor "enrich"), so an interruption loses at most the batch in flight. Papers already complete
are never asked for again: a second run does only what the first did not finish.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from bot.catalog.arxiv import ArxivClient, ArxivError
from bot.catalog.arxiv_paper import missing_from
from bot.domain.identifiers import ArxivId
from bot.domain.models import Award, CatalogBatch, Rejection
from bot.store.catalog import CatalogRepository
from bot.store.database import Database
from bot.store.enrichment import EnrichmentRepository, Incomplete

ACTOR = "enrich"


@dataclass(frozen=True, slots=True)
class Filled:
    arxiv: str
    title: str
    fields: tuple[str, ...]


@dataclass(slots=True)
class EnrichReport:
    considered: int = 0
    filled: list[Filled] = field(default_factory=list)
    not_found: list[str] = field(default_factory=list)
    nothing_new: int = 0
    rejected: list[Rejection] = field(default_factory=list)
    # Set when arXiv failed part-way: the batches before it are written, a re-run does the rest.
    stopped_by: ArxivError | None = None

    def summary(self, *, dry_run: bool) -> str:
        verb = "would fill" if dry_run else "filled"
        return (
            f"{self.considered} papers lacked something: {verb} {len(self.filled)}, "
            f"{len(self.not_found)} not on arXiv, {self.nothing_new} with nothing new, "
            f"{len(self.rejected)} rejected"
        )


async def enrich(
    db: Database,
    client: ArxivClient,
    *,
    batch: int,
    limit: int | None = None,
    dry_run: bool = False,
    progress: Callable[[int], object] | None = None,
) -> EnrichReport:
    """Fill what incomplete papers lack from arXiv; with `dry_run`, rehearse and roll back."""
    todo = await EnrichmentRepository(db).incomplete(limit=limit)
    report = EnrichReport(considered=len(todo))
    catalog = CatalogRepository(db)
    for start in range(0, len(todo), batch):
        chunk = todo[start : start + batch]
        try:
            awards = await _fetch_gaps(client, chunk, report)
        except ArxivError as exc:
            report.stopped_by = exc
            return report
        if awards:
            plan = await catalog.apply(
                CatalogBatch(awards=tuple(awards)), actor=ACTOR, policy="fill", dry_run=dry_run
            )
            report.rejected += plan.rejected
        if progress:
            progress(len(chunk))
    return report


async def _fetch_gaps(
    client: ArxivClient, chunk: list[Incomplete], report: EnrichReport
) -> list[Award]:
    # The latest version is asked for, whatever revision the import named: its abstract is
    # the one arXiv shows, and the writer keeps the higher version number.
    result = await client.fetch([ArxivId(item.paper.arxiv or "") for item in chunk])
    by_id = {entry.id.id: entry for entry in result.entries}
    awards = []
    for item in chunk:
        entry = by_id.get(item.paper.arxiv or "")
        if entry is None:
            report.not_found.append(item.paper.arxiv or "")
            continue
        gaps = missing_from(item.paper, entry)
        if gaps is None:
            report.nothing_new += 1
            continue
        paper, fields = gaps
        if fields:
            report.filled.append(Filled(entry.id.id, item.paper.title, fields))
        else:
            report.nothing_new += 1
        awards.append(item.award.model_copy(update={"paper": paper}))
    return awards
