"""The base of every persistent button: a DynamicItem whose state rides in its custom_id.

discord.py logs and swallows what a dynamic item's check or callback raises, and the member
sees "This interaction failed". A `LaurelButton` instead sends every error through the central
handler (bot.commands.errors), as a command's errors are, and counts each press in the metrics
by its component's name (its custom_id's prefix) and outcome, as commands are counted.

A subclass names its custom_id's `template` and implements `from_custom_id` and `run`; it may
refuse a press in `check` by raising a UserError (the member reads why).
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass

import discord

from bot.commands.errors import report
from bot.commands.parts import parts_of
from bot.domain.models import Language
from bot.observability.metrics import CommandOutcome
from bot.render.i18n import Strings, language_of

Button = discord.ui.Button[discord.ui.View]


@dataclass(frozen=True, slots=True)
class Press:
    """A press being answered, with the strings and the language to answer it in."""

    interaction: discord.Interaction
    strings: Strings
    language: Language

    def text(self, key: str, **params: object) -> str:
        return self.strings.text(key, self.language, **params)


class LaurelButton(discord.ui.DynamicItem[Button], template=r"(?!)"):
    """A persistent button with one error path and one metrics path.

    The template above matches nothing: this base is never registered, its subclasses are.
    """

    def __init_subclass__(cls, *, template: str | re.Pattern[str] | None = None) -> None:
        if template is not None:
            super().__init_subclass__(template=template)
        else:  # another abstract base (its subclasses name their templates): skip DynamicItem's
            super(discord.ui.DynamicItem, cls).__init_subclass__()

    @property
    def component(self) -> str:
        """The name it is counted under: its custom_id up to the second colon."""
        return ":".join((self.custom_id or "").split(":")[:2])

    async def check(self, interaction: discord.Interaction) -> None:
        """Raise a UserError to refuse the press; everyone may press by default."""

    async def run(self, press: Press) -> None:
        """Answer the press (raise to refuse it: the central handler tells the member)."""
        raise NotImplementedError

    async def callback(self, interaction: discord.Interaction) -> None:
        client = parts_of(interaction.client)
        started = time.perf_counter()
        outcome: CommandOutcome = "ok"
        try:
            await self.check(interaction)
            await self.run(Press(interaction, client.strings, language_of(interaction.locale)))
        except Exception as error:  # the central handler tells the user, and logs bugs
            outcome = await report(interaction, error, client.strings)
        client.metrics.component_finished(self.component, outcome, time.perf_counter() - started)
