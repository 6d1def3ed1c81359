"""One bot per database on PostgreSQL (issue 15): the instance lock is an advisory lock that
the server lets go with the session, so a killed holder leaves nothing stale behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest

from bot.errors import StoreError
from bot.store.postgres.lock import PostgresInstanceLock


def test_a_second_bot_is_refused_with_who_holds_it_until_the_first_stops(postgres_url: str) -> None:
    with (
        PostgresInstanceLock(postgres_url),
        pytest.raises(StoreError, match=rf"already running.*laurel run pid {os.getpid()}"),
    ):
        PostgresInstanceLock(postgres_url).acquire()
    with PostgresInstanceLock(postgres_url):  # free again
        pass


def test_shard_processes_share_it_but_never_with_an_unsharded_bot(postgres_url: str) -> None:
    with (
        PostgresInstanceLock(postgres_url, shared=True),
        PostgresInstanceLock(postgres_url, shared=True),
        pytest.raises(StoreError, match="already running"),
    ):
        PostgresInstanceLock(postgres_url).acquire()
    with (
        PostgresInstanceLock(postgres_url),
        pytest.raises(StoreError, match="only shard processes share a database"),
    ):
        PostgresInstanceLock(postgres_url, shared=True).acquire()


def test_a_killed_holder_leaves_no_stale_lock(postgres_url: str) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from bot.store.postgres.lock import PostgresInstanceLock;"
            f"lock = PostgresInstanceLock({postgres_url!r}); lock.acquire();"
            "print('held', flush=True); time.sleep(60)",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(StoreError, match="already running"):
            PostgresInstanceLock(postgres_url).acquire()
        holder.send_signal(signal.SIGKILL)
        holder.wait(30)
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()
    for _ in range(50):  # the server notices the dead session at once, or nearly
        try:
            with PostgresInstanceLock(postgres_url):
                return
        except StoreError:
            time.sleep(0.1)
    pytest.fail("the lock of a killed holder was not released")
