"""Test of time: one paper a post among those given a test-of-time award, in shuffled cycles."""

from __future__ import annotations

from bot.digests.themes import ThemeContext, ThemeSpec
from bot.digests.themes.paper_of_the_day import render_paper
from bot.domain.models import AwardKind
from bot.domain.subscriptions import Cadence, DigestFilter


async def candidates(ctx: ThemeContext, filters: DigestFilter) -> list[int]:
    return await ctx.content.paper_ids(filters, AwardKind.TEST_OF_TIME)


THEME = ThemeSpec(
    name="test-of-time",
    label="test of time",
    cadence=Cadence.DAILY,
    order=30,
    key="paper",
    candidates=candidates,
    award_kind=AwardKind.TEST_OF_TIME,
    render=render_paper,
)
