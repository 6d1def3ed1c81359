"""Shard processes on one database as an operator would start them (issue 22, item 8): a process
with another shard count, or the same shards again, is refused in one line before it connects;
the shards nobody runs are named in /health and the log, with the subscriptions waiting."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.request
from pathlib import Path

from tests.support.ports import free_port
from tests.support.processes import GRACE, Stand, bot_env, until_live


def _start(env: dict[str, str], shards: str, count: int) -> subprocess.Popen[str]:
    argv = [sys.executable, "-m", "bot", "run", "--shards", shards, "--shard-count", str(count)]
    return subprocess.Popen(
        argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )


def test_a_layout_that_does_not_fit_is_refused_and_unowned_shards_said(
    stand: Stand, tmp_path: Path
) -> None:
    env = bot_env(stand, tmp_path / "laurel.db", LAUREL_HEALTH__PORT=str(free_port()))
    with _start(env, "0-1", 4) as first:
        try:
            url = f"http://127.0.0.1:{env['LAUREL_HEALTH__PORT']}/health"
            until_live(url, first)
            with urllib.request.urlopen(url, timeout=10) as response:
                report = json.loads(response.read())
            assert report["status"] == "ok"
            assert report["unowned_shards"] == (
                "shard(s) 2-3 of 4 run by no live process: 0 subscription(s) waiting"
            )
            for shards, count, says in (
                ("0-3", 8, "run 4 shards; this one was started with 8"),
                ("1-2", 4, "shard(s) 1 of 4 already run in another live process"),
            ):
                other = env | {"LAUREL_HEALTH__PORT": str(free_port())}
                refused = subprocess.run(
                    [
                        sys.executable,
                        "-m",
                        "bot",
                        "run",
                        "--shards",
                        shards,
                        "--shard-count",
                        str(count),
                    ],
                    env=other,
                    capture_output=True,
                    text=True,
                    timeout=GRACE,
                )
                assert refused.returncode == 1, refused.stderr
                (line,) = refused.stderr.strip().splitlines()
                assert says in line
            # The other half started: /health of the first says so at once (read afresh).
            other = env | {"LAUREL_HEALTH__PORT": str(free_port())}
            with _start(other, "2-3", 4) as second:
                try:
                    until_live(f"http://127.0.0.1:{other['LAUREL_HEALTH__PORT']}/health", second)
                    with urllib.request.urlopen(url, timeout=10) as response:
                        assert json.loads(response.read())["unowned_shards"] is None
                finally:
                    second.terminate()
                    second.communicate(timeout=GRACE)
        finally:
            first.terminate()
            _, log = first.communicate(timeout=GRACE)
    assert first.returncode == 0, log
    assert "shard(s) 2-3 of 4 run by no live process" in log
