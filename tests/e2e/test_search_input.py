"""/paper search reads what was typed as a person sees it (issue 22): a right-to-left override
is not echoed into the public answer's title, and a zero-width space does not split a word."""

from __future__ import annotations

import unicodedata
from typing import Any

from bot.app import LaurelBot
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.payloads import opened


async def _search(server: LocalDiscord, query: str) -> dict[str, Any]:
    return await (await server.slash("paper", {"query": query}, subcommand="search")).message()


async def test_invisible_characters_are_neither_searched_nor_echoed(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    plain = await _search(server, "memorization")
    assert opened(plain)
    for typed in ("\u202ememorization", "memo\u200brization", "\u2066memorization\u2069"):
        answer = await _search(server, typed)
        (embed,) = answer["embeds"]
        assert embed["title"] == plain["embeds"][0]["title"]
        assert not any(unicodedata.category(ch) == "Cf" for ch in embed["title"])
        assert opened(answer) == opened(plain)
