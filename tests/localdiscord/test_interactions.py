"""Slash commands, autocomplete, buttons, selects and modals, end to end with discord.py."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
from discord import app_commands

from laurel_console.localdiscord.messages import CHAT_INPUT_COMMAND, Flag
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.bare_client import Laurel, connected

BULK = "PUT /applications/{application_id}/commands"


async def test_a_synced_command_answers_ephemerally(server: LocalDiscord, bot: Laurel) -> None:
    @bot.tree.command(description="Say hello")
    @app_commands.describe(name="Whom to greet")
    async def hello(interaction: discord.Interaction, name: str = "you") -> None:
        await interaction.response.send_message(f"hi {name}", ephemeral=True)

    async with connected(bot, server):
        synced = await bot.tree.sync()
        (request,) = server.requests_to(BULK)
        assert request.status == 200
        assert request.body[0]["name"] == "hello"
        assert [c.name for c in synced] == ["hello"]
        assert synced[0].id
        interaction = await server.slash("hello", {"name": "Ada"})
        response = await interaction.response()
        assert response["type"] == 4
        message = await interaction.message()
        assert message["content"] == "hi Ada"
        assert message["flags"] & Flag.EPHEMERAL
        assert message["type"] == CHAT_INPUT_COMMAND
        assert message["interaction_metadata"]["name"] == "hello"
        # Ephemeral: not in the channel's history as others see it.
        assert server.messages("general", ephemeral=False) == []


async def test_a_deferred_answer_is_completed_by_the_first_followup(
    server: LocalDiscord, bot: Laurel
) -> None:
    @bot.tree.command(description="Think first")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send("done")
        await interaction.followup.send("and one more")

    async with connected(bot, server):
        await bot.tree.sync()
        interaction = await server.slash("slow")
        assert (await interaction.response())["type"] == 5
        assert interaction.deferred
        message = await interaction.message()
        assert message["content"] == "done"
        assert not message["flags"] & Flag.LOADING
        extra = await interaction.followup(0)
        assert extra["content"] == "and one more"
        assert extra["interaction_metadata"]["original_response_message_id"] == message["id"]
        assert [m["content"] for m in server.messages("general")] == ["done", "and one more"]


async def test_edit_original_response(server: LocalDiscord, bot: Laurel) -> None:
    @bot.tree.command(description="Edit")
    async def edit(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("working")
        await interaction.edit_original_response(content="finished", embed=discord.Embed(title="T"))

    async with connected(bot, server):
        await bot.tree.sync()
        interaction = await server.slash("edit")
        await server.wait_for_request(
            "PATCH /webhooks/{webhook_id}/{webhook_token}/messages/@original"
        )
        message = await interaction.message()
        assert message["content"] == "finished"
        assert message["embeds"][0]["title"] == "T"
        assert message["edited_timestamp"] is not None


async def test_options_subcommands_and_resolved_entities(server: LocalDiscord, bot: Laurel) -> None:
    group = app_commands.Group(name="award", description="Awards")
    seen: dict[str, object] = {}

    @group.command(description="Announce")
    async def announce(
        interaction: discord.Interaction,
        channel: discord.TextChannel,
        winner: discord.Member,
        role: discord.Role,
        year: app_commands.Range[int, 2000, 2030],
        oral: bool = False,
    ) -> None:
        seen.update(channel=channel.name, winner=winner.name, role=role.name, year=year, oral=oral)
        await interaction.response.send_message("ok")

    bot.tree.add_command(group)
    async with connected(bot, server):
        await bot.tree.sync()
        interaction = await server.slash(
            "award",
            {"channel": "#general", "winner": "ada", "role": "Admin", "year": 2025},
            subcommand="announce",
        )
        await interaction.message()
        assert seen == {
            "channel": "general",
            "winner": "ada",
            "role": "Admin",
            "year": 2025,
            "oral": False,
        }
        assert "users" in interaction.payload["data"]["resolved"]


async def test_an_uploaded_option_has_an_absolute_url_the_stand_in_serves(
    server: LocalDiscord, bot: Laurel
) -> None:
    """As on Discord: the bot reads an upload with Attachment.read(), from an absolute URL."""
    read: dict[str, object] = {}

    @bot.tree.command(name="upload", description="Upload a file")
    async def upload(interaction: discord.Interaction, file: discord.Attachment) -> None:
        read.update(url=file.url, data=await file.read())
        await interaction.response.send_message("ok")

    async with connected(bot, server):
        await bot.tree.sync()
        interaction = await server.slash("upload", {"file": ("awards.toml", b"[award]\n")})
        await interaction.message()
    url = str(read["url"])
    assert url.startswith(f"{server.base_url}/attachments/")
    assert url.endswith("/awards.toml")
    assert read["data"] == b"[award]\n"


async def test_autocomplete_choices_come_back(server: LocalDiscord, bot: Laurel) -> None:
    venues = ["ICML", "ICLR", "NeurIPS", "AAAI"]

    async def suggest(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = [v for v in venues if v.lower().startswith(current.lower())]
        return [app_commands.Choice(name=v, value=v) for v in found][:25]

    @bot.tree.command(description="Find a venue")
    @app_commands.autocomplete(venue=suggest)
    async def venue(interaction: discord.Interaction, venue: str) -> None:
        await interaction.response.send_message(venue)

    async with connected(bot, server):
        await bot.tree.sync()
        choices = await server.autocomplete("venue", {"venue": "ic"}, focused="venue")
        assert choices == [{"name": "ICML", "value": "ICML"}, {"name": "ICLR", "value": "ICLR"}]


class Counter(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=30)
        self.count = 0

    @discord.ui.button(label="+1", custom_id="counter:add")
    async def add(
        self, interaction: discord.Interaction, button: discord.ui.Button[Counter]
    ) -> None:
        self.count += 1
        await interaction.response.edit_message(content=f"count {self.count}", view=self)

    @discord.ui.select(
        custom_id="counter:venue",
        options=[
            discord.SelectOption(label="ICML", value="icml"),
            discord.SelectOption(label="NeurIPS", value="neurips"),
        ],
    )
    async def venue(
        self, interaction: discord.Interaction, select: discord.ui.Select[Counter]
    ) -> None:
        await interaction.response.send_message(f"picked {select.values[0]}", ephemeral=True)


async def test_buttons_and_selects_reach_the_view(server: LocalDiscord, bot: Laurel) -> None:
    @bot.tree.command(description="Count")
    async def count(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("count 0", view=Counter())

    async with connected(bot, server):
        await bot.tree.sync()
        message = await (await server.slash("count")).message()
        press = await server.press(message, "counter:add")
        assert (await press.response())["type"] == 7
        updated = await press.message()
        assert updated["id"] == message["id"]
        assert updated["content"] == "count 1"
        second = await server.press(updated, "counter:add")
        assert (await second.message())["content"] == "count 2"
        pick = await server.choose(message, "counter:venue", ["neurips"])
        assert (await pick.message())["content"] == "picked neurips"


class Suggest(discord.ui.Modal, title="Suggest a paper"):
    paper: discord.ui.TextInput[Suggest] = discord.ui.TextInput(
        label="Title", custom_id="suggest:title"
    )
    why: discord.ui.TextInput[Suggest] = discord.ui.TextInput(
        label="Why", style=discord.TextStyle.paragraph, required=False
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks for {self.paper.value}", ephemeral=True)


async def test_a_modal_submit_reaches_on_submit(server: LocalDiscord, bot: Laurel) -> None:
    @bot.tree.command(description="Suggest")
    async def suggest(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Suggest())

    async with connected(bot, server):
        await bot.tree.sync()
        opened = await server.slash("suggest")
        assert (await opened.response())["type"] == 9
        assert opened.modal is not None
        assert opened.modal["title"] == "Suggest a paper"
        submitted = await server.submit(opened, {"suggest:title": "Attention"})
        assert (await submitted.message())["content"] == "thanks for Attention"


async def test_a_late_first_answer_gets_unknown_interaction(
    server: LocalDiscord, bot: Laurel
) -> None:
    failed: asyncio.Future[discord.HTTPException] = asyncio.get_running_loop().create_future()

    @bot.tree.command(description="Too slow")
    async def late(interaction: discord.Interaction) -> None:
        try:
            await interaction.response.send_message("finally")
        except discord.NotFound as error:
            failed.set_result(error)

    async with connected(bot, server):
        await bot.tree.sync()
        server.config.interaction_window = 0.0  # every answer is now too late
        interaction = await server.slash("late")
        error = await asyncio.wait_for(failed, 5)
        assert (error.status, error.code) == (404, 10062)
        assert not interaction.acknowledged


async def test_a_second_callback_is_already_acknowledged(server: LocalDiscord, bot: Laurel) -> None:
    @bot.tree.command(description="Once")
    async def once(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")

    async with connected(bot, server):
        await bot.tree.sync()
        interaction = await server.slash("once")
        await interaction.message()
        # discord.py refuses a second answer itself, so send it by hand.
        url = f"{server.rest_url}/interactions/{interaction.id}/{interaction.token}/callback"
        async with (
            aiohttp.ClientSession() as session,
            session.post(url, json={"type": 4, "data": {"content": "again"}}) as resp,
        ):
            assert resp.status == 400
            assert (await resp.json())["code"] == 40060


async def test_a_guild_command_is_found_for_that_guild(server: LocalDiscord, bot: Laurel) -> None:
    guild = discord.Object(id=server.world.default_guild().id)

    @bot.tree.command(description="Guild only")
    @app_commands.guilds(guild)
    async def local(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("here")

    async with connected(bot, server):
        await bot.tree.sync(guild=guild)
        assert server.requests_to("PUT /applications/{application_id}/guilds/{guild_id}/commands")
        interaction = await server.slash("local")
        assert interaction.payload["data"]["guild_id"] == str(guild.id)
        assert (await interaction.message())["content"] == "here"


class Archive(discord.ui.View):
    @discord.ui.button(label="Archive", custom_id="archive")
    async def archive(
        self, interaction: discord.Interaction, button: discord.ui.Button[Archive]
    ) -> None:
        await interaction.response.defer()  # a component's defer is type 6: update later
        await interaction.edit_original_response(content="archived", view=None)
        await interaction.followup.send("only you see this", ephemeral=True)


async def test_a_deferred_update_then_an_edit_changes_the_pressed_message(
    server: LocalDiscord, bot: Laurel
) -> None:
    @bot.tree.command(description="Post")
    async def post(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("a paper", view=Archive())

    async with connected(bot, server):
        await bot.tree.sync()
        message = await (await server.slash("post")).message()
        press = await server.press(message, "archive")
        assert (await press.response())["type"] == 6
        updated = await press.message()
        assert updated["id"] == message["id"]
        assert (updated["content"], updated["components"]) == ("archived", [])
        secret = await press.followup(0)
        assert secret["flags"] & Flag.EPHEMERAL
        assert secret["interaction_metadata"]["interacted_message_id"] == message["id"]
