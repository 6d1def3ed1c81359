"""Waiting for the bot to be done with an interaction (tests/reliability)."""

from __future__ import annotations

import asyncio

from laurel_console.localdiscord.server import LocalDiscord

EPHEMERAL = 64  # the message flag: only the one who asked sees the answer
CALLBACK = "POST /interactions/{interaction_id}/{interaction_token}/callback"


async def settled(server: LocalDiscord, route: str = CALLBACK) -> None:
    """Wait until the bot has taken up the interaction (its first request to `route` came
    in) and then finished with it, retries and error answers included: discord.py runs each
    application command in a task of its own, named "CommandTree-invoker"."""
    await server.wait_for_request(route)
    current = asyncio.current_task()
    while running := [
        t
        for t in asyncio.all_tasks()
        if t is not current and t.get_name() == "CommandTree-invoker" and not t.done()
    ]:
        await asyncio.wait(running)
