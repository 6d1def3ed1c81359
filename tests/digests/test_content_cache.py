"""The candidates cache runs on the engine's clock: a catalogue change reaches the pickers
within `CANDIDATES_TTL` seconds, and not a read sooner. A paper's post body is read and
rendered once per language for as long, and each post still carries its own marker."""

from __future__ import annotations

import pytest

from bot.digests.content import BODIES_TTL, CANDIDATES_TTL, ContentGone, DigestContent
from bot.digests.themes import ThemeRegistry
from bot.domain.models import AwardKind, Language, StoredPaper
from bot.domain.subscriptions import DigestFilter, Theme
from bot.render.chart_fonts import ChartFonts
from bot.render.digest_posts import Frame, marker_in, paper_post
from bot.render.i18n import Strings
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.digest_content import DigestContentRepository
from tests.support.clock import ManualClock
from tests.support.digests import Rig


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
        ThemeRegistry.shipped(),
    )
    sub = await rig.subscribe(filters=DigestFilter(venue="icml"))
    await content.check_not_empty(sub)
    clock.advance(CANDIDATES_TTL - 1)
    await content.check_not_empty(sub)
    assert repository.reads == 1
    clock.advance(1)
    await content.check_not_empty(sub)
    assert repository.reads == 2


class CountingPapers(PaperRepository):
    reads = 0
    gone = False

    async def get(self, paper_id: int) -> StoredPaper | None:
        self.reads += 1
        return None if self.gone else await super().get(paper_id)


def content_on(rig: Rig, papers: PaperRepository, clock: ManualClock) -> DigestContent:
    return DigestContent(
        DigestContentRepository(rig.db),
        papers,
        EditionRepository(rig.db),
        Strings.load(),
        ChartFonts(),
        clock,
        ThemeRegistry.shipped(),
    )


def frame(marker: str, language: Language = "en") -> Frame:
    return Frame(Theme.PAPER_OF_THE_DAY, "2026-03-02", language, None, marker)


async def test_a_papers_body_is_rendered_once_a_language_and_each_post_keeps_its_marker(
    rig: Rig,
) -> None:
    papers = CountingPapers(rig.db)
    content = content_on(rig, papers, ManualClock())
    sub = await rig.subscribe()
    paper = (await DigestContentRepository(rig.db).paper_ids(DigestFilter()))[0]
    first = await content.render(sub, {"paper": paper}, frame("L1-aaaaaa"))
    second = await content.render(sub, {"paper": paper}, frame("L2-bbbbbb"))
    assert papers.reads == 1
    assert first.embeds[0].footer.text is not None
    assert marker_in(first.embeds[0].footer.text) == "L1-aaaaaa"
    assert second.embeds[0].footer.text is not None
    assert marker_in(second.embeds[0].footer.text) == "L2-bbbbbb"
    assert "L2-bbbbbb" not in second.embeds[0].footer.text  # hidden from members
    # The cached body makes the very post an uncached render would.
    stored = await PaperRepository(rig.db).get(paper)
    assert stored is not None
    direct = paper_post(frame("L2-bbbbbb"), stored, Strings.load())
    assert second.embeds[0].to_dict() == direct.embeds[0].to_dict()
    assert second.content == direct.content
    chinese = await content.render(sub, {"paper": paper}, frame("L3-cccccc", "zh-TW"))
    assert papers.reads == 2
    assert chinese.embeds[0].to_dict() == (
        paper_post(frame("L3-cccccc", "zh-TW"), stored, Strings.load()).embeds[0].to_dict()
    )


async def test_a_removed_paper_is_no_longer_posted_once_its_body_expires(rig: Rig) -> None:
    clock = ManualClock()
    papers = CountingPapers(rig.db)
    content = content_on(rig, papers, clock)
    sub = await rig.subscribe()
    paper = (await DigestContentRepository(rig.db).paper_ids(DigestFilter()))[0]
    await content.render(sub, {"paper": paper}, frame("L1-aaaaaa"))
    papers.gone = True  # a curator removed it
    clock.advance(BODIES_TTL - 1)
    await content.render(sub, {"paper": paper}, frame("L2-bbbbbb"))
    clock.advance(1)
    with pytest.raises(ContentGone):
        await content.render(sub, {"paper": paper}, frame("L3-cccccc"))
    assert papers.reads == 2
