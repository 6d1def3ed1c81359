"""The buttons and forms of /curate: Confirm/Cancel under a preview, history pages, the paper form.

The history's pages are the one paginator's (bot.commands.paginator): persistent, with the
history's state in their custom_ids.

A preview's write waits in its view (in memory, for CONFIRM_TIMEOUT): a restart drops it, and
the curator asks again. Confirm runs the write once, however often or fast it is pressed: the
view is marked used before anything is awaited, and discord.py runs callbacks on one loop.
"""

from __future__ import annotations

import contextlib
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

import discord

from bot.commands.buttons import Press
from bot.commands.curate.access import (
    CONFIRM_TIMEOUT,
    Curation,
    CuratorModal,
    CuratorView,
    require_invoker,
)
from bot.commands.curate.inputs import LIMITS, MULTILINE
from bot.commands.custom_ids import ID, parse_id
from bot.commands.paginator import PageButton, Shown, Step
from bot.commands.writes import before_write, replace_message
from bot.domain.audit import AuditEntry
from bot.domain.models import Language
from bot.errors import UserError
from bot.render.history import history_embed
from bot.render.i18n import language_of

Button = discord.ui.Button[discord.ui.View]
Write = Callable[[], Awaitable[discord.Embed]]
Submit = Callable[[discord.Interaction, dict[str, str]], Awaitable[None]]
HISTORY_PAGE = 5  # writes a page shows
HISTORY_ROWS = 4  # rows of one curator's write shown; the rest are counted
MAX_HISTORY_PAGE = 99_999  # /curate history's page option goes to 100,000 (from 1)
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


@dataclass(frozen=True, slots=True)
class HistoryPages:
    """A curator's audit history (of one paper, or of everything), all in a custom_id.

    `upto` is the newest change when it was first asked for: changes made since do not move
    the rows of its pages."""

    owner: int
    paper_id: int | None
    upto: int
    page: int = 0  # from 0; the member reads page + 1

    def at(self, page: int) -> HistoryPages:
        return replace(self, page=max(0, min(page, MAX_HISTORY_PAGE)))

    def custom_id(self, step: Step) -> str:
        paper = "" if self.paper_id is None else self.paper_id
        return f"curate:history:{self.owner}:{paper}:{self.upto}:{self.page}:{step}"

    @classmethod
    def parse(cls, match: re.Match[str]) -> HistoryPages:
        paper = parse_id(match["paper"]) if match["paper"] else None
        return cls(parse_id(match["owner"]), paper, parse_id(match["upto"]), int(match["page"]))


HISTORY_ID = re.compile(
    rf"curate:history:(?P<owner>{ID}):(?P<paper>{ID}|):(?P<upto>{ID}):(?P<page>[0-9]{{1,5}})"
    r":(?P<step>[pn])"
)


def history_buttons(curation: Curation) -> type[PageButton[HistoryPages]]:
    """The history's page buttons, bound to `curation` (registered by the /curate cog)."""

    class HistoryPageButton(PageButton[HistoryPages], template=HISTORY_ID):
        """Older or newer changes, for the curator who asked while still a curator."""

        @classmethod
        def parse(cls, match: re.Match[str]) -> HistoryPages:
            return HistoryPages.parse(match)

        async def check(self, interaction: discord.Interaction) -> None:
            await require_invoker(curation, self.target.owner, interaction)

        async def show(self, press: Press) -> Shown:
            return await history_page(curation, self.target, press.language)

    return HistoryPageButton


async def first_history(curation: Curation, owner: int, paper_id: int | None) -> HistoryPages:
    """A history as of now: its newest change bounds every page of it."""
    newest, _ = await curation.audit.history(paper_id=paper_id, limit=1)
    return HistoryPages(owner, paper_id, newest[0].id if newest else 0)


