"""Copying a SQLite database into PostgreSQL: every table, row for row (counts and sha256 equal),
the ids kept and the sequences set past them, the audit still append-only; a database that is
not empty refused with nothing written; a row changed afterwards found, by table."""

from __future__ import annotations

import datetime as dt
import shutil
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.domain.clock import SystemClock
from bot.domain.ledger import Choice
from bot.domain.shards import Shards
from bot.domain.subscriptions import CycleState, Subscription, Theme
from bot.errors import StoreError
from bot.store.bot_state import BotStateRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.copy import Snapshot, copy_into, mismatches, read_snapshot
from bot.store.database import Database
from bot.store.ledger import LedgerRepository
from bot.store.shard_layout import ShardLayout
from bot.store.sql import Connection
from bot.store.subscriptions import SubscriptionRepository
from bot.store.table_digests import Table, digests
from tests.support.backends import open_postgres, open_sqlite

NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


def next_id(table: str) -> Callable[[Connection], int]:
    def take(conn: Connection) -> int:
        row = conn.execute("SELECT nextval(pg_get_serial_sequence(?, 'id'))", (table,)).fetchone()
        return int(row[0])

    return take


@pytest.fixture
async def source(template_db: Path, tmp_path: Path) -> AsyncIterator[Database]:
    """The bundled catalogue, plus a curator's edit and removal, a subscription, its ledger
    rows and picker state, and the bot's state: a row in every table of the schema."""
    path = tmp_path / "laurel.db"
    shutil.copy(template_db, path)
    db = await open_sqlite(path)
    try:
        catalog = CatalogRepository(db, SystemClock())
        first, second = (r[0] for r in await db.fetchall("SELECT id FROM papers LIMIT 2"))
        await catalog.remove("paper", first, actor="curator:1")
        sub = await SubscriptionRepository(db).add(
            Subscription.model_validate(
                {
                    "guild_id": 10,
                    "channel_id": 20,
                    "theme": Theme.PAPER_OF_THE_DAY,
                    "time": dt.time(9, 0),
                    "timezone": "Asia/Taipei",
                    "language": "zh-TW",
                    "created_by": 3,
                    "created_at": NOW,
                }
            )
        )
        assert sub.id is not None
        ledger = LedgerRepository(db)
        cycle = CycleState(cycle=1, shown=(second,))
        entry, _ = await ledger.reserve(
            sub.id,
            "2026-11-29",
            "paper-of-the-day",
            late=False,
            now=NOW,
            choose=lambda state, mark: Choice(content={"paper": second}, cycle=cycle),
        )
        await ledger.mark_sent(entry.id, 123456789012345678, NOW)
        await BotStateRepository(db).put("command-tree", "论文 · 論文 · papers")
        two = Shards.of("0-1", 2)
        assert two is not None
        await ShardLayout(db).claim(two, "host pid 1", now=NOW, ttl=dt.timedelta(minutes=1))
        yield db
    finally:
        await db.close()


async def test_every_table_is_copied_row_for_row(source: Database, postgres_url: str) -> None:
    snapshot = await source.snapshot(read_snapshot)
    assert all(snapshot.rows[t.name] for t in snapshot.tables), "a row in every table"
    async with await open_postgres(postgres_url) as target:
        copied = await target.write(lambda conn: copy_into(conn, snapshot))
        theirs = await target.snapshot(lambda conn: digests(conn, snapshot.tables))
        assert copied == sum(len(rows) for rows in snapshot.rows.values())
        assert mismatches(snapshot.digests(), theirs) == []
        assert [d.rows for d in theirs] == [len(snapshot.rows[t.name]) for t in snapshot.tables]

        # Every identity sequence hands out the id after the largest copied one.
        for table in ("editions", "papers", "awards", "audit", "subscriptions", "digest_ledger"):
            top = max(row[0] for row in snapshot.rows[table])
            assert await target.write(next_id(table)) == top + 1, table
        # The removed paper is still removed there, and the audit still append-only.
        removed = await target.fetchall("SELECT paper_id FROM removed_papers")
        assert [r[0] for r in removed] == [r[0] for r in snapshot.rows["removed_papers"]]
        with pytest.raises(Exception, match="append-only"):
            await target.write(lambda conn: conn.execute("DELETE FROM audit"))


async def test_a_database_that_is_not_empty_is_refused_untouched(
    source: Database, postgres_url: str
) -> None:
    snapshot = await source.snapshot(read_snapshot)
    async with await open_postgres(postgres_url) as target:
        await target.write(lambda conn: copy_into(conn, snapshot))
        before = await target.snapshot(lambda conn: digests(conn, snapshot.tables))
        with pytest.raises(
            StoreError, match=r"not empty \(rows in audit, bot_state, papers, .*, awards\)"
        ):
            await target.write(lambda conn: copy_into(conn, snapshot))
        assert await target.snapshot(lambda conn: digests(conn, snapshot.tables)) == before


async def test_a_schema_without_a_table_is_refused(source: Database, postgres_url: str) -> None:
    snapshot = await source.snapshot(read_snapshot)
    extra = Table("curators_notes", ("id",), ("id",))
    wider = Snapshot([*snapshot.tables, extra], {**snapshot.rows, "curators_notes": [(1,)]})
    async with await open_postgres(postgres_url) as target:
        with pytest.raises(StoreError, match="no table curators_notes"):
            await target.write(lambda conn: copy_into(conn, wider))
        row = await target.fetchone("SELECT count(*) FROM papers")
        assert row is not None
        assert row[0] == 0  # nothing of it was written


async def test_a_moved_deployment_starts_as_it_left_off(
    source: Database, postgres_url: str
) -> None:
    """What `laurel run` does first on the copy (bring the bundled catalogue up to date) finds
    nothing to do: the copy carries the bot's state, so nothing is imported twice, and the
    bundle policy (a full pass, as a new release would run) keeps the curator's removal."""
    snapshot = await source.snapshot(read_snapshot)
    removed = snapshot.rows["removed_papers"]
    async with await open_postgres(postgres_url) as target:
        await target.write(lambda conn: copy_into(conn, snapshot))
        assert (
            await load_bundled_into(CatalogParts.over(target, SystemClock()), only_if_empty=True)
            is None
        )
        plan = await load_bundled_into(CatalogParts.over(target, SystemClock()))
        assert plan is not None
        assert plan.count("add", "paper") == 0
        assert [tuple(r) for r in await target.fetchall("SELECT * FROM removed_papers")] == removed
