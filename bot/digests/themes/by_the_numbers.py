"""By the numbers: one edition's statistics a post, with a chart of the venue's trend, in
shuffled cycles over the editions with statistics."""

from __future__ import annotations

import asyncio
from typing import Any

from bot.digests.themes import ContentGone, ThemeContext, ThemeSpec
from bot.digests.themes.venue_spotlight import edition_of
from bot.domain.subscriptions import Cadence, DigestFilter, Subscription
from bot.render.chart_labels import chart_labels
from bot.render.charts import trend_chart
from bot.render.digest_posts import Frame, Post, numbers_post
from bot.render.stats import has_statistics, previous_with_statistics, trend_points


async def candidates(ctx: ThemeContext, filters: DigestFilter) -> list[int]:
    return await ctx.content.statistics_edition_ids(filters)


async def render(ctx: ThemeContext, _: Subscription, content: dict[str, Any], frame: Frame) -> Post:
    ref, venue = await edition_of(ctx, content)
    editions = await ctx.editions.editions(ref.venue)
    edition = next((e for e in editions if e.year == ref.year and has_statistics(e)), None)
    if edition is None:
        raise ContentGone(f"statistics of {ref.venue} {ref.year}")
    previous = previous_with_statistics(editions, ref.year)
    cjk = await ctx.fonts.cjk_family() if frame.language != "en" else None
    labels = chart_labels(ctx.strings, frame.language, cjk, "chart-trend-title", venue=venue.name)
    # Drawing takes a few hundred milliseconds of CPU: off the event loop.
    chart = await asyncio.to_thread(trend_chart, labels, tuple(trend_points(editions)), ref.year)
    return numbers_post(frame, venue, edition, previous, chart, ctx.strings)


THEME = ThemeSpec(
    name="by-the-numbers",
    label="by the numbers",
    cadence=Cadence.WEEKLY,
    order=40,
    key="edition",
    candidates=candidates,
    render=render,
)
