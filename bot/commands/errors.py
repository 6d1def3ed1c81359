"""The one place where errors from commands and components become answers.

Three kinds, each with its own answer and its own metrics outcome:
- the member's mistake (`user_error`): a short ephemeral answer in their language;
- an operational fault (`fault`): the database refused or is unusable, arXiv is down, a file
  could not be read or written. The member is told, in their language, that nothing was
  changed and the operator knows; the English reason goes to the log as a warning;
- a bug (`error`): an apology with an error id, the traceback logged under that id.
An interaction that expired before the bot answered it (10062: the bot or its host too slow)
is a fault told to no one, as no answer can reach the member; it is logged as a warning.
Nothing the member reads is English-only: text comes from the locale files, never `str(error)`.
Answering works whether the interaction was already answered, deferred, or has expired.
"""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands

from bot.commands.parts import parts_of
from bot.domain.models import Language
from bot.errors import (
    LaurelError,
    StoreBusy,
    StoreError,
    StoreFull,
    StoreReadOnly,
    UserError,
    WriteRefused,
)
from bot.observability.metrics import CommandOutcome
from bot.render.i18n import Strings, language_of
from bot.render.markdown import esc
from bot.store.sql import engine_errors

log = logging.getLogger(__name__)

# Discord's code for an interaction whose 3-second (or 15-minute) window has passed.
UNKNOWN_INTERACTION = 10062
# Discord's code for a second answer to one interaction.
ALREADY_ACKNOWLEDGED = 40060
# What a member is told when the store refused a write; the operator's English reason is logged.
REFUSED_WRITES: dict[type[WriteRefused], str] = {
    StoreBusy: "error-store-busy",
    StoreReadOnly: "error-store-read-only",
    StoreFull: "error-store-full",
}


def describe(
    error: Exception, strings: Strings, locale: discord.Locale
) -> tuple[str, CommandOutcome]:
    """The text to show for `error`, and which kind of failure it was (see the module)."""
    language = language_of(locale)
    error = _unwrap(error)
    if isinstance(error, WriteRefused):
        log.warning("a command's write was refused: %s", error)
        key = REFUSED_WRITES.get(type(error), "error-store-busy")
        return strings.text(key, language), "fault"
    if isinstance(error, UserError):
        outcome: CommandOutcome = "fault" if error.fault else "user_error"
        return strings.text(error.key, language, **error.params), outcome
    if isinstance(error, engine_errors("OperationalError")):  # a database not answering
        error_id = secrets.token_hex(4)
        log.warning("the database is unavailable (%s): %s", error_id, error)
        return strings.text("error-store-unusable", language, error_id=error_id), "fault"
    if isinstance(error, LaurelError):  # a fault whose English reason is for the operator
        error_id = secrets.token_hex(4)
        log.warning("a command could not be done (%s): %s", error_id, error)
        key = "error-store-unusable" if isinstance(error, StoreError) else "error-fault"
        return strings.text(key, language, error_id=error_id), "fault"
    return _app_command_text(error, strings, language)


def _app_command_text(
    error: Exception, strings: Strings, language: Language
) -> tuple[str, CommandOutcome]:
    """discord.py's refusals before a command runs (the member's), or a bug."""
    if isinstance(error, app_commands.TransformerError):
        value = esc(str(error.value))[:100]
        return strings.text("error-bad-value", language, value=value), "user_error"
    if isinstance(error, app_commands.MissingPermissions):
        names = ", ".join(error.missing_permissions)
        return strings.text("error-missing-permissions", language, permissions=names), "user_error"
    if isinstance(error, app_commands.BotMissingPermissions):
        names = ", ".join(error.missing_permissions)
        return strings.text(
            "error-bot-missing-permissions", language, permissions=names
        ), "user_error"
    if isinstance(error, app_commands.CommandOnCooldown):
        seconds = max(1, round(error.retry_after))
        return strings.text("error-cooldown", language, seconds=seconds), "user_error"
    if isinstance(error, app_commands.NoPrivateMessage):
        return strings.text("error-guild-only", language), "user_error"
    if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
        return strings.text("error-stale-command", language), "user_error"
    if isinstance(error, app_commands.CheckFailure):
        return strings.text("error-check-failed", language), "user_error"
    error_id = secrets.token_hex(4)
    log.error("unexpected error %s", error_id, exc_info=error)
    return strings.text("error-unexpected", language, error_id=error_id), "error"


