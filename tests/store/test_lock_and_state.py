from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store.bot_state import BotStateRepository
from bot.store.database import Database
from bot.store.errors import StoreError
from bot.store.lock import InstanceLock


def test_a_second_instance_is_refused_until_the_first_releases(tmp_path: Path) -> None:
    database = tmp_path / "laurel.db"
    with InstanceLock(database), pytest.raises(StoreError, match="already running"):
        InstanceLock(database).acquire()
    with InstanceLock(database):
        pass


def test_a_killed_holder_leaves_no_stale_lock(tmp_path: Path) -> None:
    database = tmp_path / "laurel.db"
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from pathlib import Path; from bot.store.lock import InstanceLock;"
            f"InstanceLock(Path({str(database)!r})).acquire(); print('locked', flush=True);"
            "time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(StoreError, match=f"pid {holder.pid}"):
            InstanceLock(database).acquire()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()  # left open, the pipe warns when it is collected
    with InstanceLock(database):
        pass


async def test_bot_state_round_trip(db: Database) -> None:
    state = BotStateRepository(db)
    assert await state.get("k") is None
    await state.put("k", "one")
    await state.put("k", "two")
    assert await state.get("k") == "two"
