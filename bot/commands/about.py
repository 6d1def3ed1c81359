"""/about and /help: what Laurel is, what it covers, and what it can do."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.render.about import about_embed, help_embed
from bot.render.i18n import Strings, language_of
from bot.store.editions import EditionRepository
from bot.store.papers import PaperRepository


class About(commands.Cog):
    def __init__(
        self,
        editions: EditionRepository,
        papers: PaperRepository,
        strings: Strings,
        tree: app_commands.CommandTree[discord.Client],
    ) -> None:
        self._tree = tree
        self._editions = editions
        self._papers = papers
        self._strings = strings

    @app_commands.command(
        name=_("about"),
        description=_("What Laurel is, what it covers and where its data comes from"),
    )
    async def about(self, interaction: discord.Interaction) -> None:
        coverage = await self._editions.coverage()
        papers = await self._papers.count()
        language = language_of(interaction.locale)
        embed = about_embed(coverage, papers, self._strings, language)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name=_("help"), description=_("List Laurel's commands"))
    async def help(self, interaction: discord.Interaction) -> None:
        language = language_of(interaction.locale)
        listed = []
        for command in self._tree.walk_commands():
            if isinstance(command, app_commands.Group):
                continue
            name = await self._translate(interaction, command, command.qualified_name, "name")
            description = await self._translate(
                interaction, command, command.description, "description"
            )
            listed.append((f"/{name}", description))
        await interaction.response.send_message(
            embed=help_embed(listed, self._strings, language), ephemeral=True
        )

    async def _translate(
        self,
        interaction: discord.Interaction,
        command: app_commands.Command,  # type: ignore[type-arg]
        text: str,
        what: Literal["name", "description"],
    ) -> str:
        """`text` as the reader's Discord client shows it (localized names and descriptions)."""
        translator = self._tree.translator
        if translator is None:
            return text
        if what == "name":
            context: app_commands.TranslationContextTypes = app_commands.TranslationContext(
                app_commands.TranslationContextLocation.command_name, command
            )
        else:
            context = app_commands.TranslationContext(
                app_commands.TranslationContextLocation.command_description, command
            )
        return await translator.translate(_(text), interaction.locale, context) or text
