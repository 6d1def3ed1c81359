"""What a subscription's next post shows (chosen when its ledger row is reserved) and how it
reads (rendered from what the row recorded, so a re-send repeats the same post).

What is theme-specific (the query, the picker, the renderer) is the theme's module
(`bot.digests.themes`); this class caches the candidates and the paper bodies they share."""

from __future__ import annotations

from typing import Any

import discord

from bot.digests.pickers import next_in_cycle
from bot.digests.themes import ContentGone, ThemeContext, ThemeRegistry, ThemeSpec
from bot.domain.clock import Clock
from bot.domain.ledger import Choice, Chooser
from bot.domain.models import Language
from bot.domain.subscriptions import CycleState, DigestFilter, Subscription
from bot.errors import UserError
from bot.render.chart_fonts import ChartFonts
from bot.render.digest_posts import Frame, Post, paper_body
from bot.render.i18n import Strings
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.digest_content import DigestContentRepository

__all__ = ["BODIES_TTL", "CANDIDATES_TTL", "ContentGone", "DigestContent"]

# Candidate ids per (theme, filter) are kept this long: 10,000 subscriptions due in one minute
# share a handful of filters, and a catalogue change may take this long to reach the pickers.
CANDIDATES_TTL = 60.0
# A paper's post body per language is kept as long: a fan-out shows each of a few hundred
# papers to dozens of subscriptions, and rendering it is most of the bot's CPU a post.
BODIES_TTL = CANDIDATES_TTL
BODIES_KEPT = 5_000


class DigestContent:
    def __init__(
        self,
        content: DigestContentRepository,
        papers: PaperRepository,
        editions: EditionRepository,
        strings: Strings,
        fonts: ChartFonts,
        clock: Clock,
        themes: ThemeRegistry,
    ) -> None:
        self._papers = papers
        self._strings = strings
        self._clock = clock
        self._themes = themes
        self._candidates_cache: dict[tuple[str, DigestFilter], tuple[float, list[int]]] = {}
        self._bodies: dict[tuple[int, Language], tuple[float, discord.Embed]] = {}
        self._context = ThemeContext(content, papers, editions, strings, fonts, self._paper_body)

    @property
    def themes(self) -> ThemeRegistry:
        return self._themes

    def theme(self, sub: Subscription) -> ThemeSpec:
        return self._themes[sub.theme]

    async def chooser(self, sub: Subscription) -> Chooser:
        """A pure function of the stored picker state, over the catalogue as read now."""
        spec = self.theme(sub)
        if spec.batch is not None:
            return await spec.batch(self._context, sub)
        ids = await self._candidates(sub)
        key, seed = spec.key, sub.id or 0

        def choose(state: CycleState, _: int) -> Choice:
            if not ids:
                return Choice()
            pick, after = next_in_cycle(ids, state, seed)
            return Choice({key: pick}, cycle=after)

        return choose

    async def _candidates(self, sub: Subscription) -> list[int]:
        key = (sub.theme, sub.filters)
        cached = self._candidates_cache.get(key)
        if cached is not None and self._clock.monotonic() - cached[0] < CANDIDATES_TTL:
            return cached[1]
        candidates = self.theme(sub).candidates
        found = [] if candidates is None else await candidates(self._context, sub.filters)
        if len(self._candidates_cache) > 1_000:  # filters are few; this only bounds a freak
            self._candidates_cache.clear()
        self._candidates_cache[key] = (self._clock.monotonic(), found)
        return found

    async def render(self, sub: Subscription, content: dict[str, Any], frame: Frame) -> Post:
        """The post of what a ledger row recorded, by the subscription's theme (or, for a row
        chosen before an edit changed the theme, by a theme that records what it holds)."""
        spec = self.theme(sub)
        if spec.key not in content:
            spec = next((t for t in self._themes if t.key in content), spec)
        return await spec.render(self._context, sub, content, frame)

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

    async def check_not_empty(self, sub: Subscription) -> None:
        """A `UserError` when the subscription's filter leaves nothing to post, ever."""
        if not self.theme(sub).cycling:
            return  # a batching theme (new awards) may wait for what does not exist yet
        ids = await self._candidates(sub)
        if not ids:
            raise UserError("digests-filter-empty")
