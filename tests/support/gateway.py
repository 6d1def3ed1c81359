"""Counting the bot's READY events (a fresh gateway session each)."""

from __future__ import annotations

import asyncio

from bot.app import LaurelBot


class ReadyCount:
    """Counts on_ready from now on; `again` is set by the first."""

    def __init__(self, bot: LaurelBot) -> None:
        self.fired = 0
        self.again = asyncio.Event()
        bot.add_listener(self.on_ready, "on_ready")

    async def on_ready(self) -> None:
        self.fired += 1
        self.again.set()
