"""Gateway sharding with the real discord.py AutoShardedClient: per-shard READY and guilds,
events on the shard of their guild, a shard resuming alone, invalid shards refused."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands

from laurel_console.localdiscord import gateway as op
from laurel_console.localdiscord.__main__ import main
from laurel_console.localdiscord.config import Config
from laurel_console.localdiscord.server import LocalDiscord, serve
from laurel_console.localdiscord.shards import add_spread_guilds
from laurel_console.localdiscord.state import Guild
from tests.support.bare_client import connected
from tests.support.control_api import call
from tests.support.ports import free_port

COUNT = 4


class ShardedLaurel(discord.AutoShardedClient):
    """The sharded twin of conftest.Laurel: no wait before on_ready or between IDENTIFYs."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("intents", discord.Intents.default())
        super().__init__(guild_ready_timeout=0.01, **options)
        self.tree = app_commands.CommandTree(self)
        self.answered_on: list[int] = []

        @self.tree.command(description="Say which shard answered")
        async def hello(interaction: discord.Interaction) -> None:
            assert interaction.guild is not None
            self.answered_on.append(interaction.guild.shard_id)
            await interaction.response.send_message(f"shard {interaction.guild.shard_id}")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass


def on_shard(guild_id: int) -> int:
    """Written out here rather than taken from shards.py, so a wrong formula there fails."""
    return (guild_id >> 22) % COUNT


@pytest.fixture
def spread(server: LocalDiscord) -> list[Guild]:
    """Eight more guilds, two on each of the four shards, with grace as a member."""
    guilds = add_spread_guilds(server.world, 8, members=[server.world.find_user("grace")])
    assert sorted(on_shard(g.id) for g in guilds) == [0, 0, 1, 1, 2, 2, 3, 3]
    return guilds


def expected(server: LocalDiscord, shard_ids: set[int]) -> set[int]:
    return {g for g in server.world.guilds if on_shard(g) in shard_ids}


def sent(server: LocalDiscord, event: str, after: int = 0) -> list[op.Frame]:
    return [f for f in server.gateway.frames[after:] if f.direction == "out" and f.t == event]


async def test_each_shard_gets_ready_and_only_its_guilds(
    server: LocalDiscord, spread: list[Guild]
) -> None:
    client = ShardedLaurel(shard_count=COUNT)
    async with connected(client, server):
        assert sorted(client.shards) == [0, 1, 2, 3]
        assert {g.id for g in client.guilds} == set(server.world.guilds)
        for guild in client.guilds:
            assert guild.shard_id == on_shard(guild.id)
        readies = {f.shard: f.d for f in sent(server, "READY") if f.shard}
        assert sorted(readies) == [(n, COUNT) for n in range(COUNT)]
        for (shard_id, _), ready in readies.items():
            assert ready["shard"] == [shard_id, COUNT]
            assert {int(g["id"]) for g in ready["guilds"]} == expected(server, {shard_id})
        creates = sent(server, "GUILD_CREATE")
        assert len(creates) == len(server.world.guilds)  # each guild once, on its own shard
        for frame in creates:
            assert frame.shard == (on_shard(int(frame.d["id"])), COUNT)


async def test_a_client_with_some_shards_holds_only_their_guilds(
    server: LocalDiscord, spread: list[Guild]
) -> None:
    client = ShardedLaurel(shard_ids=[0, 1], shard_count=COUNT)
    async with connected(client, server):
        assert sorted(client.shards) == [0, 1]
        held = {g.id for g in client.guilds}
        assert held == expected(server, {0, 1})
        assert len(held) >= 4  # not vacuous: the spread guilds of shards 0 and 1 are there
        sessions = sorted(s.shard for s in server.gateway.sessions.values() if s.shard)
        assert sessions == [(0, COUNT), (1, COUNT)]


async def test_an_interaction_reaches_the_shard_of_its_guild_only(
    server: LocalDiscord, spread: list[Guild]
) -> None:
    client = ShardedLaurel(shard_count=COUNT)
    async with connected(client, server):
        await client.tree.sync()
        for guild in spread[:4]:
            interaction = await server.slash("hello", guild_id=guild.id)
            shard_id = on_shard(guild.id)
            assert (await interaction.message())["content"] == f"shard {shard_id}"
            frames = [
                f for f in sent(server, "INTERACTION_CREATE") if f.d["id"] == str(interaction.id)
            ]
            assert [f.shard for f in frames] == [(shard_id, COUNT)]
        assert sorted(client.answered_on) == [0, 1, 2, 3]


