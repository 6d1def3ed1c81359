"""Issue 6 meets issue 5: an award a curator adds in Discord is what a new-awards digest posts."""

from __future__ import annotations

import json

from bot.app import LaurelBot
from bot.domain.subscriptions import Theme
from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import MASKED_ARXIV, ada, button, curate, curator_bot, stored_paper_id
from tests.support.digest_delivery import subscribe

__all__ = ["curator_bot"]  # the fixture, shared with test_curate


async def test_an_award_added_with_curate_is_posted_by_a_new_awards_digest(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    sub = await subscribe(
        curator_bot, server, "general", theme=Theme.NEW_AWARDS, timezone="Europe/Berlin"
    )
    paper_id = await stored_paper_id(db, MASKED_ARXIV)
    added = await curate(
        server,
        "award add",
        {"paper": str(paper_id), "venue": "NeurIPS", "year": 2025, "award": "test of time"},
    )
    preview = await added.message()
    confirm = button(preview, "curate:confirm")
    await (await server.press(preview, confirm, user_id=ada(server))).message()

    result = await curator_bot.digests.post_now(sub, requested_by=ada(server))

    assert result.status == "sent"
    (post,) = server.messages("general", ephemeral=False)
    text = json.dumps(post, ensure_ascii=False)
    assert "Test of Time" in text
    title = await db.fetchone("SELECT title FROM papers WHERE id = ?", (paper_id,))
    assert title is not None
    assert title["title"] in text
    # Only what a curator added since the digest began: none of the bundled catalogue's awards.
    (embed,) = post["embeds"]
    assert embed["title"] == "Awarded papers just added (1)"
