"""One enrich run, as `laurel enrich` and a starting bot (`[arxiv] enrich_on_start`) do it.

Papers with an arXiv id first, many ids a request; then papers without one, a title a request.
Both share the client's pace (one request every `min_interval_seconds`, whoever asks), so a
curator's /curate paper add waits its turn rather than doubling the rate.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot.catalog.arxiv.client import ArxivClient
from bot.catalog.arxiv.enrich import EnrichReport, enrich, to_enrich
from bot.catalog.arxiv.titles import resolve_titles, to_resolve
from bot.catalog.parts import CatalogParts
from bot.store.catalog.enrichment import Incomplete

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class EnrichPlan:
    by_id: list[Incomplete]
    by_title: list[Incomplete]

    def __len__(self) -> int:
        return len(self.by_id) + len(self.by_title)


async def plan_enrich(
    parts: CatalogParts, *, limit: int | None = None, retry_missing: bool = False
) -> EnrichPlan:
    """What a run would ask arXiv about: at most `limit` papers, those with an id first."""
    by_id = await to_enrich(parts, limit=limit, retry_missing=retry_missing)
    rest = None if limit is None else limit - len(by_id)
    by_title = await to_resolve(parts, limit=rest, retry_missing=retry_missing) if rest != 0 else []
    return EnrichPlan(by_id, by_title)


async def run_enrich(
    parts: CatalogParts,
    client: ArxivClient,
    plan: EnrichPlan,
    *,
    batch: int,
    dry_run: bool = False,
    progress: Callable[[int], object] | None = None,
) -> EnrichReport:
    """Fill what `plan` names from arXiv, writing through `parts.catalog`."""
    report = await enrich(
        parts, client, plan.by_id, batch=batch, dry_run=dry_run, progress=progress
    )
    if report.stopped_by is None and plan.by_title:
        await resolve_titles(
            parts, client, plan.by_title, report, dry_run=dry_run, progress=progress
        )
    return report


async def enrich_in_background(parts: CatalogParts, client: ArxivClient, *, batch: int) -> None:
    """A starting bot's enrich run: logged, never raised (the bot serves on regardless). Its
    audit rows carry the bot's clock, through the bot's own `parts.catalog`."""
    try:
        plan = await plan_enrich(parts)
        if not plan:
            log.info("enrich: every paper is as complete as arXiv can make it")
            return
        log.info(
            "enrich: %d papers to complete by arXiv id, %d to look up by title",
            len(plan.by_id),
            len(plan.by_title),
        )
        report = await run_enrich(parts, client, plan, batch=batch)
    except asyncio.CancelledError:
        log.info("enrich: stopped (the bot is closing); what was written is kept")
        raise
    except Exception:
        log.exception("enrich: failed; what was written is kept, the next start does the rest")
        return
    for line in report.summary(dry_run=False).splitlines():
        log.info("enrich: %s", line)
    if report.stopped_by is not None:
        log.warning(
            "enrich: arXiv stopped answering (%s); the next start does the rest",
            report.stopped_by.params,
        )
