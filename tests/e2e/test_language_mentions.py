"""Answers name commands by Discord mention, from the ids the command sync returned (issue 25,
item 2): a zh client then shows /定期貼文 立即發布 where the text said `/digest post-now`; and a
digest made without a language posts in the server's preferred locale (item 5)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.app import LaurelBot
from laurel_console.localdiscord.server import LocalDiscord

EPHEMERAL = 64
TYPED_COMMAND = re.compile(r"(?<![<\w:/])/(?:about|help|paper|awards|stats|digest|curate)\b")


def command_id(server: LocalDiscord, name: str) -> str:
    return str(
        server.world.commands[None][[c["name"] for c in server.world.commands[None]].index(name)][
            "id"
        ]
    )


async def _subscribe(server: LocalDiscord, locale: str, **more: Any) -> dict[str, Any]:
    ada = server.world.find_user("ada").id
    options = {"channel": "announcements", "theme": "paper-of-the-day", **more}
    interaction = await server.slash(
        "digest", options, subcommand="subscribe", user_id=ada, locale=locale
    )
    return await interaction.message()


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_a_reply_names_a_command_by_its_mention(
    laurel: LaurelBot, server: LocalDiscord, locale: str
) -> None:
    answer = await _subscribe(server, locale)
    text = answer["content"]
    assert f"</digest post-now:{command_id(server, 'digest')}>" in text
    assert TYPED_COMMAND.findall(text) == [], text
    listed = await server.slash(
        "digest", {}, subcommand="list", user_id=server.world.find_user("ada").id, locale=locale
    )
    assert TYPED_COMMAND.findall(str((await listed.message())["embeds"])) == []


async def test_the_mention_ids_are_the_ones_discord_holds_after_a_restart(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    known = laurel.strings.mentions.known()
    held = {c["name"]: int(c["id"]) for c in server.world.commands[None]}
    assert known == held


@pytest.mark.parametrize(
    ("guild_locale", "said", "posted"),
    [
        ("zh-TW", "它會以繁體中文發文，這是伺服器的語言", "每日論文"),
        ("zh-CN", "它會以簡體中文發文，這是伺服器的語言", "每日论文"),
        ("en-US", "它會以英文發文，這是伺服器的語言", "Paper of the day"),
    ],
)
async def test_a_digest_without_a_language_takes_the_servers_and_says_so(
    laurel: LaurelBot, server: LocalDiscord, guild_locale: str, said: str, posted: str
) -> None:
    """Item 5: a zh-TW admin's digest (timezone Asia/Taipei, no language picked) posted in
    English; it follows the server's preferred locale, shown in the confirmation."""
    server.world.default_guild().preferred_locale = guild_locale
    answer = await _subscribe(server, "zh-TW", timezone="asia/taipei")
    assert said in answer["content"]  # the admin reads zh-TW; the choice is named in it
    (stored,) = await laurel.subscriptions.in_guild(server.world.default_guild().id)
    ada = server.world.find_user("ada").id
    done = await server.slash(
        "digest", {"subscription": stored.id}, subcommand="post-now", user_id=ada, locale="zh-TW"
    )
    await done.message()
    (post,) = server.messages("announcements", ephemeral=False)
    assert posted in post["content"]
