"""Paper of the day: one awarded paper a post, walking the filtered catalogue in shuffled
cycles (`bot.digests.pickers`)."""

from __future__ import annotations

from typing import Any

from bot.digests.themes import ThemeContext, ThemeSpec
from bot.domain.subscriptions import Cadence, DigestFilter, Subscription
from bot.render.digest_posts import Frame, Post, framed


async def candidates(ctx: ThemeContext, filters: DigestFilter) -> list[int]:
    return await ctx.content.paper_ids(filters)


async def render_paper(
    ctx: ThemeContext, _: Subscription, content: dict[str, Any], frame: Frame
) -> Post:
    """One paper's post (shared by the themes that pick papers)."""
    body = await ctx.paper_body(int(content["paper"]), frame.language)
    return framed(frame, ctx.strings, [body])


THEME = ThemeSpec(
    name="paper-of-the-day",
    label="paper of the day",
    cadence=Cadence.DAILY,
    order=10,
    key="paper",
    candidates=candidates,
    render=render_paper,
)
