"""New awards: every award added since the channel's watermark, batched into one post; a
filter may wait for awards that don't exist yet."""

from __future__ import annotations

from typing import Any

from bot.digests.pickers import new_awards
from bot.digests.themes import ContentGone, ThemeContext, ThemeSpec
from bot.domain.ledger import Choice, Chooser
from bot.domain.models import StoredPaper
from bot.domain.subscriptions import Cadence, CycleState, Subscription
from bot.render.digest_posts import Frame, Post, new_awards_post

SHOWN = 20


async def batch(ctx: ThemeContext, sub: Subscription) -> Chooser:
    newest = await ctx.content.newest_audit_id()
    # Read from the stored watermark; the chooser re-applies the one it is given. A preview
    # of a subscription not stored yet: its watermark would be the newest row.
    start = newest if sub.id is None else await ctx.content.watermark(sub.id)
    rows = await ctx.content.added_awards(start, sub.filters)

    def choose(_: CycleState, watermark: int) -> Choice:
        found = new_awards(rows, watermark, newest)
        content = {"awards": list(found.award_ids)} if found.award_ids else {}
        return Choice(content, watermark=found.watermark)

    return choose


async def render(ctx: ThemeContext, _: Subscription, content: dict[str, Any], frame: Frame) -> Post:
    pairs = await ctx.content.award_papers([int(a) for a in content["awards"]])
    paper_ids = list(dict.fromkeys(paper for _, paper in pairs))[:SHOWN]
    papers: list[StoredPaper] = []
    for paper_id in paper_ids:
        stored = await ctx.papers.get(paper_id)
        if stored is not None:
            papers.append(stored)
    if not papers:
        raise ContentGone("the new awards")
    return new_awards_post(frame, papers, ctx.strings)


THEME = ThemeSpec(
    name="new-awards",
    label="new awards",
    cadence=Cadence.WEEKLY,
    order=50,
    key="awards",
    batch=batch,
    empty_key="digests-nothing-new",
    render=render,
)
