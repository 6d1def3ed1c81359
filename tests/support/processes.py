"""`laurel localdiscord` and `laurel run` as separate processes, for tests that need a real kill,
a real signal or a second process on the same database.

Nothing can be awaited across processes, so waiting is polling (`until`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

GRACE = 60.0  # seconds a step may take on a loaded 2-core machine


@dataclass(frozen=True)
class Stand:
    """The addresses `laurel localdiscord` printed when it came up."""

    control: str
    rest: str
    token: str


@contextmanager
def stand_in() -> Iterator[Stand]:
    """Run the stand-in on a free port for the length of the block."""
    # As a context manager, Popen also closes its pipe when the block ends.
    with subprocess.Popen(
        [sys.executable, "-m", "bot", "localdiscord", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    ) as process:
        try:
            assert process.stdout is not None
            lines = dict(process.stdout.readline().split(maxsplit=1) for _ in range(4))
            yield Stand(lines["control"].strip(), lines["REST"].strip(), lines["token"].strip())
        finally:
            process.terminate()


def bot_env(stand: Stand, database: Path, **extra: str) -> dict[str, str]:
    """The environment of a bot on `stand` with its own database; no config file is read."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("LAUREL_")}
    env.update(
        DISCORD_TOKEN=stand.token,
        LAUREL_DISCORD__API_BASE_URL=stand.rest,
        LAUREL_DATABASE__PATH=str(database),
        LAUREL_HEALTH__PORT="0",  # any free port: test runs may share the machine
    )
    env.update(extra)
    return env


def run_bot(
    env: dict[str, str],
    *,
    stdout: int | IO[str] | None = subprocess.DEVNULL,
    stderr: int | IO[str] | None = subprocess.PIPE,
) -> subprocess.Popen[str]:
    """Start `laurel run`; a DEBUG log wants a file for stderr, since it would fill a pipe."""
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "run"], env=env, stdout=stdout, stderr=stderr, text=True
    )


def kill(process: subprocess.Popen[str]) -> None:
    """SIGKILL `process`, reap it, and close its pipes (left open, they warn when collected)."""
    process.kill()
    process.wait(timeout=10)
    for pipe in (process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()


def control(url: str, body: dict[str, Any] | None = None) -> Any:
    """GET (or, with a body, POST) JSON from the stand-in's control API."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def until(condition: Callable[[], Any], what: str, *, grace: float = GRACE) -> Any:
    """Poll another process's state until `condition` is truthy; return that value."""
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


SYNC = "PUT /applications/{application_id}/commands"


def asked_about(stand: Stand) -> dict[str, Any]:
    """Run /about until answered: one sent before the bot's gateway is up reaches nobody (as on
    Discord), so it is sent again, as a person would, once its 3-second window has passed."""
    sent: list[tuple[str, float]] = []

    def answered() -> Any:
        if not sent or time.monotonic() - sent[-1][1] > 3.0:
            started = control(f"{stand.control}interactions", {"kind": "slash", "name": "about"})
            sent.append((started["id"], time.monotonic()))
        for interaction_id, _ in sent:
            original = control(f"{stand.control}interactions/{interaction_id}")["original"]
            if original:
                return original
        return None

    return until(answered, "the bot's answer to /about")  # type: ignore[no-any-return]


def sync_count(stand: Stand) -> int:
    found = control(f"{stand.control}requests?route={urllib.parse.quote(SYNC)}")
    return len(found["requests"])


def until_live(url: str, bot: subprocess.Popen[str]) -> None:
    """Poll another process (there is no event to wait on across processes) until its health
    endpoint says 200: nothing listens at first, then it answers 503 until the bot is ready."""
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline:
        assert bot.poll() is None, f"the bot stopped: {bot.stderr.read() if bot.stderr else ''}"
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:  # refused, or 503 (HTTPError is an OSError)
            pass
        time.sleep(0.1)
    raise AssertionError(f"{url} did not report a live bot within {GRACE} s")
