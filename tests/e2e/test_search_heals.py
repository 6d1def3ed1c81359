"""A damaged search index while the bot runs (issue 22): every interaction is answered, the
failure is counted in the metrics, and the index is rebuilt, the bot live all along."""

from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path

import pytest

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.observability.health import check_health
from bot.settings import BackupSettings, MetricsSettings, Settings
from bot.store.sqlite import SqliteDatabase
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.payloads import opened

QUERY = "Langevin"  # fewer hits than a page: FTS5 and the index find the same ones


def _garble_keeping_size_and_time(file: Path) -> None:
    """Random bytes over a whole file, its size and modification time kept: damage no `stat`
    sees, which tantivy meets itself (random bytes in a .idx make it panic). Over the second half
    only, since stop 31's catalogue the damage made no panic and the index answered "Langevin"
    with two wrong papers: the limit bot/store/search/files.py states (checksums are verified
    once per file; after that only size and time are compared, and a garbled file may answer
    wrong without failing)."""
    before = file.stat()
    data = bytearray(file.read_bytes())
    rnd = random.Random(22)
    for i in range(len(data)):
        data[i] = rnd.randrange(256)
    with file.open("r+b") as out:  # in place at its size: never shorter under the memory map
        out.write(bytes(data))
    os.utime(file, ns=(before.st_atime_ns, before.st_mtime_ns))


def _replace(file: Path, data: bytes) -> None:
    """Damage as a copy, a restore or another program leaves it: a new file under the old name.
    (Cutting a file short in place under the running index is a different fault: tantivy maps
    its files into memory, and a read past the new end stops the process with SIGBUS, as any
    memory-mapped store would; the next start checks the files and rebuilds.)"""
    spare = file.with_name(file.name + ".damaged")
    spare.write_bytes(data)
    os.replace(spare, file)


async def test_random_bytes_in_an_idx_are_answered_counted_and_healed(
    server: LocalDiscord, db: SqliteDatabase
) -> None:
    settings = Settings(
        backups=BackupSettings(enabled=False), metrics=MetricsSettings(enabled=True)
    )
    async with laurel_on(server, db, settings, clock=SystemClock()) as bot:
        index = bot.search_index
        assert index is not None
        assert index.path is not None
        before = await (
            await server.slash("paper", {"query": QUERY}, subcommand="search")
        ).message()
        (idx,) = [p for p in index.path.iterdir() if re.fullmatch(r"[0-9a-f]{32}\.idx", p.name)]
        _garble_keeping_size_and_time(idx)

        answer = await (
            await server.slash("paper", {"query": QUERY}, subcommand="search")
        ).message()
        assert answer["embeds"][0]["title"] == before["embeds"][0]["title"]
        assert set(opened(answer)) == set(opened(before))
        assert 1 < len(opened(before)) < 5
        choices = await server.autocomplete("paper", {"paper": QUERY}, "paper", subcommand="show")
        assert choices  # answered too, whatever answers it
        assert bot.metrics.value("laurel_search_index_faults_total", operation="search") == 1
        report = await check_health(bot, db, search=index)
        assert report.healthy  # live, whether the rebuild is done yet or not
        assert report.status in ("degraded", "ok")

        await index.wait_ready()
        assert (await check_health(bot, db, search=index)).to_json()["status"] == "ok"
        again = await (await server.slash("paper", {"query": QUERY}, subcommand="search")).message()
        assert again["embeds"][0]["description"] == before["embeds"][0]["description"]


@pytest.mark.parametrize(
    "fault", ["delete the folder", "truncate .term", "delete .pos", "garble meta.json"]
)
async def test_every_interaction_is_answered_whatever_the_damage(
    laurel: LaurelBot, server: LocalDiscord, fault: str
) -> None:
    index = laurel.search_index
    assert index is not None
    assert index.path is not None
    before = await (await server.slash("paper", {"query": QUERY}, subcommand="search")).message()
    if fault == "delete the folder":
        shutil.rmtree(index.path)
    else:
        how, kind = fault.split(" ")
        for file in index.path.iterdir():
            if file.name.endswith(kind):
                data = file.read_bytes()
                if how == "delete":
                    file.unlink()
                elif how == "truncate":
                    _replace(file, data[: len(data) // 2])
                else:
                    _replace(file, b"{" + data[len(data) // 2 :])
    for _ in range(2):  # while it is rebuilt, and after
        answer = await (
            await server.slash("paper", {"query": QUERY}, subcommand="search")
        ).message()
        assert set(opened(answer)) == set(opened(before))
        assert await server.autocomplete("paper", {"paper": QUERY}, "paper", subcommand="show")
        await index.follow()  # as the scheduler does every few seconds
        await index.wait_ready()
    assert index.ready
