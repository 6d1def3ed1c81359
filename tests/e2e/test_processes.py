"""`laurel localdiscord` and `laurel run` as separate processes, talking over 127.0.0.1.

The stand-in keeps its record while the bot process is killed (SIGKILL) and started again, and
a second bot on the same database refuses to start.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.support.processes import (
    GRACE,
    Stand,
    asked_about,
    bot_env,
    kill,
    run_bot,
    sync_count,
    until,
)


def _bot(stand: Stand, database: Path) -> subprocess.Popen[str]:
    return run_bot(bot_env(stand, database))


def test_kill_restart_and_a_second_bot_refused(stand: Stand, tmp_path: Path) -> None:
    database = tmp_path / "laurel.db"
    first = _bot(stand, database)
    try:
        until(lambda: sync_count(stand) == 1, "the first bot to sync its commands")
        assert asked_about(stand)["embeds"][0]["title"] == "Laurel"

        second = _bot(stand, database)
        _, err = second.communicate(timeout=GRACE)
        assert second.returncode == 1
        assert "already running" in err

        kill(first)
        first = _bot(stand, database)
        answer = asked_about(stand)  # the restarted bot answers; the stand-in kept its record
        assert answer["embeds"][0]["title"] == "Laurel"
        assert sync_count(stand) == 1  # the unchanged tree was not pushed again
    finally:
        kill(first)
