"""The control API over HTTP, and `serve` as the console and `python -m` run it."""

from __future__ import annotations

import asyncio

import aiohttp
import discord
import pytest

from laurel_console.localdiscord import gateway as op
from laurel_console.localdiscord.server import LocalDiscord, serve
from tests.support.bare_client import Laurel, connected
from tests.support.control_api import (
    call,
)
from tests.support.ports import (
    free_port,
)


async def test_drive_a_slash_command_and_read_what_it_did(
    server: LocalDiscord, bot: Laurel
) -> None:
    @bot.tree.command(description="Say hello")
    async def hello(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"hi {name}")

    async with connected(bot, server):
        await bot.tree.sync()
        status, made = await call(
            server,
            "POST",
            "/interactions",
            {"name": "hello", "options": {"name": "Ada"}, "wait": True},
        )
        assert status == 200
        assert made["acknowledged"]
        assert made["response"]["type"] == 4
        status, seen = await call(server, "GET", f"/interactions/{made['id']}")
        assert seen["original"]["content"] == "hi Ada"
        status, listing = await call(server, "GET", "/messages?channel_id=general")
        assert [m["content"] for m in listing["messages"]] == ["hi Ada"]
        status, recorded = await call(
            server, "GET", "/requests?route=" + "PUT /applications/{application_id}/commands"
        )
        assert len(recorded["requests"]) == 1
        assert recorded["unhandled"] == []
        status, problem = await call(server, "POST", "/interactions", {"name": "nope"})
        assert status == 400
        assert "no registered command 'nope'" in problem["error"]


async def test_faults_and_gateway_drops_over_http(server: LocalDiscord, bot: Laurel) -> None:
    async with connected(bot, server):
        status, fault = await call(
            server,
            "POST",
            "/faults",
            {
                "kind": "rate_limit",
                "route": "POST /channels/{channel_id}/messages",
                "retry_after": 0.01,
            },
        )
        assert status == 201
        assert fault["kind"] == "rate_limit"
        status, listed = await call(server, "GET", "/faults")
        assert len(listed["faults"]) == 1
        status, _ = await call(server, "DELETE", "/faults")
        assert status == 204
        assert server.faults.faults == []
        status, problem = await call(server, "POST", "/faults", {"kind": "meteor"})
        assert status == 400
        assert "unknown fault kind" in problem["error"]
        await call(server, "POST", "/faults", {"kind": "fail_resume"})
        assert server.faults.resume_failures == 1
        await call(server, "DELETE", "/faults")

        mark = len(server.gateway.frames)
        status, dropped = await call(server, "POST", "/gateway/drop", {})
        assert dropped == {"dropped": 1}
        await server.gateway.wait_frame("out", op.DISPATCH, t="RESUMED", after=mark)
        status, world = await call(server, "GET", "/world")
        assert world["guilds"][0]["name"] == "Laurel Lab"
        status, violations = await call(server, "GET", "/violations")
        assert violations == {"violations": []}


async def test_serve_prints_what_a_bot_needs(capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()
    task = asyncio.create_task(serve("127.0.0.1", port, spec_path=None))
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(200):  # until it listens
                try:
                    async with session.get(f"http://127.0.0.1:{port}/_control/world") as response:
                        assert response.status == 200
                        break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.01)
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    printed = capsys.readouterr().out
    assert f"http://127.0.0.1:{port}/api/v10" in printed
    assert f"ws://127.0.0.1:{port}/gateway" in printed
    assert "token" in printed


async def test_unknown_routes_and_missing_auth_are_answered_like_discord(
    server: LocalDiscord,
) -> None:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{server.rest_url}/users/@me") as response:
            assert response.status == 401
            assert await response.json() == {"message": "401: Unauthorized", "code": 0}
        headers = {"Authorization": f"Bot {server.token}"}
        async with session.get(f"{server.rest_url}/users/@me", headers=headers) as response:
            assert response.status == 200
            assert response.headers["Content-Type"] == "application/json"
            assert int(response.headers["X-RateLimit-Remaining"]) >= 0
            assert response.headers["X-RateLimit-Bucket"]
        async with session.get(f"{server.rest_url}/nowhere/1", headers=headers) as response:
            assert response.status == 404
    assert [r.route for r in server.unhandled] == ["GET /api/v10/nowhere/1"]
    server.unhandled.clear()
