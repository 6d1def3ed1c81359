"""Ledger codes are for admins (issue 25, item 8): a public post's footer said "L7-23e83a".
Now the post carries its marker invisibly (the bot still finds it after a crash) and the code
shows in /digest list, where an admin looks."""

from __future__ import annotations

import re

import pytest

from bot.app import LaurelBot
from bot.render.digest_posts import marker_in
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.digest_commands import digest, stored_sub

CODE = re.compile(r"L\d+-[0-9a-f]{6}")
LAST = {
    "en-US": "Last post `{code}`",
    "zh-TW": "上一則貼文 `{code}`",
    "zh-CN": "上一条推送 `{code}`",
}


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_a_post_shows_no_ledger_code_and_the_list_does(
    laurel: LaurelBot, server: LocalDiscord, locale: str
) -> None:
    guild = server.world.default_guild().id
    sub = await laurel.subscriptions.add(stored_sub(laurel, guild, server.channel("general").id))
    await digest(server, "post-now", subscription=sub.id, locale=locale)
    (post,) = server.messages("general", ephemeral=False)
    seen = [post.get("content") or ""] + [
        (e.get("footer") or {}).get("text") or "" for e in post["embeds"]
    ]
    assert CODE.findall(" ".join(seen)) == []  # members read no ledger code
    assert sub.id is not None
    (row,) = await laurel.digest_engine.ledger.of_subscription(sub.id)
    assert marker_in(seen[-1]) == row.nonce  # …yet the bot can find the post by it
    listed = await digest(server, "list", locale=locale)
    values = [f["value"] for f in listed["embeds"][0]["fields"]]
    assert any(LAST[locale].format(code=row.nonce) in v for v in values)
