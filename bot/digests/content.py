"""What a subscription's next post shows (chosen when its ledger row is reserved) and how it
reads (rendered from what the row recorded, so a re-send repeats the same post)."""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.digests.themes import new_awards, next_in_cycle
from bot.domain.clock import Clock
from bot.domain.models import AwardKind, Language, StoredPaper
from bot.domain.subscriptions import CycleState, DigestFilter, Subscription, Theme
from bot.errors import UserError
from bot.render.awards import AwardEntry
from bot.render.chart_fonts import ChartFonts
from bot.render.chart_labels import chart_labels
from bot.render.charts import trend_chart
from bot.render.digest_posts import (
    Frame,
    Post,
    framed,
    new_awards_post,
    numbers_post,
    paper_body,
    spotlight_post,
)
from bot.render.i18n import Strings
from bot.render.stats import has_statistics, previous_with_statistics, trend_points
from bot.store.digest_content import DigestContentRepository
from bot.store.editions import EditionRepository
from bot.store.ledger import Choice, Chooser
from bot.store.papers import PaperRepository

NEW_AWARDS_SHOWN = 20
# Candidate ids per (theme, filter) are kept this long: 10,000 subscriptions due in one minute
# share a handful of filters, and a catalogue change may take this long to reach the pickers.
CANDIDATES_TTL = 60.0
# A paper's post body per language is kept as long: a fan-out shows each of a few hundred
# papers to dozens of subscriptions, and rendering it is most of the bot's CPU a post.
BODIES_TTL = CANDIDATES_TTL
BODIES_KEPT = 5_000


class ContentGone(Exception):
    """What a row recorded is no longer in the catalogue (a curator removed it)."""