async def test_two_processes_split_the_shards_and_each_command_is_answered_once(
    server: LocalDiscord, spread: list[Guild]
) -> None:
    """What `laurel run --shards 0-1` and `--shards 2-3` of 4 do, as two clients here."""
    low = ShardedLaurel(shard_ids=[0, 1], shard_count=COUNT)
    high = ShardedLaurel(shard_ids=[2, 3], shard_count=COUNT)
    async with connected(low, server), connected(high, server):
        await low.tree.sync()
        assert {g.id for g in low.guilds} | {g.id for g in high.guilds} == set(server.world.guilds)
        assert not {g.id for g in low.guilds} & {g.id for g in high.guilds}
        for guild in spread:
            interaction = await server.slash("hello", guild_id=guild.id)
            assert (await interaction.message())["content"] == f"shard {on_shard(guild.id)}"
        assert sorted(low.answered_on) == [0, 0, 1, 1]
        assert sorted(high.answered_on) == [2, 2, 3, 3]
        callbacks = server.requests_to(
            "POST /interactions/{interaction_id}/{interaction_token}/callback"
        )
        assert [r.status for r in callbacks] == [200] * len(spread)  # one each, none refused


async def test_a_dropped_shard_resumes_alone(server: LocalDiscord, spread: list[Guild]) -> None:
    client = ShardedLaurel(shard_count=COUNT)
    async with connected(client, server):
        await client.tree.sync()
        before = {s.shard: s.id for s in server.gateway.sessions.values()}
        connections = server.gateway.connections
        others = {c for c in connections if c.session and c.session.shard != (2, COUNT)}
        mark = len(server.gateway.frames)
        assert await server.drop_gateway(shard=2) == 1
        resume = await server.gateway.wait_frame("in", op.RESUME, after=mark)
        assert resume.d["session_id"] == before[(2, COUNT)]
        resumed = await server.gateway.wait_frame("out", op.DISPATCH, t="RESUMED", after=mark)
        assert resumed.shard == (2, COUNT)
        assert [f for f in server.gateway.frames[mark:] if f.op == op.IDENTIFY] == []
        assert {s.shard: s.id for s in server.gateway.sessions.values()} == before
        assert others <= server.gateway.connections  # the other shards never reconnected
        guild = next(g for g in spread if on_shard(g.id) == 2)
        interaction = await server.slash("hello", guild_id=guild.id)
        assert (await interaction.message())["content"] == "shard 2"


async def test_a_resumed_shard_replays_only_its_own_events(
    server: LocalDiscord, spread: list[Guild]
) -> None:
    client = ShardedLaurel(shard_count=COUNT)
    async with connected(client, server):
        await client.tree.sync()
        session = next(s for s in server.gateway.sessions.values() if s.shard == (1, COUNT))
        connection = session.connection
        assert connection is not None
        connection.session = session.connection = None  # the socket died unnoticed
        on_1 = next(g for g in spread if on_shard(g.id) == 1)
        on_3 = next(g for g in spread if on_shard(g.id) == 3)
        missed = await server.slash("hello", guild_id=on_1.id)  # buffered for shard 1
        live = await server.slash("hello", guild_id=on_3.id)  # shard 3 gets it now
        assert (await live.message())["content"] == "shard 3"
        mark = len(server.gateway.frames)
        connection.abort()
        await server.gateway.wait_frame("in", op.RESUME, after=mark)
        end = await server.gateway.wait_frame("out", op.DISPATCH, t="RESUMED", after=mark)
        replayed = [
            f
            for f in server.gateway.frames[mark : server.gateway.frames.index(end)]
            if f.direction == "out" and f.op == op.DISPATCH
        ]
        assert {f.shard for f in replayed} == {(1, COUNT)}
        assert [f.d["id"] for f in replayed if f.t == "INTERACTION_CREATE"] == [str(missed.id)]
        assert (await missed.message())["content"] == "shard 1"


async def test_gateway_bot_recommends_the_configured_shards(server: LocalDiscord) -> None:
    server.config.recommended_shards = 3
    server.config.max_concurrency = 2
    client = ShardedLaurel()  # no shard_count: discord.py asks GET /gateway/bot
    async with connected(client, server):
        assert sorted(client.shards) == [0, 1, 2]
        limits = await client.fetch_session_start_limits()
        assert limits.max_concurrency == 2
        assert limits.remaining == limits.total - 3  # one session start per shard


async def test_an_unsharded_client_still_gets_every_guild(
    server: LocalDiscord, spread: list[Guild]
) -> None:
    client = discord.Client(intents=discord.Intents.default(), guild_ready_timeout=0.01)
    async with connected(client, server):
        assert {g.id for g in client.guilds} == set(server.world.guilds)
        (ready,) = sent(server, "READY")
        assert "shard" not in ready.d
        assert len(ready.d["guilds"]) == len(server.world.guilds)


async def identify(server: LocalDiscord, shard: object, ws: aiohttp.ClientWebSocketResponse) -> Any:
    """IDENTIFY on a raw socket; the first answer (READY's dispatch or the close)."""
    await ws.receive_json()  # HELLO
    data: dict[str, Any] = {"token": server.token, "intents": 1, "properties": {}}
    if shard is not None:
        data["shard"] = shard
    await ws.send_json({"op": op.IDENTIFY, "d": data})
    return await ws.receive()


