"""Channel messages through discord.py: embeds, files, nonces, history, forums, limits."""

from __future__ import annotations

import io

import discord
import pytest

from laurel_console.localdiscord.server import LocalDiscord
from tests.support.bare_client import Laurel, connected

CREATE = "POST /channels/{channel_id}/messages"


def text_channel(bot: Laurel, name: str = "general") -> discord.TextChannel:
    channel = discord.utils.get(bot.get_all_channels(), name=name)
    assert isinstance(channel, discord.TextChannel)
    return channel


async def test_an_embed_and_a_file_are_stored(server: LocalDiscord, bot: Laurel) -> None:
    async with connected(bot, server):
        embed = discord.Embed(title="Best paper", description="ICML 2025").add_field(
            name="Venue", value="ICML"
        )
        file = discord.File(io.BytesIO(b"%PDF-1.7 ..."), filename="paper.pdf")
        sent = await text_channel(bot).send("New award", embed=embed, file=file)
        (stored,) = server.messages("general")
        assert stored["id"] == str(sent.id)
        assert stored["content"] == "New award"
        assert stored["embeds"][0]["title"] == "Best paper"
        assert stored["embeds"][0]["fields"] == [{"name": "Venue", "value": "ICML", "inline": True}]
        (attachment,) = stored["attachments"]
        assert (attachment["filename"], attachment["size"]) == ("paper.pdf", 12)
        assert server.attachment_bytes(attachment) == b"%PDF-1.7 ..."
        assert await sent.attachments[0].read() == b"%PDF-1.7 ..."  # served like the CDN
        (request,) = server.requests_to(CREATE)
        assert request.files == [{"field": "files[0]", "filename": "paper.pdf", "size": 12}]


async def test_a_repeated_nonce_returns_the_first_message(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        channel = text_channel(bot)
        first = await channel.send("digest 2025-W22", nonce="digest:7:2025-W22")
        again = await channel.send("digest 2025-W22", nonce="digest:7:2025-W22")
        assert first.id == again.id
        assert len(server.messages("general")) == 1
        other = await channel.send("digest 2025-W23", nonce="digest:7:2025-W23")
        assert other.id != first.id
        assert server.requests_to(CREATE)[0].body["enforce_nonce"] is True


async def test_history_is_newest_first_and_pages(server: LocalDiscord, bot: Laurel) -> None:
    async with connected(bot, server):
        channel = text_channel(bot)
        sent = [await channel.send(f"m{i}") for i in range(7)]
        newest = [m.content async for m in channel.history(limit=3)]
        assert newest == ["m6", "m5", "m4"]
        after = [m.content async for m in channel.history(after=sent[2], limit=10)]
        assert after == ["m3", "m4", "m5", "m6"]
        everything = [m.content async for m in channel.history(limit=None, oldest_first=True)]
        assert everything == [f"m{i}" for i in range(7)]
        around = [m.content async for m in channel.history(around=sent[3], limit=3)]
        assert sorted(around) == ["m2", "m3", "m4"]


async def test_edit_and_delete_a_message(server: LocalDiscord, bot: Laurel) -> None:
    async with connected(bot, server):
        message = await text_channel(bot).send("draft")
        edited = await message.edit(content="final")
        assert edited.content == "final"
        assert edited.edited_at is not None
        fetched = await text_channel(bot).fetch_message(message.id)
        assert fetched.content == "final"
        await message.delete()
        with pytest.raises(discord.NotFound) as caught:
            await text_channel(bot).fetch_message(message.id)
        assert caught.value.code == 10008


async def test_a_forum_post_is_a_thread_with_its_first_message(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        forum = discord.utils.get(bot.get_all_channels(), name="papers-forum")
        assert isinstance(forum, discord.ForumChannel)
        tag = forum.available_tags[0]
        thread, message = await forum.create_thread(
            name="Attention Is All You Need", content="Discuss.", applied_tags=[tag]
        )
        assert message.id == thread.id
        assert thread.parent_id == forum.id
        assert server.messages(thread.id)[0]["content"] == "Discuss."
        assert thread.applied_tags == [tag]
        with pytest.raises(discord.HTTPException) as caught:
            await server_channel_send(bot, forum.id)
        assert caught.value.code == 50008


async def server_channel_send(bot: Laurel, channel_id: int) -> None:
    await bot.http.send_message(channel_id, params=discord.http.handle_message_parameters("x"))


async def test_a_thread_in_a_text_channel(server: LocalDiscord, bot: Laurel) -> None:
    async with connected(bot, server):
        thread = await text_channel(bot).create_thread(
            name="ICLR 2026 reading", type=discord.ChannelType.public_thread
        )
        await thread.send("first")
        assert [m["content"] for m in server.messages(thread.id)] == ["first"]
        assert server.messages(thread.id)[0]["position"] == 0


async def test_content_over_2000_characters_is_refused_and_recorded(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        with pytest.raises(discord.HTTPException) as caught:
            await text_channel(bot).send("x" * 2001)
        assert (caught.value.status, caught.value.code) == (400, 50035)
        (violation,) = server.violations
        assert violation.source == "limits"
        assert violation.path == ("content",)
        assert server.messages("general") == []
        server.violations.clear()


async def test_embed_limits_are_checked_across_all_embeds(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        embeds = [discord.Embed(description="d" * 4000) for _ in range(2)]
        with pytest.raises(discord.HTTPException):
            await text_channel(bot).send(embeds=embeds)
        assert [v.message for v in server.violations] == [
            "Embed size exceeds maximum size of 6000 (MAX_EMBED_SIZE_EXCEEDED)"
        ]
        server.violations.clear()


async def test_without_embed_links_discord_drops_embeds(server: LocalDiscord, bot: Laurel) -> None:
    guild = server.world.default_guild()
    server.world.find_role("Laurel").permissions &= ~(1 << 14)
    guild.everyone.permissions &= ~(1 << 14)
    async with connected(bot, server):
        sent = await text_channel(bot).send("look", embed=discord.Embed(title="gone"))
        assert sent.embeds == []
        assert server.messages("general")[0]["embeds"] == []


async def test_a_hidden_channel_is_missing_access(server: LocalDiscord, bot: Laurel) -> None:
    from laurel_console.localdiscord.state import Overwrite, Perm

    general = server.channel("general")
    general.overwrites.append(Overwrite(server.world.default_guild().id, 0, deny=Perm.VIEW_CHANNEL))
    general.overwrites.append(
        Overwrite(server.world.find_role("Laurel").id, 0, deny=Perm.VIEW_CHANNEL)
    )
    async with connected(bot, server):
        with pytest.raises(discord.Forbidden) as caught:
            await text_channel(bot).send("hello?")
        assert caught.value.code == 50001


async def test_requests_are_checked_against_discords_spec(
    server: LocalDiscord, bot: Laurel, spec_validator: object
) -> None:
    if spec_validator is None:
        pytest.skip("Discord's OpenAPI spec is not in ../shared/discord-api-spec, so unchecked")
    async with connected(bot, server):
        route = discord.http.Route(
            "POST", "/channels/{channel_id}/messages", channel_id=text_channel(bot).id
        )
        with pytest.raises(discord.HTTPException) as caught:
            await bot.http.request(route, json={"content": 5, "tts": "loud"})
        assert caught.value.code == 50035
        assert {v.source for v in server.violations} == {"spec"}
        assert all(v.route == "/channels/{channel_id}/messages" for v in server.violations)
        server.violations.clear()
