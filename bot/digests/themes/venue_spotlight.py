"""Venue spotlight: one edition of a venue a post, with the papers it awarded, in shuffled
cycles over the editions that gave awards."""

from __future__ import annotations

from typing import Any

from bot.digests.themes import ContentGone, ThemeContext, ThemeSpec
from bot.domain.models import Venue
from bot.domain.subscriptions import Cadence, DigestFilter, Subscription
from bot.render.awards import AwardEntry
from bot.render.digest_posts import Frame, Post, spotlight_post
from bot.store.digest_content import EditionRef


async def candidates(ctx: ThemeContext, filters: DigestFilter) -> list[int]:
    return await ctx.content.award_edition_ids(filters)


async def edition_of(ctx: ThemeContext, content: dict[str, Any]) -> tuple[EditionRef, Venue]:
    """The edition a row recorded and its venue (shared by the themes that pick editions)."""
    ref = await ctx.content.edition(int(content["edition"]))
    if ref is None:
        raise ContentGone(f"edition {content['edition']}")
    venue = next((v for v in await ctx.editions.venues() if v.key == ref.venue), None)
    if venue is None:
        raise ContentGone(f"venue {ref.venue}")
    return ref, venue


async def render(
    ctx: ThemeContext, sub: Subscription, content: dict[str, Any], frame: Frame
) -> Post:
    ref, venue = await edition_of(ctx, content)
    kind = sub.filters.kind
    papers = await ctx.papers.awarded_at(ref.venue, ref.year, kind)
    entries = [
        AwardEntry(award, stored.paper)
        for stored in papers
        for award in stored.awards
        if award.venue == ref.venue
        and award.year == ref.year
        and (kind is None or award.kind == kind)
    ]
    return spotlight_post(frame, venue, ref.year, entries, ctx.strings)


THEME = ThemeSpec(
    name="venue-spotlight",
    label="venue spotlight",
    cadence=Cadence.WEEKLY,
    order=20,
    key="edition",
    candidates=candidates,
    render=render,
)
