"""Answering within Discord's window: a first answer later than 3 seconds is thrown away.

Most answers take milliseconds, and deferring all of them would show every user a "thinking…"
flicker. So slow work is awaited for a moment first, and the interaction is deferred only when
the work has not finished by then; `reply` then sends through whichever path is open.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

import discord

T = TypeVar("T")


async def in_time(interaction: discord.Interaction, work: Awaitable[T], defer_after: float) -> T:
    """Await `work`, deferring the interaction first if it takes longer than `defer_after`
    seconds ([discord] defer_after_seconds: 1.5 leaves half of Discord's 3 s for the defer
    itself to arrive under load)."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=defer_after)
    if not done and not interaction.response.is_done():
        await interaction.response.defer(thinking=True)
    return await task


async def reply(interaction: discord.Interaction, **message: Any) -> None:
    """Send the answer as the response, or by editing the "thinking" message of a deferral.

    An edit, not a followup: discord.py retries a 5xx, and when the first attempt had taken
    effect a retried followup posts the answer twice, where a retried edit changes nothing
    (tests/reliability/test_answers.py).
    """
    if interaction.response.is_done():
        if "file" in message:  # an edit carries its files as attachments
            message["attachments"] = [message.pop("file")]
        await interaction.edit_original_response(**message)
    else:
        await interaction.response.send_message(**message)
