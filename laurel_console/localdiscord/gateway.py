"""The gateway: Discord's websocket protocol at /gateway, with sessions that survive drops.

HELLO, heartbeats and ACKs, IDENTIFY (token and intents checked) answered by READY and one
GUILD_CREATE per guild (per guild of its shard, when IDENTIFY names one: see shards.py), RESUME
replaying what the session missed, INVALID_SESSION, and
zlib-stream transport compression (one compressor per connection, each message flushed with
Z_SYNC_FLUSH), or zstd-stream when the zstandard module is there.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
import json
import secrets
import time
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from laurel_console.localdiscord import payloads, shards
from laurel_console.localdiscord.config import KNOWN_INTENTS, PRIVILEGED_INTENTS
from laurel_console.localdiscord.faults import FaultPlan
from laurel_console.localdiscord.interactions import Pulse
from laurel_console.localdiscord.state import World

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE, RESUME = 0, 1, 2, 3, 4, 6
RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 7, 8, 9, 10, 11


@dataclass
class Frame:
    """One gateway payload, sent ("out") or received ("in"); heartbeats are only counted."""

    direction: str
    op: int
    t: str | None
    d: Any
    at: float = field(default_factory=time.monotonic)
    # The (shard_id, shard_count) of the session it went to or came from (None: unsharded,
    # or not yet identified).
    shard: shards.Shard | None = None


def _compressor(kind: str | None) -> Callable[[bytes], bytes] | None:
    if kind is None:
        return None
    if kind == "zlib-stream":
        zlib_stream = zlib.compressobj()
        return lambda data: zlib_stream.compress(data) + zlib_stream.flush(zlib.Z_SYNC_FLUSH)
    if kind == "zstd-stream":
        zstandard: Any = importlib.import_module("zstandard")  # only if the client has it too
        zstd_stream = zstandard.ZstdCompressor().compressobj()
        flush = zstandard.COMPRESSOBJ_FLUSH_BLOCK
        return lambda data: zstd_stream.compress(data) + zstd_stream.flush(flush)
    raise ValueError(kind)


class Connection:
    """One websocket; sends are serialised because the compressor is a stream."""

    def __init__(self, request: web.Request, ws: web.WebSocketResponse, compress: str | None):
        self.request = request
        self.ws = ws
        self._compress = _compressor(compress)
        self._lock = asyncio.Lock()
        self.session: Session | None = None

    async def send(self, payload: dict[str, Any]) -> None:
        text = json.dumps(payload, separators=(",", ":"))
        async with self._lock:
            if self.ws.closed:
                return
            with contextlib.suppress(ConnectionError, RuntimeError):
                if self._compress is None:
                    await self.ws.send_str(text)
                else:
                    await self.ws.send_bytes(self._compress(text.encode()))

    def abort(self) -> None:
        """Cut the TCP connection with no close frame, as a network failure would."""
        if self.request.transport is not None:
            self.request.transport.abort()


@dataclass
class Session:
    id: str
    intents: int
    shard: shards.Shard | None
    buffer: deque[dict[str, Any]]
    seq: int = 0
    connection: Connection | None = None
    disconnected_at: float | None = None

    def holds(self, guild_id: int | None) -> bool:
        return shards.holds(self.shard, guild_id)


class Gateway:
    def __init__(self, world: World, faults: FaultPlan, url: Callable[[], str]) -> None:
        self.world = world
        self.faults = faults
        self._url = url
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.frames: list[Frame] = []
        self.heartbeats = 0
        self.identifies = 0
        self._pulse = Pulse()

    # -- the websocket handler -----------------------------------------------------------
    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        compress = request.query.get("compress")
        problem = self._check_query(request)
        if problem:
            await ws.close(code=problem[0], message=problem[1].encode())
            return ws
        connection = Connection(request, ws, compress)
        self.connections.add(connection)
        try:
            interval = self.world.config.heartbeat_interval_ms
            await self._send(connection, {"op": HELLO, "d": {"heartbeat_interval": interval}})
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    break
                await self._receive(connection, message.data)
        finally:
            self.connections.discard(connection)
            self._detach(connection, ws.close_code)
        return ws

    def _check_query(self, request: web.Request) -> tuple[int, str] | None:
        if request.query.get("v", "10") not in ("9", "10"):
            return 4012, "Invalid API version."
        if request.query.get("encoding", "json") != "json":
            return 4002, "Only JSON encoding is supported here."
        compress = request.query.get("compress")
        if compress not in (None, "zlib-stream", "zstd-stream"):
            return 4000, f"Unknown compression {compress}."
        if compress == "zstd-stream" and importlib.util.find_spec("zstandard") is None:
            return 4000, "zstd-stream needs the zstandard module."
        return None

    async def _receive(self, connection: Connection, text: str) -> None:
        try:
            payload = json.loads(text)
            op = int(payload["op"])
        except (ValueError, KeyError, TypeError):
            await connection.ws.close(code=4002, message=b"Error while decoding payload.")
            return
        data = payload.get("d")
        if op == HEARTBEAT:
            self.heartbeats += 1
            await connection.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})
            return
        session = connection.session
        self._log(Frame("in", op, None, data, shard=session.shard if session else None))
        if op == IDENTIFY:
            await self._identify(connection, data)
        elif op == RESUME:
            await self._resume(connection, data)
        elif connection.session is None:
            await connection.ws.close(code=4003, message=b"Not authenticated.")
        elif op == REQUEST_MEMBERS:
            await self._members_chunk(connection, data)
        elif op not in (PRESENCE, VOICE_STATE):
            await connection.ws.close(code=4001, message=b"Unknown opcode.")

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        if connection.session is not None:
            await connection.ws.close(code=4005, message=b"Already authenticated.")
            return
        if data.get("token") != self.world.token:
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = data.get("intents")
        if not isinstance(intents, int) or intents & ~KNOWN_INTENTS:
            await connection.ws.close(code=4013, message=b"Invalid intent(s).")
            return
        if intents & PRIVILEGED_INTENTS & ~self.world.config.granted_intents:
            await connection.ws.close(code=4014, message=b"Disallowed intent(s).")
            return
        live = [s.shard[1] for s in self._live() if s.shard is not None]
        if refused := shards.refusal(
            data.get("shard"), self.world.config, len(self.world.guilds), live
        ):
            await connection.ws.close(code=refused[0], message=refused[1].encode())
            return
        self.identifies += 1
        session = Session(
            secrets.token_hex(16),
            intents,
            shards.parse(data.get("shard")),
            deque(maxlen=self.world.config.resume_buffer),
        )
        self.sessions[session.id] = session
        self._attach(session, connection)
        await self._dispatch_to(session, "READY", self._ready(session))
        for guild in self.world.guilds.values():
            if not session.holds(guild.id):
                continue
            data = payloads.guild_create(self.world, guild, intents=intents)
            await self._dispatch_to(session, "GUILD_CREATE", data)

    def _ready(self, session: Session) -> dict[str, Any]:
        ready: dict[str, Any] = {
            "v": 10,
            "user": payloads.current_user(self.world),
            "guilds": [
                {"id": str(g), "unavailable": True} for g in self.world.guilds if session.holds(g)
            ],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self._url(),
            "application": {
                "id": str(self.world.application_id),
                "flags": self.world.application_flags(),
            },
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
            "auth": {},
            "_trace": ['["localdiscord",{"micros":0}]'],
        }
        if session.shard is not None:
            ready["shard"] = list(session.shard)
        return ready

    async def _resume(self, connection: Connection, data: dict[str, Any]) -> None:
        if data.get("token") != self.world.token:
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return
        session = self.sessions.get(str(data.get("session_id")))
        if session is not None and self._expired(session):
            self.sessions.pop(session.id, None)
            session = None
        if session is None or self.faults.take_resume_failure():
            if session is not None:
                self.sessions.pop(session.id, None)
            await self._send(connection, {"op": INVALID_SESSION, "d": False})
            return
        if session.connection is not None and session.connection is not connection:
            old = session.connection
            session.connection = None
            await old.ws.close(code=4000, message=b"Session resumed elsewhere.")
        # Replay in order until caught up, and only then attach: events dispatched meanwhile
        # land in the buffer and are replayed too, never sent ahead of older ones.
        sent = int(data.get("seq") or 0)
        while missed := [m for m in session.buffer if m["s"] > sent]:
            for payload in missed:
                await self._send(connection, payload, session)
                sent = payload["s"]
        self._attach(session, connection)
        await self._dispatch_to(session, "RESUMED", {"_trace": ['["localdiscord",{}]']})

    async def _members_chunk(self, connection: Connection, data: dict[str, Any]) -> None:
        guild = self.world.guilds.get(int(data.get("guild_id") or 0))
        if guild is None or connection.session is None:
            return
        query = str(data.get("query") or "").lower()
        wanted = {int(u) for u in data.get("user_ids") or []}
        members = [
            payloads.member(self.world, m)
            for m in guild.members.values()
            if (not wanted or m.user_id in wanted)
            and self.world.users[m.user_id].username.lower().startswith(query)
        ]
        if limit := int(data.get("limit") or 0):
            members = members[:limit]
        chunk: dict[str, Any] = {
            "guild_id": str(guild.id),
            "members": members,
            "chunk_index": 0,
            "chunk_count": 1,
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await self._dispatch_to(connection.session, "GUILD_MEMBERS_CHUNK", chunk)

    # -- sessions ------------------------------------------------------------------------
    def _attach(self, session: Session, connection: Connection) -> None:
        session.connection = connection
        session.disconnected_at = None
        connection.session = session

    def _detach(self, connection: Connection, close_code: int | None) -> None:
        session = connection.session
        if session is None or session.connection is not connection:
            return
        session.connection = None
        session.disconnected_at = time.monotonic()
        if close_code in (1000, 1001):  # a clean close from the client ends the session
            self.sessions.pop(session.id, None)

    def _live(self) -> list[Session]:
        """The sessions still connected or resumable (expired ones are forgotten here)."""
        for session in list(self.sessions.values()):
            if self._expired(session):
                self.sessions.pop(session.id, None)
        return list(self.sessions.values())

    def _expired(self, session: Session) -> bool:
        since = session.disconnected_at
        return since is not None and time.monotonic() - since > self.world.config.resume_window

    # -- sending ---------------------------------------------------------------------------
    async def dispatch(self, event: str, data: dict[str, Any], *, intent: int | None = None) -> int:
        """Send an event to every session that asked for it (by intent) and, when sharded,
        is on the shard of the event's `guild_id` (shard 0 for an event of no guild); a
        dropped session keeps it for its RESUME. Returns how many sessions got it."""
        guild_id = shards.guild_id_of(data)
        count = 0
        for session in self._live():
            if (intent is None or session.intents & intent) and session.holds(guild_id):
                await self._dispatch_to(session, event, data)
                count += 1
        return count

    async def _dispatch_to(self, session: Session, event: str, data: dict[str, Any]) -> None:
        session.seq += 1
        payload = {"op": DISPATCH, "s": session.seq, "t": event, "d": data}
        session.buffer.append(payload)
        if session.connection is not None:
            await self._send(session.connection, payload)

    async def _send(
        self, connection: Connection, payload: dict[str, Any], session: Session | None = None
    ) -> None:
        session = session or connection.session
        shard = session.shard if session else None
        self._log(Frame("out", payload["op"], payload.get("t"), payload.get("d"), shard=shard))
        await connection.send(payload)

    def _log(self, frame: Frame) -> None:
        if not self.world.config.lean:
            self.frames.append(frame)
        self._pulse.fire()

    # -- driving ---------------------------------------------------------------------------
    async def drop(self, *, code: int | None = None, shard: int | None = None) -> int:
        """Drop every connection (only those of sessions on shard `shard`, if given):
        abruptly (no close frame, like a network failure) when `code` is None, else with that
        close code. Sessions stay resumable."""
        connections = [
            c
            for c in self.connections
            if shard is None or (c.session and c.session.shard and c.session.shard[0] == shard)
        ]
        for connection in connections:
            if code is None:
                connection.abort()
            else:
                await connection.ws.close(code=code, message=b"Dropped by the test.")
        return len(connections)

    async def request_reconnect(self) -> None:
        """Op 7 RECONNECT: Discord's polite way of asking the client to resume elsewhere."""
        for connection in list(self.connections):
            await self._send(connection, {"op": RECONNECT, "d": None})

    async def close(self) -> None:
        for connection in list(self.connections):
            await connection.ws.close(code=1001, message=b"Server shutting down.")

    async def wait_frame(
        self,
        direction: str,
        op: int,
        *,
        t: str | None = None,
        after: int = 0,
        timeout: float = 5.0,  # noqa: ASYNC109 - the API is timeout=
    ) -> Frame:
        """The first frame from index `after` on with this direction, op (and event name)."""

        def find() -> Frame | None:
            for frame in self.frames[after:]:
                if frame.direction == direction and frame.op == op and (t is None or frame.t == t):
                    return frame
            return None

        return await self._pulse.until(find, timeout, f"no gateway frame {direction} op {op} {t}")

    @property
    def connected(self) -> bool:
        return any(c.session is not None for c in self.connections)