def _unwrap(error: Exception) -> Exception:
    """The error behind discord.py's wrappers: what the command or transformer raised."""
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    if isinstance(error, app_commands.TransformerError) and isinstance(
        error.__cause__, LaurelError
    ):
        return error.__cause__
    return error


async def send_ephemeral(interaction: discord.Interaction, content: str) -> None:
    """Answer privately, whatever state the interaction is in; never raise for a lost one."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=True)
        else:
            await interaction.response.send_message(content, ephemeral=True)
    except discord.NotFound as exc:
        if exc.code != UNKNOWN_INTERACTION:
            raise
        log.warning("interaction %s expired before the error could be shown", interaction.id)
    except discord.HTTPException:
        log.warning("could not tell the user about an error", exc_info=True)


class LaurelTree(app_commands.CommandTree[discord.Client]):
    """The command tree, with the central error handler.

    discord.py builds the tree itself (`tree_cls(client)`), so the strings come from the client,
    which sets them before it builds its tree.
    """

    def __init__(self, client: discord.Client) -> None:
        super().__init__(client)
        self.strings = parts_of(client).strings
        self.metrics = parts_of(client).metrics

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        self.metrics.command_started(interaction)  # for the latency histogram
        if interaction.type is discord.InteractionType.autocomplete:
            return await _may_autocomplete(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        text, outcome = answer_for(error, self.strings, interaction.locale)
        # Counted when the command ended, as a completion is: before the error is answered.
        self.metrics.command_finished(interaction, outcome)
        if text is not None:
            await send_ephemeral(interaction, text)


async def _may_autocomplete(interaction: discord.Interaction) -> bool:
    """Suggestions only for someone who may run the command; an empty list for anyone else.

    discord.py runs a command's checks (its group's and cog's interaction_check, its own
    checks) before the command, but not before its autocomplete: they are run here.
    """
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return True
    try:
        allowed = await command._check_can_run(interaction)  # no public way to ask
    except app_commands.AppCommandError:
        allowed = False
    if not allowed:
        await interaction.response.autocomplete([])
    return allowed


def answer_for(
    error: Exception, strings: Strings, locale: discord.Locale
) -> tuple[str | None, CommandOutcome]:
    """What to tell the user about `error` (None: nothing), and the command's outcome."""
    cause = _unwrap(error)
    if isinstance(cause, discord.NotFound) and cause.code == UNKNOWN_INTERACTION:
        # The window closed before the bot's first answer (the bot, its host or Discord was
        # slow): nothing can reach the member through this interaction any more, an apology
        # included, and slowness is an operational fault, not a bug.
        log.warning("an interaction expired before the bot answered it (too slow): %s", cause)
        return None, "fault"
    if isinstance(cause, discord.HTTPException) and cause.code == ALREADY_ACKNOWLEDGED:
        # A retry of an answer whose first attempt took effect despite a 5xx: the user has
        # the answer already, and an apology on top of it would be wrong.
        log.warning("an interaction was answered already (a retried answer)")
        return None, "ok"
    return describe(error, strings, locale)


async def report(
    interaction: discord.Interaction, error: Exception, strings: Strings
) -> CommandOutcome:
    """Tell the user what went wrong, log it if it was not their mistake, and say which kind
    of failure it was (for the metrics)."""
    text, outcome = answer_for(error, strings, interaction.locale)
    if text is not None:
        await send_ephemeral(interaction, text)
    return outcome


class LaurelView(discord.ui.View):
    """Base for every view: errors in buttons and menus go through the same handler."""

    def __init__(self, *, strings: Strings, timeout: float | None = 180) -> None:
        super().__init__(timeout=timeout)
        self.strings = strings

    async def on_error(
        self,
        interaction: discord.Interaction,
        error: Exception,
        item: discord.ui.Item[discord.ui.View],
    ) -> None:
        await report(interaction, error, self.strings)
