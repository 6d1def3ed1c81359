"""What loading the bundled catalogue and completing it from arXiv read and write through.

A composition root (`bot/app.py`, `bot/cli/`, the console, a test or a benchmark) makes these
from the one database and clock it holds and hands them in; the loaders in `bundled.py` and
`arxiv/` make no repository of their own, so the audit rows they cause carry the root's clock.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain.clock import Clock
from bot.store.bot_state import BotStateRepository
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.enrichment import EnrichmentRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database


@dataclass(frozen=True, slots=True)
class CatalogParts:
    catalog: CatalogRepository  # the one write path, stamped by the root's clock
    editions: EditionRepository
    papers: PaperRepository
    enrichment: EnrichmentRepository
    state: BotStateRepository  # what was applied or looked up already

    @classmethod
    def over(cls, db: Database, clock: Clock) -> CatalogParts:
        """The parts over `db`, for a root that holds no repositories of its own (the CLI,
        tests, benchmarks); the bot hands in its own instead (`LaurelBot`)."""
        return cls(
            catalog=CatalogRepository(db, clock),
            editions=EditionRepository(db),
            papers=PaperRepository(db),
            enrichment=EnrichmentRepository(db),
            state=BotStateRepository(db),
        )
