"""`laurel health` against a `laurel run` on the stand-in (separate processes, as in a container),
and against nothing; and the bot's own log, at DEBUG, holds no token."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import discord

from bot.observability.health import gateway_check
from bot.store import migrations
from tests.support.ports import free_port
from tests.support.processes import (
    GRACE,
    Stand,
    bot_env,
    run_bot,
    until_live,
)


def _env(tmp_path: Path, port: int, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LAUREL_")}
    env.pop("DISCORD_TOKEN", None)
    env.update(
        LAUREL_DATABASE__PATH=str(tmp_path / "laurel.db"),
        LAUREL_DATABASE__BACKUP_DIR=str(tmp_path / "backups"),
        LAUREL_HEALTH__PORT=str(port),
        **extra,
    )
    return env


def _health(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "health"], env=env, capture_output=True, text=True, timeout=30
    )


def test_health_says_no_when_nothing_runs(tmp_path: Path) -> None:
    port = free_port()
    result = _health(_env(tmp_path, port))
    assert result.returncode == 1
    assert result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"laurel: unhealthy: no bot answering at http://127.0.0.1:{port}/health")


def test_health_says_yes_for_a_live_bot_whose_log_holds_no_token(
    stand: Stand, tmp_path: Path
) -> None:
    env = bot_env(
        stand,
        tmp_path / "laurel.db",
        LAUREL_DATABASE__BACKUP_DIR=str(tmp_path / "backups"),
        LAUREL_HEALTH__PORT=str(free_port()),
        LAUREL_LOGGING__LEVEL="DEBUG",  # discord.py logs gateway payloads at DEBUG
        LAUREL_LOGGING__FORMAT="json",
    )
    log_path = tmp_path / "bot.log"  # a file, not a pipe: a DEBUG log would fill a pipe
    with log_path.open("w") as log_file:
        bot = run_bot(env, stdout=None, stderr=log_file)
    try:
        url = f"http://127.0.0.1:{env['LAUREL_HEALTH__PORT']}/health"
        until_live(url, bot)
        result = _health(env)
        assert result.returncode == 0, result.stderr
        assert result.stdout.startswith("healthy: gateway ")
        assert f"store schema {migrations.available()[-1].version}" in result.stdout
    finally:
        bot.terminate()  # SIGTERM, as `docker stop` sends
        bot.wait(timeout=GRACE)
    log = log_path.read_text()
    assert bot.returncode == 0
    assert "IDENTIFY" in log or "identify" in log.lower()  # the DEBUG log did cover the login
    assert stand.token not in log
    assert stand.token.split(".")[2] not in log


def test_health_says_yes_for_a_live_sharded_bot(stand: Stand, tmp_path: Path) -> None:
    """`laurel run --shards 0 --shard-count 1` with its one shard connected is live: a sharded
    client (AutoShardedClient) has no `ws` of its own, each shard has its own (issue 22)."""
    env = bot_env(
        stand,
        tmp_path / "laurel.db",
        LAUREL_HEALTH__PORT=str(free_port()),
        LAUREL_DISCORD__SHARD_IDS="[0]",
        LAUREL_DISCORD__SHARD_COUNT="1",
    )
    with run_bot(env) as bot:  # closes its pipe at the end
        try:
            until_live(f"http://127.0.0.1:{env['LAUREL_HEALTH__PORT']}/health", bot)
            result = _health(env)
            assert result.returncode == 0, result.stderr
            assert result.stdout.startswith("healthy: gateway ")
        finally:
            bot.terminate()
            bot.wait(timeout=GRACE)
    assert bot.returncode == 0


async def test_a_sharded_client_names_the_shards_not_connected() -> None:
    """Before its shards connect, a sharded client says which of its own are not connected."""
    client = discord.AutoShardedClient(
        intents=discord.Intents.none(), shard_ids=[2, 3], shard_count=4
    )
    check = gateway_check(client)
    assert not check.ok
    assert check.detail == "shard(s) 2, 3 not connected"
