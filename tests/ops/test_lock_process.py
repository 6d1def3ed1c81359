"""`laurel run` on PostgreSQL across a server restart (issue 22, item 6): the restart ends the
session holding the instance lock; if another Laurel takes the lock before this one takes it
again, this one stops taking work, exits 1 and says why in one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.errors import StoreError
from bot.store.postgres.lock import PostgresInstanceLock
from tests.support.ports import free_port
from tests.support.postgres import PostgresServer
from tests.support.processes import GRACE, Stand, bot_env, until_live

# The bot checks its lock every lock_watch.EVERY (5 s): a check that falls between the server
# being back and the second bot taking the lock takes it again first (the other outcome, which
# tests/store/test_postgres_lock.py covers). Then the server is restarted again.
RESTARTS = 3


def test_a_bot_whose_lock_another_took_meanwhile_stops_saying_why(
    stand: Stand, tmp_path: Path, postgres_server: PostgresServer, postgres_url: str
) -> None:
    env = bot_env(
        stand,
        tmp_path / "unused.db",
        LAUREL_DATABASE__URL=postgres_url,
        LAUREL_SEARCH__IN_MEMORY="true",
        LAUREL_HEALTH__PORT=str(free_port()),
    )
    with subprocess.Popen(
        [sys.executable, "-m", "bot", "run"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    ) as bot:
        other = PostgresInstanceLock(postgres_url)
        try:
            until_live(f"http://127.0.0.1:{env['LAUREL_HEALTH__PORT']}/health", bot)
            took_it = False
            for _ in range(RESTARTS):
                postgres_server.restart()
                try:
                    other.acquire()  # a second bot, started before the first noticed
                except StoreError:  # the first's check came first and took it again
                    continue
                took_it = True
                break
            assert took_it, f"the bot took the lock again first after each of {RESTARTS} restarts"
            _, log = bot.communicate(timeout=GRACE)
        finally:
            other.release()
            if bot.poll() is None:
                bot.kill()
    assert bot.returncode == 1, log
    last = log.strip().splitlines()[-1]
    assert last.startswith("laurel: stopped: the instance lock was lost and another Laurel holds")
    assert "already running" in last
