"""The digest deliverer on discord.py and the stand-in, on its own: where it tells the admins,
how it finds a post whose outcome was lost, and where it posts. Found by mutation testing
(docs/mutation.md); every check reads what the stand-in recorded or stored.
"""

from __future__ import annotations

from typing import Any

from bot.app import LaurelBot
from bot.digests.delivery import DiscordDelivery
from bot.localdiscord.harness import laurel_on
from bot.localdiscord.server import LocalDiscord
from bot.localdiscord.state import Overwrite, Perm
from bot.store.database import Database

OPEN_DM = "POST /users/@me/channels"
POST = "POST /channels/{channel_id}/messages"
NONE_ALLOWED: dict[str, Any] = {"parse": []}  # AllowedMentions.none(): no one at all


def owner_dm(server: LocalDiscord) -> list[dict[str, Any]]:
    """What the guild's owner received from the bot, directly."""
    owner = server.world.default_guild().owner_id
    dm = server.world.dms.get(owner)
    return [] if dm is None else server.messages(dm.id)


def posts_to(server: LocalDiscord, channel_id: int) -> list[Any]:
    return [r for r in server.requests_to(POST) if r.path.endswith(f"/{channel_id}/messages")]


async def test_losing_the_system_channel_itself_tells_the_owner_directly(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    delivery = DiscordDelivery(laurel, None)
    guild = server.world.default_guild()
    general = server.channel("general").id
    assert guild.system_channel_id == general
    assert await delivery.notify_admins(guild.id, general, "#general paused") is True
    assert server.messages(general) == []  # not into the channel that was lost
    (notice,) = owner_dm(server)
    assert notice["content"] == "#general paused"
    (opened,) = server.requests_to(OPEN_DM)
    assert opened.body == {"recipient_id": guild.owner_id}
    dm = server.world.dms[guild.owner_id].id
    (sent,) = posts_to(server, dm)
    assert sent.body["allowed_mentions"] == NONE_ALLOWED


async def test_without_a_system_channel_the_owner_is_told(
    server: LocalDiscord, db: Database
) -> None:
    guild = server.world.default_guild()
    guild.system_channel_id = None
    async with laurel_on(server, db) as bot:
        delivery = DiscordDelivery(bot, None)
        forum = server.channel("papers-forum").id
        assert await delivery.notify_admins(guild.id, forum, "forum paused") is True
    assert [m["content"] for m in owner_dm(server)] == ["forum paused"]
    assert server.messages("general") == []


async def test_a_system_channel_the_bot_may_not_post_in_is_skipped_for_the_owner(
    server: LocalDiscord, db: Database
) -> None:
    guild = server.world.default_guild()
    general = server.channel("general")
    bot_role = server.world.find_role("Laurel")
    general.overwrites.append(Overwrite(bot_role.id, 0, deny=Perm.SEND_MESSAGES))
    async with laurel_on(server, db) as bot:
        delivery = DiscordDelivery(bot, None)
        forum = server.channel("papers-forum").id
        assert await delivery.notify_admins(guild.id, forum, "forum paused") is True
    assert posts_to(server, general.id) == []  # never tried where it would be refused
    assert [m["content"] for m in owner_dm(server)] == ["forum paused"]


async def test_an_owner_who_refuses_direct_messages_is_not_told_and_nothing_breaks(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    guild = server.world.default_guild()
    server.world.users[guild.owner_id].accepts_dms = False
    delivery = DiscordDelivery(laurel, None)
    general = server.channel("general").id
    assert await delivery.notify_admins(guild.id, general, "#general paused") is False
    assert owner_dm(server) == []
    assert server.messages(general) == []