async def history_page(curation: Curation, pages: HistoryPages, language: Language) -> Shown:
    """The history page `pages` names (moved inside the pages there are): writes, curators'
    own first, each shown once (bot/render/history.py)."""
    paper_id, upto = pages.paper_id, pages.upto
    _, total = await curation.audit.writes(paper_id=paper_id, limit=1, upto=upto)
    count = max(1, -(-total // HISTORY_PAGE))
    page = min(pages.page, count - 1)
    groups, _ = await curation.audit.writes(
        paper_id=paper_id, limit=HISTORY_PAGE, offset=page * HISTORY_PAGE, upto=upto
    )
    rows = {
        g.batch: await curation.audit.of_write(g.batch, paper_id=paper_id, limit=HISTORY_ROWS)
        for g in groups
        if g.by_curator
    }
    editions = await curation.editions.labels(_edition_ids(rows.values()))
    strings = curation.strings
    title = (
        strings.text("curate-history-paper-title", language, id=paper_id)
        if paper_id is not None
        else strings.text("curate-history-title", language)
    )
    embed = history_embed(
        groups, rows, editions, strings, language, title=title, page=page + 1, pages=count
    )
    return Shown(embed, page, page < count - 1)


def _edition_ids(written: Iterable[Sequence[AuditEntry]]) -> list[int]:
    """The editions rows name (as the row itself, or an award's edition_id): shown by name."""
    ids: set[int] = set()
    for entries in written:
        for entry in entries:
            if entry.entity == "edition" and entry.entity_id.isdigit():
                ids.add(int(entry.entity_id))
            for record in (entry.before or {}, entry.after or {}):
                if isinstance(record.get("edition_id"), int):
                    ids.add(record["edition_id"])
    return sorted(ids)


# The refusals of a form's own values: the form can be opened again with what was typed.
FORM_MISTAKES = frozenset({"curate-invalid", "curate-too-long", "curate-bad-characters"})
MARK = "⚠ "  # before the label of a field that was refused


class PaperForm(CuratorModal):
    """The paper's fields as text inputs; a value too long to show is left out (and kept).

    A refused value (issue 25, item 10) does not throw away what was typed: the answer names
    the field and offers the form again, every value kept and the bad field marked."""

    def __init__(
        self,
        curation: Curation,
        invoker_id: int,
        *,
        title: str,
        values: Mapping[str, str],
        language: Language,
        submit: Submit,
        labels: Mapping[str, str] | None = None,
        bad: frozenset[str] = frozenset(),
    ) -> None:
        super().__init__(curation, invoker_id, title=title)
        self._submit = submit
        self._title, self._language = title, language
        for field, value in values.items():
            limit = min(LIMITS[field], 4000)
            if len(value) > limit:
                continue
            label = (labels or {}).get(field) or curation.strings.text(
                f"curate-form-{field}", language
            )
            label = (MARK + label if field in bad else label)[:FORM_LABEL]
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
        try:
            await self._submit(interaction, given)
        except UserError as refused:
            if refused.key not in FORM_MISTAKES or interaction.response.is_done():
                raise
            await self._offer_again(interaction, given, refused)

    async def _offer_again(
        self, interaction: discord.Interaction, given: Mapping[str, str], refused: UserError
    ) -> None:
        """Say what is wrong, with a button that opens this form again as it was filled in."""
        strings, language = self.curation.strings, language_of(interaction.locale)
        bad = refused_fields(refused)

        async def reopen(pressed: discord.Interaction) -> None:
            again = PaperForm(
                self.curation, self.invoker_id, title=self._title, values=given,
                language=self._language, submit=self._submit, bad=bad,
            )  # fmt: skip
            await pressed.response.send_modal(again)

        view = ReopenView(self.curation, self.invoker_id, reopen, language)
        text = strings.text(refused.key, language, **refused.params)
        await interaction.response.send_message(content=text, view=view, ephemeral=True)


def refused_fields(refused: UserError) -> frozenset[str]:
    """The form fields a refusal names ("links.code, doi" → links, doi)."""
    named = str(refused.params.get("fields") or refused.params.get("field") or "")
    return frozenset(part.strip().split(".")[0] for part in named.split(",") if part.strip())


class ReopenView(CuratorView):
    """One button: the form again, with what was typed (kept here, in memory)."""

    def __init__(
        self,
        curation: Curation,
        invoker_id: int,
        reopen: Callable[[discord.Interaction], Awaitable[None]],
        language: Language,
    ) -> None:
        super().__init__(curation, invoker_id, timeout=CONFIRM_TIMEOUT)
        self._reopen = reopen
        self.again.label = curation.strings.text("curate-form-again", language)
        self.again.custom_id = f"curate:again:{secrets.token_hex(6)}"

    @discord.ui.button(style=discord.ButtonStyle.primary)
    async def again(self, interaction: discord.Interaction, button: Button) -> None:
        await self._reopen(interaction)
