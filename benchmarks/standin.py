"""The stand-in for benchmarks: lean (no spec validation, no recording), so that its CPU is
counted apart from the bot's. Two ways:

- `ThreadedStandIn`: on an event loop of its own in a thread of the benchmark's process. The bot
  and the stand-in share the interpreter (one GIL), but `cpu()` reads the stand-in thread's
  own CPU clock (`pthread_getcpuclockid`): a benchmark reports the bot's CPU as the process's
  minus that, and the stand-in's beside it. Whatever the stand-in does still holds the GIL
  the bot needs, so rates measured this way are the pair's, not the bot's.
- `ProcessStandIn`: in a process of its own (spawned: a fresh interpreter), driven over a pipe
  by named commands (`StandInCommands`). The bot's process is then the bot alone: its CPU is
  the process's, and the stand-in's is the child's, read from the child.
"""

from __future__ import annotations

import asyncio
import importlib
import multiprocessing
import threading
import time
from collections.abc import Coroutine
from concurrent.futures import Future
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from laurel_console.localdiscord.config import Config
from laurel_console.localdiscord.server import LocalDiscord
from laurel_console.localdiscord.state import World

T = TypeVar("T")
HOUR_MS = 3_600_000  # a heartbeat interval that never comes round during a run


def lean_config(**changes: Any) -> Config:
    return Config(heartbeat_interval_ms=HOUR_MS, lean=True, **changes)


