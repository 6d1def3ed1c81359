"""/curate: keeping the catalogue from Discord. This module holds the group and its commands
over the whole catalogue (import, export, history, undo); papers, awards and statistics have
modules of their own in this package (paper.py, award.py)."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import tempfile
from pathlib import Path
from typing import cast

import aiohttp
import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.catalog import formats
from bot.catalog.document import DocumentError
from bot.commands.curate.access import Curation, actor
from bot.commands.curate.award import AwardCuration, StatsCuration, show_write
from bot.commands.curate.paper import PaperCuration, paper_choices, stored_paper
from bot.commands.curate.views import (
    ConfirmView,
    first_history,
    history_buttons,
    history_page,
    send_preview,
)
from bot.commands.paginator import page_view
from bot.commands.parts import Parts
from bot.commands.writes import before_write
from bot.domain.audit import UndoRefused
from bot.domain.models import CatalogBatch, Venue
from bot.domain.nesting import NestedTooDeep
from bot.domain.writes import Policy
from bot.errors import UserError
from bot.render.curate import plan_embed
from bot.render.i18n import language_of

log = logging.getLogger(__name__)

MAX_IMPORT_BYTES = 5 * 1024 * 1024
_SAFE_NAME = re.compile(r"[^\w.-]+")


# Default permissions only hide /curate from most members (server admins may change them);
# who may curate is decided by require_curator, on every use.
@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class Curate(
    commands.GroupCog,
    group_name=_("curate"),
    group_description=_("Keep the catalogue: add, correct, remove, import, undo (curators)"),
):
    def __init__(self, bot: commands.Bot, parts: Parts) -> None:
        curation = Curation.of(bot, parts)
        self.curation = curation
        self.history_pages = history_buttons(curation)
        super().__init__()
        group = self.__cog_app_commands_group__
        assert group is not None
        for subgroup in (
            PaperCuration(curation),
            AwardCuration(curation),
            StatsCuration(curation),
        ):
            group.add_command(subgroup)

    async def cog_load(self) -> None:
        # History pages sent before this start find their handler by custom_id.
        self.curation.bot.add_dynamic_items(self.history_pages)

    async def cog_unload(self) -> None:
        self.curation.bot.remove_dynamic_items(self.history_pages)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        await self.curation.require_curator(interaction)
        return True

    async def shown_to(self, interaction: discord.Interaction) -> bool:
        """/help lists /curate to curators named in the settings even without Manage Server."""
        return await self.curation.refusal(interaction) is None

    @app_commands.command(
        name=_("import"), description=_("Load a catalogue file: see what would change, then apply")
    )
    @app_commands.describe(file=_("A TOML, CSV or ai-bestpapers YAML file"))
    @app_commands.rename(file=_("file"))
    async def import_file(self, interaction: discord.Interaction, file: discord.Attachment) -> None:
        language = language_of(interaction.locale)
        name = _SAFE_NAME.sub("_", Path(file.filename).name)[-100:] or "upload"
        if file.size > MAX_IMPORT_BYTES:
            raise UserError("curate-file-too-big", limit=MAX_IMPORT_BYTES // 2**20)
        try:
            fmt = formats.detect(Path(name))
        except DocumentError:
            raise UserError("curate-file-format", name=name) from None
        await interaction.response.defer(ephemeral=True, thinking=True)
        data = await self._download(file)
        known = await self.curation.editions.venues()
        batch = await asyncio.to_thread(_read_upload, data, name, fmt, known)
        catalog, who = self.curation.catalog, actor(interaction)
        policy = cast(Policy, formats.POLICY[fmt])
        plan = await catalog.apply(batch, actor=who, policy=policy, dry_run=True)
        if not plan.changes_anything:
            raise UserError("curate-import-nothing", rejected=len(plan.rejected))
        strings = self.curation.strings

        async def write() -> discord.Embed:
            done = await catalog.apply(batch, actor=who, policy=policy)
            title = strings.text("curate-imported", language)
            return plan_embed(done, strings, language, title=title)

        title = strings.text("curate-import-preview", language, name=name)
        embed = plan_embed(plan, strings, language, title=title)
        view = ConfirmView(
            self.curation, interaction.user.id, write, language, confirm_key="curate-apply"
        )
        await send_preview(interaction, view, embed)

    async def _download(self, file: discord.Attachment) -> bytes:
        try:
            data = await file.read()
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError):
            raise UserError("curate-file-download-failed") from None
        if len(data) > MAX_IMPORT_BYTES:  # the size Discord reported was checked; this is what came
            raise UserError("curate-file-too-big", limit=MAX_IMPORT_BYTES // 2**20)
        return data

    @app_commands.command(name=_("export"), description=_("The whole catalogue as a file"))
    @app_commands.describe(format=_("TOML (everything) or CSV (the awards)"))
    @app_commands.rename(format=_("format"))
    @app_commands.choices(
        format=[
            app_commands.Choice(name="TOML", value="toml"),
            app_commands.Choice(name="CSV", value="csv"),
        ]
    )
    async def export(
        self, interaction: discord.Interaction, format: app_commands.Choice[str] | None = None
    ) -> None:
        suffix = format.value if format else "toml"
        await interaction.response.defer(ephemeral=True, thinking=True)
        batch = await self.curation.catalog.export()
        data = await asyncio.to_thread(_written, batch, suffix)
        language = language_of(interaction.locale)
        text = self.curation.strings.text(
            "curate-exported", language, awards=len(batch.awards), editions=len(batch.editions)
        )
        upload = discord.File(io.BytesIO(data), filename=f"laurel-catalog.{suffix}")
        await interaction.followup.send(text, file=upload, ephemeral=True)

    @app_commands.command(name=_("history"), description=_("Who changed what, newest first"))
    @app_commands.describe(
        paper=_("Only this paper's changes (start typing its title)"), page=_("Which page")
    )
    @app_commands.rename(paper=_("paper"), page=_("page"))
    async def history(
        self,
        interaction: discord.Interaction,
        paper: str | None = None,
        page: app_commands.Range[int, 1, 100_000] = 1,
    ) -> None:
        language = language_of(interaction.locale)
        paper_id = None if paper is None else (await stored_paper(self.curation, paper)).id
        pages = await first_history(self.curation, interaction.user.id, paper_id)
        pages = pages.at(page - 1)
        shown = await history_page(self.curation, pages, language)
        view = page_view(self.history_pages, pages, shown, self.curation.strings, language)
        if view is None:
            await interaction.response.send_message(embed=shown.embed, ephemeral=True)
        else:
            await interaction.response.send_message(embed=shown.embed, view=view, ephemeral=True)

    @history.autocomplete("paper")
    async def _papers(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await paper_choices(self.curation, current)

    @app_commands.command(name=_("undo"), description=_("Revert one change from the history"))
    @app_commands.describe(change=_("The change's number, as /curate history shows it"))
    @app_commands.rename(change=_("change"))
    async def undo(
        self, interaction: discord.Interaction, change: app_commands.Range[int, 1, 2**53 - 1]
    ) -> None:
        await before_write(interaction)
        try:
            plan = await self.curation.catalog.revert(change, actor=actor(interaction))
        except UndoRefused as refused:
            raise UserError(f"curate-undo-{refused.reason}", **refused.params) from None
        await show_write(interaction, self.curation, plan, "curate-undone")


def _read_upload(data: bytes, name: str, fmt: formats.Format, known: list[Venue]) -> CatalogBatch:
    with tempfile.TemporaryDirectory(prefix="laurel-import-") as folder:
        path = Path(folder) / name
        path.write_bytes(data)
        try:
            return formats.read(path, fmt, known)
        except NestedTooDeep as exc:
            raise UserError("curate-file-too-deep", name=name, limit=exc.limit) from None
        except DocumentError as exc:  # its English line is the command line's; this is a member's
            raise UserError(f"document-{exc.key}", **exc.params) from None


def _written(batch: CatalogBatch, suffix: str) -> bytes:
    """The export as bytes (every stored value can be written: only the disk can fail)."""
    with tempfile.TemporaryDirectory(prefix="laurel-export-") as folder:
        path = Path(folder) / f"catalog.{suffix}"
        try:
            formats.write(path, batch)
        except DocumentError as exc:
            log.warning("an export could not be written: %s", exc)
            raise UserError("curate-export-failed") from None
        return path.read_bytes()
