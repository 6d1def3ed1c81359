"""The candidates cache runs on the engine's clock: a catalogue change reaches the pickers
within `CANDIDATES_TTL` seconds, and not a read sooner."""

from __future__ import annotations

from bot.digests.content import CANDIDATES_TTL, DigestContent
from bot.domain.models import AwardKind
from bot.domain.subscriptions import DigestFilter
from bot.render.chart_fonts import ChartFonts
from bot.render.i18n import Strings
from bot.store.digest_content import DigestContentRepository
from bot.store.editions import EditionRepository
from bot.store.papers import PaperRepository
from tests.digests.conftest import Rig
from tests.support.clock import ManualClock


class CountingContent(DigestContentRepository):
    reads = 0

    async def paper_ids(self, filters: DigestFilter, kind: AwardKind | None = None) -> list[int]:
        self.reads += 1
        return await super().paper_ids(filters, kind)


async def test_candidates_are_read_again_only_once_their_time_is_up(rig: Rig) -> None:
    clock = ManualClock()
    repository = CountingContent(rig.db)
    content = DigestContent(
        repository,
        PaperRepository(rig.db),
        EditionRepository(rig.db),
        Strings.load(),
        ChartFonts(),
        clock,
    )
    sub = await rig.subscribe(filters=DigestFilter(venue="icml"))
    await content.check_not_empty(sub)
    clock.advance(CANDIDATES_TTL - 1)
    await content.check_not_empty(sub)
    assert repository.reads == 1
    clock.advance(1)
    await content.check_not_empty(sub)
    assert repository.reads == 2
