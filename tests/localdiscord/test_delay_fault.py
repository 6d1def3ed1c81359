"""A delay fault holds a request in flight: before it takes effect, or after (answer held)."""

from __future__ import annotations

import asyncio

import pytest

from laurel_console.localdiscord.faults import Fault
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.bare_client import Laurel, connected
from tests.support.control_api import CREATE, general


async def test_a_held_answer_comes_after_the_message_is_stored(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        server.inject("delay", route=CREATE, seconds=0.5, after_store=True)
        sending = asyncio.create_task(general(bot).send("held"))
        created = await bot.wait_for("message", timeout=5)  # the gateway tells of the store
        assert not sending.done()  # stored, yet the sender has not heard back
        message = await sending
        assert message.id == created.id
        assert [m["id"] for m in server.messages("general")] == [str(message.id)]


async def test_a_held_request_takes_effect_only_when_released(
    server: LocalDiscord, bot: Laurel
) -> None:
    async with connected(bot, server):
        server.inject("delay", route=CREATE, seconds=0.3)
        sending = asyncio.create_task(general(bot).send("later"))
        await server.rest.pulse.until(
            lambda: any(r.fault == "delay" for r in server.requests) or None, 5.0, "the hold"
        )
        assert server.messages("general") == []
        await sending
        assert [m["content"] for m in server.messages("general")] == ["later"]


def test_a_delay_is_bounded() -> None:
    with pytest.raises(ValueError, match="0 to 600"):
        Fault("delay", seconds=601)
    with pytest.raises(ValueError, match="after the store"):
        Fault("rate_limit", after_store=True)
