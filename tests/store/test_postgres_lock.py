"""One bot per database on PostgreSQL (issue 15): the instance lock is an advisory lock that
the server lets go with the session, so a killed holder leaves nothing stale behind."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time

import pytest

from bot.cli.lock_watch import keep_lock
from bot.domain.clock import SystemClock
from bot.errors import StoreError
from bot.store.postgres.lock import PostgresInstanceLock
from tests.support.postgres import PostgresServer


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


def test_the_lock_is_taken_again_after_a_server_restart(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    """A restart ends the lock's session, and the lock with it; the first bot takes it again,
    so a second one started afterwards is refused as before the restart (issue 22, item 6)."""
    first = PostgresInstanceLock(postgres_url)
    first.acquire()
    try:
        postgres_server.restart()
        assert "taken again" in (first.keep() or "")
        with pytest.raises(StoreError, match="already running"):
            PostgresInstanceLock(postgres_url).acquire()
        assert first.keep() is None  # held: nothing to say
    finally:
        first.release()


async def test_a_lock_another_took_meanwhile_stops_this_bot_saying_why(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    first = PostgresInstanceLock(postgres_url)
    first.acquire()
    try:
        postgres_server.restart()
        second = PostgresInstanceLock(postgres_url)
        second.acquire()  # started in the window before the first noticed
        stopped: list[str] = []

        async def stop(why: str) -> None:
            stopped.append(why)

        await asyncio.wait_for(keep_lock(first, stop, SystemClock(), every=0.05), timeout=30)
        (why,) = stopped
        assert "another Laurel holds it now" in why
        assert "already running" in why
        second.release()
    finally:
        first.release()


def test_a_server_that_does_not_answer_is_said_in_one_line_without_the_password() -> None:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"postgresql://qpass:Secret?Value123@127.0.0.1:{port}/lq"
    with pytest.raises(StoreError) as refused:
        PostgresInstanceLock(url).acquire()
    message = str(refused.value)
    assert "\n" not in message  # libpq's hint ("Is the server running…") is a second line
    assert "Secret" not in message
    assert f"postgresql://qpass@127.0.0.1:{port}/lq" in message
