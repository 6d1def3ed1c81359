"""An answer for every component press and form nobody is listening for any more.

A preview's Confirm, the history pages and a paper form live in memory: after a restart, or
once a preview was answered, discord.py drops such an interaction without a word and Discord
shows "This interaction failed". The bot notes, as the interaction is dispatched, whether any
view, dynamic item or form will take it; if none will, the member is told that it expired.

It is decided at dispatch, before any callback runs: a Confirm's callback takes its view out
of the store at once, and a later look would think its own press unclaimed.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.commands.errors import send_ephemeral
from bot.render.i18n import Strings, language_of

UNCLAIMED = "laurel-unclaimed"  # the key in Interaction.extras


def note_unclaimed(interaction: discord.Interaction, store: Any) -> None:
    """Mark `interaction` if it is a press or a form that nothing in `store` will answer.

    `store` is discord.py's ViewStore (the client's `_connection._view_store`), which has no
    public way to ask this; its three tables are read here and only here.
    """
    if not _claimed(interaction, store):
        interaction.extras[UNCLAIMED] = True


def _claimed(interaction: discord.Interaction, store: Any) -> bool:
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = data.get("custom_id")
    if interaction.type is discord.InteractionType.modal_submit:
        return custom_id in store._modals
    if interaction.type is not discord.InteractionType.component or custom_id is None:
        return True  # commands and autocomplete have handlers of their own
    if any(pattern.fullmatch(custom_id) for pattern in store._dynamic_items):
        return True
    key = (data.get("component_type"), custom_id)
    message_id = interaction.message.id if interaction.message is not None else None
    views: dict[Any, dict[Any, Any]] = store._views
    return key in views.get(message_id, {}) or key in views.get(None, {})


async def answer_unclaimed(interaction: discord.Interaction, strings: Strings) -> None:
    """Tell the member that what they pressed or sent has expired, if nothing else will."""
    if interaction.extras.get(UNCLAIMED):
        text = strings.text("component-expired", language_of(interaction.locale))
        await send_ephemeral(interaction, text)
