"""SQLite refusing writes: locked past busy_timeout by another program, read-only, out of space.

Each fault is made the way it happens, on a real file: another connection holding the write lock
(`BEGIN IMMEDIATE`), the writer connection switched to `PRAGMA query_only` (what a read-only file
gives, SQLITE_READONLY; file modes are not a test as root, who may write anyway), and
`PRAGMA max_page_count` at the file's current size (SQLITE_FULL, as from a full disk). The write
is the catalogue's one write path (`CatalogRepository.apply`: `laurel import`, the bundled data,
later curators); it must be refused whole with a clear message, then applied exactly once when
the fault is gone. Read commands go on answering meanwhile.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, closing
from pathlib import Path

import pytest

from bot.app import LaurelBot
from bot.catalog import formats
from bot.cli import main
from bot.domain.clock import SystemClock
from bot.domain.models import Award, AwardKind, CatalogBatch, Venue
from bot.errors import StoreBusy, StoreFull, StoreReadOnly, WriteRefused
from bot.store.catalog.repository import CatalogRepository
from bot.store.sql import Connection
from bot.store.sqlite import SqliteDatabase
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.interactions import settled
from tests.support.store_faults import (
    Fault,
    locked,
    read_only,
)

PATH = "catalogue write"
COUNTS = ("venues", "papers", "awards", "audit")


def batch() -> CatalogBatch:
    """One new venue and one awarded paper, with text enough to need new pages."""
    paper = {
        "title": "Losing Nothing: Writes That Survive a Full Disk",
        "authors": ["Grace Hopper", "Edsger W. Dijkstra"],
        "year": 2025,
        "abstract": "We write once. " * 400,
    }
    award = {"venue": "relconf", "year": 2025, "name": "Best Paper Award",
             "kind": AwardKind.BEST, "paper": paper}  # fmt: skip
    venue = Venue(key="relconf", name="Conference on Reliable Bots")
    return CatalogBatch(venues=(venue,), awards=(Award.model_validate(award),))


def counts(path: Path) -> dict[str, int]:
    with closing(sqlite3.connect(path)) as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0] for t in COUNTS}


@asynccontextmanager
async def full(db: SqliteDatabase) -> AsyncIterator[None]:
    def cap(conn: Connection) -> None:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")

    await db.snapshot(cap)
    yield
    await db.snapshot(lambda conn: conn.execute("PRAGMA max_page_count = 1073741823"))


FAULTS = [
    pytest.param(locked, StoreBusy, "busy", marks=pytest.mark.fault(PATH, "locked"), id="locked"),
    pytest.param(
        read_only, StoreReadOnly, "read-only", marks=pytest.mark.fault(PATH, "read-only"),
        id="read-only",
    ),
    pytest.param(
        full, StoreFull, "disk is full", marks=pytest.mark.fault(PATH, "out of space"), id="full"
    ),
]  # fmt: skip


@pytest.mark.parametrize(("fault", "kind", "words"), FAULTS)
async def test_a_refused_write_writes_nothing_then_once(
    db: SqliteDatabase,
    checked: Callable[[str], None],
    fault: Fault,
    kind: type[WriteRefused],
    words: str,
) -> None:
    catalog, before = CatalogRepository(db, SystemClock()), counts(db.path)
    async with fault(db):
        with pytest.raises(WriteRefused) as refused:
            await catalog.apply(batch(), actor="reliability", policy="update")
        assert type(refused.value) is kind  # the domain error the commands answer by
        assert words in str(refused.value)
        assert "nothing was written" in str(refused.value)
        assert counts(db.path) == before
    plan = await catalog.apply(batch(), actor="reliability", policy="update")
    after = counts(db.path)
    assert {t: after[t] - before[t] for t in ("venues", "papers", "awards")} == dict.fromkeys(
        ("venues", "papers", "awards"), 1
    )
    assert after["audit"] > before["audit"]
    await catalog.apply(batch(), actor="reliability", policy="update")  # again: no change
    assert counts(db.path) == after
    assert await db.integrity_check() == []
    checked(f"refused whole ({words}); then {plan.summary()}; a rerun adds nothing")


@pytest.mark.parametrize(
    "fault",
    [
        pytest.param(locked, marks=pytest.mark.fault("read commands", "locked"), id="locked"),
        pytest.param(read_only, marks=pytest.mark.fault("read commands", "read-only"), id="ro"),
        pytest.param(full, marks=pytest.mark.fault("read commands", "out of space"), id="full"),
    ],
)
async def test_read_commands_answer_while_writes_are_refused(
    laurel: LaurelBot, server: LocalDiscord, db: SqliteDatabase, checked: Callable[[str], None],
    fault: Fault,
) -> None:  # fmt: skip
    async with fault(db):
        interaction = await server.slash("paper", {"query": "attention"}, subcommand="search")
        await settled(server)
        answer = await interaction.message()
    assert answer["embeds"]
    assert len(server.messages("general")) == 1
    checked("/paper search answered once, from the readers (WAL)")


@pytest.mark.fault("startup (command sync)", "locked")
async def test_a_start_on_a_locked_database_stops_clearly_and_then_syncs_once(
    server: LocalDiscord, db: SqliteDatabase, checked: Callable[[str], None]
) -> None:
    syncs = 0
    async with locked(db):
        with pytest.raises(WriteRefused, match="busy"):
            async with laurel_on(server, db, clock=SystemClock()):
                pass
        syncs = sum(r.method == "PUT" for r in server.requests)
    async with laurel_on(server, db, clock=SystemClock()) as bot:
        assert await bot.sync_commands() is False  # recorded: a restart would not push again
    assert sum(r.method == "PUT" for r in server.requests) == syncs + 1
    checked(
        f"start stopped (busy) after {syncs} idempotent PUT it could not record; "
        "the next start pushes once and records it"
    )


@pytest.mark.fault("laurel import (command line)", "locked")
def test_the_command_line_says_the_database_is_busy_and_writes_nothing(
    template_db: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    checked: Callable[[str], None],
) -> None:
    path = tmp_path / "laurel.db"
    path.write_bytes(template_db.read_bytes())
    document = tmp_path / "award.toml"
    formats.write(document, batch())
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(path))
    config = tmp_path / "laurel.toml"
    config.write_text("[database]\nbusy_timeout_ms = 50\n", encoding="utf-8")  # not 5 s
    before = counts(path)
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        assert main(["--config", str(config), "import", str(document)]) == 1
        other.execute("ROLLBACK")
    err = capsys.readouterr().err
    assert "laurel: the database is busy" in err
    assert "nothing was written" in err
    assert "Traceback" not in err
    assert counts(path) == before
    assert main(["--config", str(config), "import", str(document)]) == 0
    assert counts(path)["awards"] == before["awards"] + 1
    checked("exit 1, one line on stderr, no traceback; the rerun imports the award once")
