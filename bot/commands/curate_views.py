"""The buttons and forms of /curate: Confirm/Cancel under a preview, history pages, the paper form.

A preview's write waits in its view (in memory, for CONFIRM_TIMEOUT): a restart drops it, and
the curator asks again. Confirm runs the write once, however often or fast it is pressed: the
view is marked used before anything is awaited, and discord.py runs callbacks on one loop.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Awaitable, Callable, Mapping

import discord

from bot.commands.curate_access import CONFIRM_TIMEOUT, Curation, CuratorModal, CuratorView
from bot.commands.curate_input import LIMITS, MULTILINE
from bot.commands.writes import before_write, replace_message
from bot.domain.models import Language
from bot.errors import UserError
from bot.render.curate import history_embed
from bot.render.i18n import language_of

Button = discord.ui.Button[discord.ui.View]
Write = Callable[[], Awaitable[discord.Embed]]
Submit = Callable[[discord.Interaction, dict[str, str]], Awaitable[None]]
HISTORY_PAGE = 5
FORM_LABEL = 45  # Discord's limit for a text input's label


class ConfirmView(CuratorView):
    """Confirm (runs `write` once and shows its result) or Cancel (writes nothing)."""

    def __init__(
        self,
        curation: Curation,
        invoker_id: int,
        write: Write,
        language: Language,
        *,
        confirm_key: str = "curate-confirm",
    ) -> None:
        super().__init__(curation, invoker_id, timeout=CONFIRM_TIMEOUT)
        self._write = write
        self._language = language
        self.used = False
        self.message: discord.InteractionMessage | discord.WebhookMessage | None = None
        strings = curation.strings
        self.confirm.label = strings.text(confirm_key, language)
        self.cancel.label = strings.text("curate-cancel", language)
        # Each preview's own ids: two previews open at once never take each other's presses.
        nonce = secrets.token_hex(6)
        self.confirm.custom_id = f"curate:confirm:{nonce}"
        self.cancel.custom_id = f"curate:cancel:{nonce}"

    @discord.ui.button(
        style=discord.ButtonStyle.success,
    )
    async def confirm(self, interaction: discord.Interaction, button: Button) -> None:
        self._claim()
        await before_write(interaction)
        try:
            embed = await self._write()
        except UserError as refused:  # the preview itself says why nothing was written
            language = language_of(interaction.locale)
            text = self.curation.strings.text(refused.key, language, **refused.params)
            await replace_message(interaction, content=text, embed=None, view=None)
            return
        await replace_message(interaction, embed=embed, view=None)

    @discord.ui.button(
        style=discord.ButtonStyle.secondary,
    )
    async def cancel(self, interaction: discord.Interaction, button: Button) -> None:
        self._claim()
        text = self.curation.strings.text("curate-cancelled", language_of(interaction.locale))
        await interaction.response.edit_message(content=text, embed=None, view=None)

    def _claim(self) -> None:
        if self.used:
            raise UserError("curate-already-done")
        self.used = True  # before any await: a second press finds it taken
        self.stop()

    async def on_timeout(self) -> None:
        if self.message is not None and not self.used:
            text = self.curation.strings.text("curate-expired", self._language)
            # The message or its token may be gone; then nothing is pending any more anyway.
            with contextlib.suppress(discord.HTTPException):
                await self.message.edit(content=text, view=None)


async def send_preview(
    interaction: discord.Interaction, view: ConfirmView, embed: discord.Embed
) -> None:
    """Send privately, as the response or (after a defer) the followup, and keep the message
    so that the view can take its buttons away when it expires."""
    if interaction.response.is_done():
        view.message = await interaction.followup.send(
            embed=embed, view=view, ephemeral=True, wait=True
        )
    else:
        await interaction.response.send_message(embed=embed, view=view, ephemeral=True)
        view.message = await interaction.original_response()


class HistoryView(CuratorView):
    """Older and newer pages of the audit history (of one paper, or of everything)."""

    def __init__(
        self,
        curation: Curation,
        invoker_id: int,
        *,
        paper_id: int | None,
        page: int,
        pages: int,
        language: Language,
    ) -> None:
        super().__init__(curation, invoker_id, timeout=CONFIRM_TIMEOUT)
        self.paper_id, self.page, self.pages = paper_id, page, pages
        strings = curation.strings
        self.newer.label = strings.text("paper-previous", language)
        self.older.label = strings.text("paper-next", language)
        nonce = secrets.token_hex(6)
        self.newer.custom_id = f"curate:newer:{nonce}"
        self.older.custom_id = f"curate:older:{nonce}"
        self._enable()

    def _enable(self) -> None:
        self.newer.disabled = self.page <= 1
        self.older.disabled = self.page >= self.pages

    @discord.ui.button(
        style=discord.ButtonStyle.secondary,
    )
    async def newer(self, interaction: discord.Interaction, button: Button) -> None:
        await self._show(interaction, self.page - 1)

    @discord.ui.button(
        style=discord.ButtonStyle.secondary,
    )
    async def older(self, interaction: discord.Interaction, button: Button) -> None:
        await self._show(interaction, self.page + 1)

    async def _show(self, interaction: discord.Interaction, page: int) -> None:
        embed, self.page, self.pages = await history_page(
            self.curation, self.paper_id, page, language_of(interaction.locale)
        )
        self._enable()
        await interaction.response.edit_message(embed=embed, view=self)


async def history_page(
    curation: Curation, paper_id: int | None, page: int, language: Language
) -> tuple[discord.Embed, int, int]:
    """The embed of history page `page` (clamped to what exists), the page, and the page count."""
    _, total = await curation.audit.history(paper_id=paper_id, limit=1)
    pages = max(1, -(-total // HISTORY_PAGE))
    page = min(max(1, page), pages)
    entries, _ = await curation.audit.history(
        paper_id=paper_id, limit=HISTORY_PAGE, offset=(page - 1) * HISTORY_PAGE
    )
    strings = curation.strings
    title = (
        strings.text("curate-history-paper-title", language, id=paper_id)
        if paper_id is not None
        else strings.text("curate-history-title", language)
    )
    embed = history_embed(entries, strings, language, title=title, page=page, pages=pages)
    return embed, page, pages


class PaperForm(CuratorModal):
    """The paper's fields as text inputs; a value too long to show is left out (and kept)."""

    def __init__(
        self,
        curation: Curation,
        invoker_id: int,
        *,
        title: str,
        values: Mapping[str, str],
        language: Language,
        submit: Submit,
    ) -> None:
        super().__init__(curation, invoker_id, title=title)
        self._submit = submit
        for field, value in values.items():
            limit = min(LIMITS[field], 4000)
            if len(value) > limit:
                continue
            label = curation.strings.text(f"curate-form-{field}", language)[:FORM_LABEL]
            self.add_item(
                discord.ui.TextInput(
                    label=label,
                    custom_id=field,
                    style=(
                        discord.TextStyle.paragraph
                        if field in MULTILINE
                        else discord.TextStyle.short
                    ),
                    default=value or None,
                    required=field == "title",
                    max_length=limit,
                )
            )

    async def on_submit(self, interaction: discord.Interaction, /) -> None:
        given = {
            item.custom_id: item.value
            for item in self.children
            if isinstance(item, discord.ui.TextInput)
        }
        await self._submit(interaction, given)
