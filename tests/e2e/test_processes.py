"""`laurel localdiscord` and `laurel run` as separate processes, talking over 127.0.0.1.

The stand-in keeps its record while the bot process is killed (SIGKILL) and started again, and
a second bot on the same database refuses to start.
"""

from __future__ import annotations

import subprocess
import time
import urllib.parse
from pathlib import Path
from typing import Any

from tests.support.processes import GRACE, Stand, bot_env, control, kill, run_bot, until

SYNC = "PUT /applications/{application_id}/commands"


def _bot(stand: Stand, database: Path) -> subprocess.Popen[str]:
    return run_bot(bot_env(stand, database))


def _about(stand: Stand) -> dict[str, Any]:
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


def _syncs(stand: Stand) -> int:
    found = control(f"{stand.control}requests?route={urllib.parse.quote(SYNC)}")
    return len(found["requests"])


def test_kill_restart_and_a_second_bot_refused(stand: Stand, tmp_path: Path) -> None:
    database = tmp_path / "laurel.db"
    first = _bot(stand, database)
    try:
        until(lambda: _syncs(stand) == 1, "the first bot to sync its commands")
        assert _about(stand)["embeds"][0]["title"] == "Laurel"

        second = _bot(stand, database)
        _, err = second.communicate(timeout=GRACE)
        assert second.returncode == 1
        assert "already running" in err

        kill(first)
        first = _bot(stand, database)
        answer = _about(stand)  # the restarted bot answers; the stand-in kept its record
        assert answer["embeds"][0]["title"] == "Laurel"
        assert _syncs(stand) == 1  # the unchanged tree was not pushed again
    finally:
        kill(first)