@pytest.mark.parametrize("shard", [[4, 4], [0, 0], [-1, 2], [1], [0, "2"], "0,2", [True, 2]])
async def test_an_invalid_shard_is_closed_with_4010(server: LocalDiscord, shard: object) -> None:
    url = f"{server.gateway_url}?v=10&encoding=json"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        closing = await identify(server, shard, ws)
        assert (closing.type, closing.data) == (aiohttp.WSMsgType.CLOSE, 4010)
    assert server.gateway.sessions == {}


async def test_a_shard_out_of_range_stops_discord_py_with_4010(server: LocalDiscord) -> None:
    client = ShardedLaurel(shard_ids=[4], shard_count=COUNT)
    with pytest.raises(discord.ConnectionClosed) as closed:
        async with connected(client, server):
            pass
    assert closed.value.code == 4010


async def test_a_mismatched_shard_count_is_refused_when_enforced(server: LocalDiscord) -> None:
    server.config.enforce_shard_count = True
    url = f"{server.gateway_url}?v=10&encoding=json"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as first:
        ready = await identify(server, [0, 2], first)
        assert ready.json()["t"] == "READY"
        async with session.ws_connect(url) as second:
            closing = await identify(server, [1, 4], second)
            assert (closing.type, closing.data) == (aiohttp.WSMsgType.CLOSE, 4010)
        async with session.ws_connect(url) as third:
            ready = await identify(server, [1, 2], third)
            assert ready.json()["d"]["shard"] == [1, 2]


async def test_unsharded_identify_past_the_threshold_is_closed_with_4011(
    server: LocalDiscord,
) -> None:
    server.config.sharding_required_above = 0
    url = f"{server.gateway_url}?v=10&encoding=json"
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(url) as ws:
            closing = await identify(server, None, ws)
            assert (closing.type, closing.data) == (aiohttp.WSMsgType.CLOSE, 4011)
        async with session.ws_connect(url) as ws:
            ready = await identify(server, [0, 1], ws)  # sharded, it is welcome
            assert ready.json()["t"] == "READY"


async def test_an_event_of_no_guild_goes_to_shard_0_only(server: LocalDiscord) -> None:
    url = f"{server.gateway_url}?v=10&encoding=json"
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(url) as zero,
        session.ws_connect(url) as one,
    ):
        await identify(server, [0, 2], zero)
        await identify(server, [1, 2], one)
        assert await server.gateway.dispatch("CHANNEL_PINS_UPDATE", {"channel_id": "1"}) == 1
        guild = server.world.default_guild()
        data = {"channel_id": "1", "guild_id": str(guild.id)}
        assert await server.gateway.dispatch("CHANNEL_PINS_UPDATE", data) == 1
        no_guild, of_guild = sent(server, "CHANNEL_PINS_UPDATE")
        assert no_guild.shard == (0, 2)
        assert of_guild.shard == ((guild.id >> 22) % 2, 2)


async def test_one_shard_is_dropped_over_the_control_api(
    server: LocalDiscord, spread: list[Guild]
) -> None:
    client = ShardedLaurel(shard_count=COUNT)
    async with connected(client, server):
        mark = len(server.gateway.frames)
        status, dropped = await call(server, "POST", "/gateway/drop", {"shard": 3})
        assert (status, dropped) == (200, {"dropped": 1})
        resumed = await server.gateway.wait_frame("out", op.DISPATCH, t="RESUMED", after=mark)
        assert resumed.shard == (3, COUNT)
        status, world = await call(server, "GET", "/world")
        assert sorted(s["shard"] for s in world["gateway_sessions"]) == [
            [n, COUNT] for n in range(COUNT)
        ]
        assert len(world["guilds"]) == 9


async def test_serve_spreads_guilds_and_recommends_shards(
    capsys: pytest.CaptureFixture[str],
) -> None:
    port = free_port()
    config = Config(recommended_shards=4, max_concurrency=2)
    task = asyncio.create_task(serve("127.0.0.1", port, spec_path=None, config=config, guilds=8))
    try:
        async with aiohttp.ClientSession() as session:
            for _ in range(200):  # until it listens
                try:
                    async with session.get(f"http://127.0.0.1:{port}/_control/world") as response:
                        world = await response.json()
                        break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.01)
    finally:
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
    spread = [int(g["id"]) for g in world["guilds"] if g["name"].startswith("Guild ")]
    assert sorted(on_shard(g) for g in spread) == [0, 0, 1, 1, 2, 2, 3, 3]
    assert "guilds   9, shards 4" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv", [["--shards", "0"], ["--max-concurrency", "0"], ["--guilds", "-1"]]
)
def test_python_m_refuses_a_shard_setting_out_of_range(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert "--shards and --max-concurrency >= 1" in capsys.readouterr().err
