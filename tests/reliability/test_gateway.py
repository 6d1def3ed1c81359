"""The gateway connection lost: resumed, or (after a failed resume) identified afresh, when
on_ready fires a second time. Nothing may start twice: no scheduler job, cog or command sync;
and an interaction sent while the bot was away is answered once, after the resume."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from bot.app import LaurelBot
from laurel_console.localdiscord import gateway as op
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.gateway import (
    ReadyCount,
)
from tests.support.interactions import settled

PATH = "gateway session"


def started(bot: LaurelBot, server: LocalDiscord) -> dict[str, Any]:
    """What setup_hook starts once per process, as counts and names."""
    assert bot.scheduler is not None  # the system clock: a live scheduler
    return {
        "jobs": sorted(job.id for job in bot.scheduler.get_jobs()),
        "scheduler running": bot.scheduler.running,
        "cogs": sorted(bot.cogs),
        "commands": sorted(c.name for c in bot.tree.get_commands()),
        "command syncs": sum(r.method == "PUT" and "/commands" in r.route for r in server.requests),
    }


@pytest.mark.fault(PATH, "dropped connection (resumed)")
async def test_a_dropped_connection_resumes_and_replays_what_was_missed(
    laurel: LaurelBot, server: LocalDiscord, checked: Callable[[str], None]
) -> None:
    before, ready = started(laurel, server), ReadyCount(laurel)
    (connection,) = server.gateway.connections
    connection.session = None  # the socket dies unnoticed: what follows is buffered
    session = next(iter(server.gateway.sessions.values()))
    session.connection = None
    interaction = await server.slash("about")  # sent while the bot is away
    mark = len(server.gateway.frames)
    connection.abort()
    await server.gateway.wait_frame("out", op.DISPATCH, t="RESUMED", after=mark)
    await settled(server)
    assert (await interaction.message())["embeds"]
    assert len(server.messages("general")) == 1
    assert ready.fired == 0  # a resume is not a new session: no on_ready
    assert started(laurel, server) == before
    checked("the missed /about replayed and answered once; no on_ready; nothing restarted")


@pytest.mark.fault(PATH, "failed resume (on_ready again)")
async def test_on_ready_firing_again_starts_nothing_twice(
    laurel: LaurelBot, server: LocalDiscord, checked: Callable[[str], None]
) -> None:
    before, ready = started(laurel, server), ReadyCount(laurel)
    server.fail_next_resume()
    mark = len(server.gateway.frames)
    await server.drop_gateway(code=4000)
    await server.gateway.wait_frame("out", op.INVALID_SESSION, after=mark)
    await asyncio.wait_for(ready.again.wait(), 5)
    assert ready.fired == 1
    assert started(laurel, server) == before
    interaction = await server.slash("about")
    await settled(server)
    assert (await interaction.message())["embeds"]
    assert len(server.messages("general")) == 1
    jobs = len(before["jobs"])
    checked(f"on_ready fired again; {jobs} jobs, cogs, commands and syncs as before; one answer")
