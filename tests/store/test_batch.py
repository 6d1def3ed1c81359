"""Group commit (bot/store/batch.py): concurrent writes share a transaction, and each caller
hears of its own write only once it is committed — or that it was not written at all."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from bot.errors import WriteRefused
from bot.store.batch import GroupCommit
from bot.store.database import Database
from bot.store.sql import Connection, integrity_errors

# The writer made read-only, and made writable again: every write is refused meanwhile. (On
# PostgreSQL a session's default, set in a transaction that commits: a snapshot rolls back.)
_READ_ONLY = {
    "sqlite": ("PRAGMA query_only = ON", "PRAGMA query_only = OFF"),
    "postgresql": (
        "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY",
        "SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
    ),
}


async def make_table(db: Database) -> None:
    await db.write(lambda conn: conn.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)"))


def insert(n: int) -> Callable[[Connection], int]:
    def write(conn: Connection) -> int:
        conn.execute("INSERT INTO t (n) VALUES (?)", (n,))
        return n * 10

    return write


async def stored(db: Database) -> list[int]:
    return [row[0] for row in await db.fetchall("SELECT n FROM t ORDER BY n")]


async def test_writes_that_arrive_together_share_one_transaction(db: Database) -> None:
    await make_table(db)
    group = GroupCommit(db)
    results = await asyncio.gather(*(group.write(insert(n)) for n in range(50)))
    assert results == [n * 10 for n in range(50)]
    assert await stored(db) == list(range(50))
    assert group.writes == 50
    assert group.transactions <= 2  # the first alone (it waits for nothing), the rest together


async def test_a_lone_write_is_committed_at_once(db: Database) -> None:
    await make_table(db)
    group = GroupCommit(db)
    assert await group.write(insert(7)) == 70
    assert await stored(db) == [7]
    assert (group.transactions, group.writes) == (1, 1)


async def test_one_write_that_raises_is_undone_alone(db: Database) -> None:
    await make_table(db)
    group = GroupCommit(db)

    def half_then_fail(conn: Connection) -> int:
        conn.execute("INSERT INTO t (n) VALUES (100)")
        raise LookupError("no such subscription")

    calls = [group.write(insert(n)) for n in range(5)]
    calls.insert(2, group.write(half_then_fail))
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    assert isinstance(outcomes[2], LookupError)
    assert [o for n, o in enumerate(outcomes) if n != 2] == [0, 10, 20, 30, 40]
    assert await stored(db) == [0, 1, 2, 3, 4]  # not 100: its savepoint was rolled back
    # A constraint broken by one write (a duplicate key) fails that write only, too.
    again = await asyncio.gather(
        group.write(insert(1)),
        group.write(insert(5)),
        return_exceptions=True,
    )
    assert isinstance(again[0], integrity_errors())
    assert again[1] == 50
    assert await stored(db) == [0, 1, 2, 3, 4, 5]


async def test_a_refused_transaction_fails_every_write_in_it(db: Database) -> None:
    await make_table(db)
    group = GroupCommit(db)
    refuse, allow = _READ_ONLY[db.dialect]
    setting = db.snapshot if db.dialect == "sqlite" else db.write
    await setting(lambda conn: conn.execute(refuse))
    try:
        outcomes = await asyncio.gather(
            *(group.write(insert(n)) for n in range(10)),
            return_exceptions=True,
        )
    finally:
        await setting(lambda conn: conn.execute(allow))
    assert all(isinstance(o, WriteRefused) for o in outcomes)
    assert await stored(db) == []
    assert await group.write(insert(3)) == 30
    assert await stored(db) == [3]


async def test_a_cancelled_caller_strands_nobody(db: Database) -> None:
    await make_table(db)
    group = GroupCommit(db)
    first = asyncio.create_task(group.write(insert(1)))
    others = [asyncio.create_task(group.write(insert(n))) for n in (2, 3)]
    await asyncio.sleep(0)  # all three queued, the first transaction under way
    first.cancel()
    assert await asyncio.gather(*others) == [20, 30]
    with pytest.raises(asyncio.CancelledError):
        await first
    # The cancelled caller's write stands, as a plain Database.write's would.
    assert await stored(db) == [1, 2, 3]


async def test_drain_waits_for_every_queued_write_even_when_one_batch_fails(
    db: Database,
) -> None:
    """A stopping process's marks (issue 22, item 12): drain returns once everything queued is
    committed; a failed transaction was told to its writer, not to the drain."""
    writes = GroupCommit(db)

    def run(sql: str) -> Callable[[Connection], object]:
        return lambda conn: conn.execute(sql)

    statements = [
        "INSERT INTO venues (key, name) VALUES ('v1', 'V1')",
        "SELECT no_such_column",
        "INSERT INTO venues (key, name) VALUES ('v2', 'V2')",
    ]
    waiting = [asyncio.ensure_future(writes.write(run(s))) for s in statements]
    await asyncio.sleep(0)
    await writes.drain()
    assert all(w.done() for w in waiting)
    rows = await db.fetchall("SELECT key FROM venues WHERE key IN ('v1', 'v2') ORDER BY key")
    assert [r[0] for r in rows] == ["v1", "v2"]
    await asyncio.gather(*waiting, return_exceptions=True)
