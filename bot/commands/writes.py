"""Answering a write that may wait: acknowledge at once, answer when it is done.

Discord takes a first answer for 3 seconds only; a write may wait longer for SQLite's write
lock (a CLI import holds it) or take longer itself (a large import). So every command, button
and form that writes acknowledges before it writes, and its answer goes out afterwards through
the interaction's webhook, which Discord keeps for 15 minutes.
"""

from __future__ import annotations

from typing import Any

import discord


async def before_write(interaction: discord.Interaction) -> None:
    """Acknowledge `interaction` now, unless it has been already.

    A button's press becomes an edit of its own message later (`edit_original_response`);
    a command or a form shows "thinking…" until the first followup replaces it.
    """
    if interaction.response.is_done():
        return
    if interaction.type is discord.InteractionType.component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


async def answer(interaction: discord.Interaction, **message: Any) -> None:
    """A private answer: the response if there is still none, else a followup."""
    if interaction.response.is_done():
        await interaction.followup.send(ephemeral=True, **message)
    else:
        await interaction.response.send_message(ephemeral=True, **message)


async def replace_message(interaction: discord.Interaction, **message: Any) -> None:
    """Put `message` in place of the one whose button was pressed, before or after a defer."""
    if interaction.response.is_done():
        await interaction.edit_original_response(**message)
    else:
        await interaction.response.edit_message(**message)
