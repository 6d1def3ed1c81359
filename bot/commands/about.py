"""/about and /help: what Laurel is, what it covers, and what it can do."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.commands.parts import Parts
from bot.render.about import about_embed, help_embed
from bot.render.i18n import language_of

# A command group that some members see in /help without its default permissions.
Audience = Callable[[discord.Interaction], Awaitable[bool]]


class About(commands.Cog):
    def __init__(
        self, bot: commands.Bot, parts: Parts, audiences: Mapping[str, Audience] | None = None
    ) -> None:
        """`bot`'s command tree is what /help lists; `audiences` say who sees a group that
        its default permissions hide (by the group's name)."""
        self._tree = bot.tree
        self._audiences = dict(audiences or {})
        self._editions = parts.editions
        self._papers = parts.papers
        self._strings = parts.strings

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
        shown: dict[str, bool] = {}  # by top-level name: each group is asked about once
        for command in self._tree.walk_commands():
            if isinstance(command, app_commands.Group):
                continue
            root = command.root_parent or command
            if root.name not in shown:
                shown[root.name] = await self._shown(interaction, root)
            if not shown[root.name]:
                continue
            # A mention: the reader's client shows it in their language, and it can be clicked.
            name = self._strings.mentions.mention(command.qualified_name)
            description = self._strings.command_text(command.description, language)
            listed.append((name, description or command.description))
        await interaction.response.send_message(
            embed=help_embed(listed, self._strings, language), ephemeral=True
        )

    async def _shown(
        self,
        interaction: discord.Interaction,
        root: app_commands.Command[Any, ..., Any] | app_commands.Group,
    ) -> bool:
        """Whether the member's own client lists `root`: as Discord decides from its default
        permissions, or because its group says so (configured curators see /curate)."""
        if root.guild_only and interaction.guild is None:
            return False
        needed = root.default_permissions
        if needed is None or needed <= interaction.permissions:
            return True
        audience = self._audiences.get(root.name)
        return audience is not None and await audience(interaction)