class DigestContent:
    def __init__(
        self,
        content: DigestContentRepository,
        papers: PaperRepository,
        editions: EditionRepository,
        strings: Strings,
        fonts: ChartFonts,
        clock: Clock,
    ) -> None:
        self._content = content
        self._papers = papers
        self._editions = editions
        self._strings = strings
        self._fonts = fonts
        self._clock = clock
        self._candidates_cache: dict[
            tuple[Theme, DigestFilter], tuple[float, tuple[str, list[int]]]
        ] = {}
        self._bodies: dict[tuple[int, Language], tuple[float, discord.Embed]] = {}

    async def chooser(self, sub: Subscription) -> Chooser:
        """A pure function of the stored picker state, over the catalogue as read now."""
        seed = sub.id or 0
        if sub.theme == Theme.NEW_AWARDS:
            newest = await self._content.newest_audit_id()
            # Read from the stored watermark; the chooser re-applies the one it is given.
            start = await self._content_watermark(sub)
            rows = await self._content.added_awards(start, sub.filters)

            def choose_new(_: CycleState, watermark: int) -> Choice:
                found = new_awards(rows, watermark, newest)
                content = {"awards": list(found.award_ids)} if found.award_ids else {}
                return Choice(content, watermark=found.watermark)

            return choose_new
        key, ids = await self._candidates(sub)

        def choose(state: CycleState, _: int) -> Choice:
            if not ids:
                return Choice()
            pick, after = next_in_cycle(ids, state, seed)
            return Choice({key: pick}, cycle=after)

        return choose

    async def _content_watermark(self, sub: Subscription) -> int:
        # Preview of a subscription not stored yet: its watermark would be the newest row.
        if sub.id is None:
            return await self._content.newest_audit_id()
        return await self._content.watermark(sub.id)

    async def _candidates(self, sub: Subscription) -> tuple[str, list[int]]:
        key = (sub.theme, sub.filters)
        cached = self._candidates_cache.get(key)
        if cached is not None and self._clock.monotonic() - cached[0] < CANDIDATES_TTL:
            return cached[1]
        found = await self._read_candidates(sub)
        if len(self._candidates_cache) > 1_000:  # filters are few; this only bounds a freak
            self._candidates_cache.clear()
        self._candidates_cache[key] = (self._clock.monotonic(), found)
        return found

    async def _read_candidates(self, sub: Subscription) -> tuple[str, list[int]]:
        filters = sub.filters
        if sub.theme == Theme.PAPER_OF_THE_DAY:
            return "paper", await self._content.paper_ids(filters)
        if sub.theme == Theme.TEST_OF_TIME:
            return "paper", await self._content.paper_ids(filters, AwardKind.TEST_OF_TIME)
        if sub.theme == Theme.VENUE_SPOTLIGHT:
            return "edition", await self._content.award_edition_ids(filters)
        return "edition", await self._content.statistics_edition_ids(filters)

    async def render(self, sub: Subscription, content: dict[str, Any], frame: Frame) -> Post:
        if "paper" in content:
            body = await self._paper_body(int(content["paper"]), frame.language)
            return framed(frame, self._strings, [body])
        if "awards" in content:
            return await self._new_awards(content["awards"], frame)
        ref = await self._content.edition(int(content["edition"]))
        if ref is None:
            raise ContentGone(f"edition {content['edition']}")
        venue = next((v for v in await self._editions.venues() if v.key == ref.venue), None)
        if venue is None:
            raise ContentGone(f"venue {ref.venue}")
        if sub.theme == Theme.VENUE_SPOTLIGHT:
            kind = sub.filters.kind
            papers = await self._papers.awarded_at(ref.venue, ref.year, kind)
            entries = [
                AwardEntry(award, stored.paper)
                for stored in papers
                for award in stored.awards
                if award.venue == ref.venue
                and award.year == ref.year
                and (kind is None or award.kind == kind)
            ]
            return spotlight_post(frame, venue, ref.year, entries, self._strings)
        editions = await self._editions.editions(ref.venue)
        edition = next((e for e in editions if e.year == ref.year and has_statistics(e)), None)
        if edition is None:
            raise ContentGone(f"statistics of {ref.venue} {ref.year}")
        previous = previous_with_statistics(editions, ref.year)
        cjk = await self._fonts.cjk_family() if frame.language != "en" else None
        labels = chart_labels(
            self._strings, frame.language, cjk, "chart-trend-title", venue=venue.name
        )
        # Drawing takes a few hundred milliseconds of CPU: off the event loop.
        chart = await asyncio.to_thread(
            trend_chart, labels, tuple(trend_points(editions)), ref.year
        )
        return numbers_post(frame, venue, edition, previous, chart, self._strings)

    async def _paper_body(self, paper_id: int, language: Language) -> discord.Embed:
        """The paper's post body, read and rendered once per `BODIES_TTL` (a curator's edit
        or removal reaches digests within that time, as it reaches the pickers)."""
        key = (paper_id, language)
        cached = self._bodies.get(key)
        now = self._clock.monotonic()
        if cached is not None and now - cached[0] < BODIES_TTL:
            return cached[1]
        stored = await self._papers.get(paper_id)
        if stored is None:
            self._bodies.pop(key, None)
            raise ContentGone(f"paper {paper_id}")
        body = paper_body(stored, self._strings, language)
        if len(self._bodies) >= BODIES_KEPT:
            self._bodies.clear()
        self._bodies[key] = (now, body)
        return body

    async def _new_awards(self, award_ids: list[int], frame: Frame) -> Post:
        pairs = await self._content.award_papers([int(a) for a in award_ids])
        paper_ids = list(dict.fromkeys(paper for _, paper in pairs))[:NEW_AWARDS_SHOWN]
        papers: list[StoredPaper] = []
        for paper_id in paper_ids:
            stored = await self._papers.get(paper_id)
            if stored is not None:
                papers.append(stored)
        if not papers:
            raise ContentGone("the new awards")
        return new_awards_post(frame, papers, self._strings)

    async def check_not_empty(self, sub: Subscription) -> None:
        """A `UserError` when the subscription's filter leaves nothing to post, ever."""
        if sub.theme == Theme.NEW_AWARDS:
            return
        _, ids = await self._candidates(sub)
        if not ids:
            raise UserError("digests-filter-empty")
