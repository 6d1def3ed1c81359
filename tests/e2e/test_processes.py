"""`laurel localdiscord` and `laurel run` as separate processes, talking over 127.0.0.1.

The stand-in keeps its record while the bot process is killed (SIGKILL) and started again, and
a second bot on the same database refuses to start.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

SYNC = "PUT /applications/{application_id}/commands"
GRACE = 30.0  # seconds a process may take to come up on a loaded 2-core machine


@dataclass
class Stand:
    control: str
    rest: str
    token: str


def _json(url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def _until(condition: Any, what: str) -> Any:
    """Poll another process's state: there is no event to wait on across processes."""
    deadline = time.monotonic() + GRACE
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
def stand() -> Iterator[Stand]:
    process = subprocess.Popen(
        [sys.executable, "-m", "bot", "localdiscord", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines = dict(process.stdout.readline().split(maxsplit=1) for _ in range(4))
        yield Stand(lines["control"].strip(), lines["REST"].strip(), lines["token"].strip())
    finally:
        process.terminate()
        process.wait(timeout=10)


def _bot(stand: Stand, database: Path) -> subprocess.Popen[str]:
    env = {
        **os.environ,
        "DISCORD_TOKEN": stand.token,
        "LAUREL_DISCORD__API_BASE_URL": stand.rest,
        "LAUREL_DATABASE__PATH": str(database),
        "LAUREL_HEALTH__PORT": "0",  # any free port: test runs may share the machine
    }
    env.pop("LAUREL_CONFIG", None)
    return subprocess.Popen(
        [sys.executable, "-m", "bot", "run"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _about(stand: Stand) -> dict[str, Any]:
    """Run /about until answered: one sent before the bot's gateway is up reaches nobody (as on
    Discord), so it is sent again, as a person would, once its 3-second window has passed."""
    sent: list[tuple[str, float]] = []

    def answered() -> Any:
        if not sent or time.monotonic() - sent[-1][1] > 3.0:
            started = _json(f"{stand.control}interactions", {"kind": "slash", "name": "about"})
            sent.append((started["id"], time.monotonic()))
        for interaction_id, _ in sent:
            original = _json(f"{stand.control}interactions/{interaction_id}")["original"]
            if original:
                return original
        return None

    return _until(answered, "the bot's answer to /about")  # type: ignore[no-any-return]


def _syncs(stand: Stand) -> int:
    found = _json(f"{stand.control}requests?route={urllib.parse.quote(SYNC)}")
    return len(found["requests"])


def test_kill_restart_and_a_second_bot_refused(stand: Stand, tmp_path: Path) -> None:
    database = tmp_path / "laurel.db"
    first = _bot(stand, database)
    try:
        _until(lambda: _syncs(stand) == 1, "the first bot to sync its commands")
        assert _about(stand)["embeds"][0]["title"] == "Laurel"

        second = _bot(stand, database)
        _, err = second.communicate(timeout=GRACE)
        assert second.returncode == 1
        assert "already running" in err

        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        first = _bot(stand, database)
        answer = _about(stand)  # the restarted bot answers; the stand-in kept its record
        assert answer["embeds"][0]["title"] == "Laurel"
        assert _syncs(stand) == 1  # the unchanged tree was not pushed again
    finally:
        first.kill()
        first.wait(timeout=10)
