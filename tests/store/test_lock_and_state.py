from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bot.errors import StoreError
from bot.store.bot_state import BotStateRepository
from bot.store.database import Database
from bot.store.lock import InstanceLock


@pytest.mark.sqlite_only("the instance lock of a SQLite file (flock)")
def test_a_second_instance_is_refused_until_the_first_releases(tmp_path: Path) -> None:
    database = tmp_path / "laurel.db"
    with InstanceLock(database), pytest.raises(StoreError, match="already running"):
        InstanceLock(database).acquire()
    with InstanceLock(database):
        pass


@pytest.mark.sqlite_only("the instance lock of a SQLite file (flock)")
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


def _other_names_for(database: Path, tmp_path: Path) -> dict[str, Path]:
    """Every way this test knows to name the same database file differently."""
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "link.db").symlink_to(database)
    (tmp_path / "relative-link.db").symlink_to(Path(database.parent.name) / database.name)
    (tmp_path / "dir-link").symlink_to(database.parent, target_is_directory=True)
    (tmp_path / "chain.db").symlink_to(tmp_path / "elsewhere" / "link.db")
    return {
        "symlink": tmp_path / "elsewhere" / "link.db",
        "relative symlink": tmp_path / "relative-link.db",
        "symlinked folder": tmp_path / "dir-link" / database.name,
        "symlink to a symlink": tmp_path / "chain.db",
        "dot-dot": database.parent / "elsewhere" / ".." / database.name,
    }


@pytest.mark.sqlite_only("the instance lock of a SQLite file (flock)")
@pytest.mark.parametrize("first", ["real", "other"])
def test_the_lock_holds_for_the_file_whatever_name_it_is_reached_by(
    tmp_path: Path, first: str
) -> None:
    database = tmp_path / "data" / "laurel.db"
    database.parent.mkdir()
    database.write_bytes(b"")
    for how, other in _other_names_for(database, tmp_path).items():
        holder, second = (database, other) if first == "real" else (other, database)
        with InstanceLock(holder), pytest.raises(StoreError, match="already running"):
            InstanceLock(second).acquire()
        with InstanceLock(second):  # released: the other name is free again
            pass
        assert not list(tmp_path.glob("**/link.db.lock")), how


@pytest.mark.sqlite_only("the instance lock of a SQLite file (flock)")
def test_the_lock_holds_through_a_symlinked_folder_before_the_database_exists(
    tmp_path: Path,
) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "alias").symlink_to(tmp_path / "data", target_is_directory=True)
    with InstanceLock(tmp_path / "data" / "laurel.db"), pytest.raises(StoreError):
        InstanceLock(tmp_path / "alias" / "laurel.db").acquire()


@pytest.mark.sqlite_only("the instance lock of a SQLite file (flock)")
def test_shard_processes_share_the_database_but_never_with_an_unsharded_bot(
    tmp_path: Path,
) -> None:
    database = tmp_path / "laurel.db"
    first, second = InstanceLock(database, shared=True), InstanceLock(database, shared=True)
    with first, second, pytest.raises(StoreError, match="already running"):
        InstanceLock(database).acquire()
    only_shards = r"only shard processes share a database"
    with InstanceLock(database), pytest.raises(StoreError, match=only_shards):
        InstanceLock(database, shared=True).acquire()