class ThreadedStandIn:
    """`LocalDiscord` served from its own thread. Build the world before `start`; drive the
    stand-in (slash commands, limits) through `call`, which runs a coroutine on its loop."""

    def __init__(self, world: World | None = None, config: Config | None = None) -> None:
        self.server = LocalDiscord(world, config=config or lean_config())
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, name="stand-in", daemon=True)
        self._clock: int | None = None

    def _serve(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_forever()

    def submit(self, work: Coroutine[Any, Any, T]) -> Future[T]:
        return asyncio.run_coroutine_threadsafe(work, self.loop)

    async def call(self, work: Coroutine[Any, Any, T]) -> T:
        """Run `work` on the stand-in's loop and wait for it from the caller's loop."""
        return await asyncio.wrap_future(self.submit(work))

    async def start(self) -> ThreadedStandIn:
        self._thread.start()
        assert self._thread.ident is not None
        self._clock = time.pthread_getcpuclockid(self._thread.ident)
        await self.call(self.server.start())
        return self

    async def stop(self) -> None:
        await self.call(self.server.stop())
        self.loop.call_soon_threadsafe(self.loop.stop)
        await asyncio.to_thread(self._thread.join, 5)
        self.loop.close()

    def cpu(self) -> float:
        """CPU seconds the stand-in's thread has used so far."""
        return 0.0 if self._clock is None else time.clock_gettime(self._clock)

    async def __aenter__(self) -> ThreadedStandIn:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()


class CpuSplit:
    """CPU of the process between two points, split into the stand-in's thread and the rest
    (the bot: its loop, discord.py, SQLite's threads)."""

    def __init__(self, stand_in: ThreadedStandIn) -> None:
        self._stand_in = stand_in
        self._start = (time.process_time(), stand_in.cpu())
        self.total = self.stand_in = 0.0

    def stop(self) -> CpuSplit:
        self.total = time.process_time() - self._start[0]
        self.stand_in = self._stand_in.cpu() - self._start[1]
        return self

    @property
    def bot(self) -> float:
        return self.total - self.stand_in


# -- in a process of its own ---------------------------------------------------------------------
POST_MESSAGE = "POST /channels/{channel_id}/messages"


async def _no_settle(iterations: int) -> None:
    """Users don't wait for a quiet moment (see benchmarks.interactions)."""


class StandInCommands:
    """What the benchmark may ask of a stand-in in another process, each by name."""

    def __init__(self, server: LocalDiscord) -> None:
        self.server = server

    async def cpu(self) -> float:
        """CPU seconds the stand-in's process has used so far."""
        return time.process_time()

    async def posts(self) -> dict[int, int]:
        """Message posts answered so far, by status."""
        return {status: n for (route, status), n in self.server.rest.counts.items()
                if route == POST_MESSAGE}  # fmt: skip

    async def limit_rate(self, rate: float | None) -> None:
        self.server.limit_rate(rate)

    async def quick_interactions(self) -> None:
        self.server.driver.settle = _no_settle

    async def search(self, text: str) -> tuple[float, bool]:
        """`/paper search text`, as a user would: ms until its answer, and whether it had one."""
        start = time.perf_counter_ns()
        interaction = await self.server.slash("paper", {"query": text}, subcommand="search")
        answer = await interaction.message()
        elapsed = (time.perf_counter_ns() - start) / 1e6
        return elapsed, bool(answer["embeds"] or answer["content"])

    async def forget(self) -> None:
        """The stand-in finds an answer by scanning its channel: keep the channel short."""
        for stored in self.server.world.messages.values():
            stored.clear()


def _child(conn: Connection, setup: tuple[str, str], args: tuple[Any, ...]) -> None:
    asyncio.run(_serve_child(conn, setup, args))


async def _serve_child(conn: Connection, setup: tuple[str, str], args: tuple[Any, ...]) -> None:
    server = LocalDiscord(config=lean_config())
    made = getattr(importlib.import_module(setup[0]), setup[1])(server, *args)
    await server.start()
    commands = StandInCommands(server)
    loop = asyncio.get_running_loop()
    stopped: asyncio.Future[None] = loop.create_future()
    tasks: set[asyncio.Task[Any]] = set()

    def answer(rid: int, task: asyncio.Task[Any]) -> None:
        tasks.discard(task)
        error = None if task.cancelled() else task.exception()
        conn.send((rid, error is None, repr(error) if error else task.result()))

    def readable() -> None:
        try:
            rid, name, call_args = conn.recv()
        except EOFError:  # the benchmark is gone
            name = "stop"
        if name == "stop":
            loop.remove_reader(conn.fileno())
            if not stopped.done():
                stopped.set_result(None)
            return
        task = asyncio.ensure_future(getattr(commands, name)(*call_args))
        tasks.add(task)
        task.add_done_callback(lambda t: answer(rid, t))

    loop.add_reader(conn.fileno(), readable)
    conn.send((0, True, {"rest_url": server.rest_url, "gateway_url": server.gateway_url,
                         "token": server.token, "made": made}))  # fmt: skip
    await stopped
    await server.stop()


class ProcessStandIn:
    """A lean `LocalDiscord` in a process of its own. `setup` names a function (module, name)
    that the child calls with the server and `args` to build its world before it starts;
    its return value is `made`. `rest_url`, `gateway_url` and `token` are what the bot
    connects to (`laurel_on` reads only these)."""

    def __init__(self, setup: tuple[str, str], *args: Any) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(
            target=_child, args=(child, setup, args), name="stand-in", daemon=True
        )
        self._child_conn = child
        self._waiting: dict[int, asyncio.Future[Any]] = {}
        self._next_id = 1
        self.made: Any = None
        self.rest_url = self.gateway_url = self.token = ""

    async def start(self) -> ProcessStandIn:
        self._process.start()
        self._child_conn.close()
        hello = await asyncio.to_thread(self._conn.recv)
        info = hello[2]
        self.rest_url, self.gateway_url, self.token = (
            info["rest_url"], info["gateway_url"], info["token"]
        )  # fmt: skip
        self.made = info["made"]
        asyncio.get_running_loop().add_reader(self._conn.fileno(), self._readable)
        return self

    def _readable(self) -> None:
        try:
            rid, ok, value = self._conn.recv()
        except EOFError:
            asyncio.get_running_loop().remove_reader(self._conn.fileno())
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(RuntimeError("the stand-in's process ended"))
            return
        future = self._waiting.pop(rid)
        if ok:
            future.set_result(value)
        else:
            future.set_exception(RuntimeError(f"stand-in: {value}"))

    async def call(self, name: str, *args: Any) -> Any:
        """Run the stand-in's command `name` (a `StandInCommands` method) and return its answer."""
        rid, self._next_id = self._next_id, self._next_id + 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[rid] = future
        self._conn.send((rid, name, args))
        return await future

    async def stop(self) -> None:
        asyncio.get_running_loop().remove_reader(self._conn.fileno())
        self._conn.send((0, "stop", ()))
        await asyncio.to_thread(self._process.join, 10)
        self._conn.close()


class ProcessCpu:
    """CPU between two points: the bot's process (all its threads) and the stand-in's."""

    @classmethod
    async def start(cls, stand_in: ProcessStandIn) -> ProcessCpu:
        return cls(stand_in, time.process_time(), await stand_in.call("cpu"))

    def __init__(self, stand_in: ProcessStandIn, bot: float, stand: float) -> None:
        self._stand_in = stand_in
        self._start = (bot, stand)
        self.bot = self.stand_in = 0.0

    async def stop(self) -> ProcessCpu:
        self.bot = time.process_time() - self._start[0]
        self.stand_in = float(await self._stand_in.call("cpu")) - self._start[1]
        return self

    @property
    def total(self) -> float:
        return self.bot + self.stand_in
