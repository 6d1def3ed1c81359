"""What the schema itself guards, the same on SQLite and PostgreSQL (issue 15): the write path
(one transaction, a savepoint per write function), the append-only audit, the ledger's one row
per (subscription, period), the soft-delete views."""

from __future__ import annotations

import pytest

from bot.store.database import Database
from bot.store.sql import Connection, integrity_errors

AUDIT_ROW = (
    "INSERT INTO audit (at, actor, batch, action, entity, entity_id, after) "
    "VALUES ('2026-01-01T00:00:00+00:00', 'test', 'b1', 'add', 'venue', 'x', '{}')"
)


def _subscription(conn: Connection) -> int:
    (sub_id,) = conn.execute(
        """
        INSERT INTO subscriptions (guild_id, channel_id, theme, cadence, days, time, timezone,
                                   language, status, created_by, created_at)
        VALUES (?, ?, 'paper-of-the-day', 'daily', 127, '09:00', 'UTC', 'en', 'active', 7, 't')
        RETURNING id
        """,
        (2**62 + 1, 2**62 + 2),  # Discord ids need 64 bits
    ).fetchone()
    return int(sub_id)


def _reserve(sub_id: int, nonce: str) -> str:
    return (
        "INSERT INTO digest_ledger (subscription_id, period, status, theme, nonce, reserved_at) "
        f"VALUES ({sub_id}, '2026-01-05', 'pending', 'paper-of-the-day', '{nonce}', 't')"
    )


async def test_a_write_is_one_transaction_all_or_nothing(db: Database) -> None:
    def half(conn: Connection) -> None:
        conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'A')")
        conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'again')")  # duplicate key

    with pytest.raises(integrity_errors()):
        await db.write(half)
    assert await db.fetchall("SELECT key FROM venues") == []


async def test_write_each_undoes_a_failing_function_alone_in_its_savepoint(db: Database) -> None:
    def first(conn: Connection) -> str:
        conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'A')")
        return "a"

    def clashing(conn: Connection) -> str:
        conn.execute("INSERT INTO venues (key, name) VALUES ('b', 'B')")  # undone with it
        conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'again')")
        return "never"

    def after(conn: Connection) -> int:
        conn.execute("INSERT INTO venues (key, name) VALUES ('c', 'C')")
        return int(conn.execute("SELECT count(*) FROM venues").fetchone()[0])

    outcomes = await db.write_each([first, clashing, after])
    assert outcomes[0] == ("a", None)
    assert outcomes[1][0] is None
    assert isinstance(outcomes[1][1], integrity_errors())
    assert outcomes[2] == (2, None)  # it saw the first, not the undone one
    rows = await db.fetchall("SELECT key FROM venues ORDER BY key")
    assert [r["key"] for r in rows] == ["a", "c"]


@pytest.mark.parametrize(
    "tamper",
    ["UPDATE audit SET actor = 'someone else'", "DELETE FROM audit"],
)
async def test_the_audit_cannot_be_updated_or_deleted(db: Database, tamper: str) -> None:
    await db.write(lambda conn: conn.execute(AUDIT_ROW))
    with pytest.raises(integrity_errors(), match="append-only"):
        await db.write(lambda conn: conn.execute(tamper))
    rows = await db.fetchall("SELECT actor FROM audit")
    assert [r["actor"] for r in rows] == ["test"]


async def test_the_ledger_holds_one_row_per_subscription_and_period(db: Database) -> None:
    sub_id = await db.write(_subscription)
    await db.write(lambda conn: conn.execute(_reserve(sub_id, "n1")))
    with pytest.raises(integrity_errors()):
        await db.write(lambda conn: conn.execute(_reserve(sub_id, "n2")))
    rows = await db.fetchall("SELECT nonce FROM digest_ledger")
    assert [r["nonce"] for r in rows] == ["n1"]
    guild = await db.fetchone("SELECT guild_id FROM subscriptions WHERE id = ?", (sub_id,))
    assert guild is not None
    assert guild["guild_id"] == 2**62 + 1


async def test_removed_papers_and_their_awards_leave_the_live_views_and_come_back(
    db: Database,
) -> None:
    def catalogue(conn: Connection) -> tuple[int, int]:
        conn.execute("INSERT INTO venues (key, name) VALUES ('icml', 'ICML')")
        (edition,) = conn.execute(
            "INSERT INTO editions (venue, year) VALUES ('icml', 2025) RETURNING id"
        ).fetchone()
        ids = []
        for title in ("Kept", "Removed"):
            (paper,) = conn.execute(
                "INSERT INTO papers (title, title_key) VALUES (?, ?) RETURNING id",
                (title, title.lower()),
            ).fetchone()
            conn.execute(
                "INSERT INTO awards (edition_id, paper_id, name, kind)"
                " VALUES (?, ?, 'Best', 'best')",
                (edition, paper),
            )
            ids.append(int(paper))
        return ids[0], ids[1]

    async def live() -> tuple[list[str], list[int]]:
        papers = await db.fetchall("SELECT title FROM live_papers ORDER BY id")
        awards = await db.fetchall("SELECT paper_id FROM live_awards ORDER BY paper_id")
        return [r["title"] for r in papers], [int(r["paper_id"]) for r in awards]

    kept, removed = await db.write(catalogue)
    assert await live() == (["Kept", "Removed"], [kept, removed])

    await db.write(
        lambda conn: conn.execute("UPDATE papers SET removed_at = 't' WHERE id = ?", (removed,))
    )
    assert await live() == (["Kept"], [kept])  # a removed paper hides its awards too
    held = await db.fetchall("SELECT paper_id FROM removed_papers")
    assert [int(r[0]) for r in held] == [removed]

    await db.write(
        lambda conn: conn.execute("UPDATE papers SET removed_at = NULL WHERE id = ?", (removed,))
    )
    assert await live() == (["Kept", "Removed"], [kept, removed])
    assert await db.fetchall("SELECT paper_id FROM removed_papers") == []

    await db.write(
        lambda conn: conn.execute("UPDATE awards SET removed_at = 't' WHERE paper_id = ?", (kept,))
    )
    assert await live() == (["Kept", "Removed"], [removed])  # an award removed alone


async def test_listeners_hear_of_writes_that_add_audit_rows_and_of_no_others(
    db: Database,
) -> None:
    heard: list[int] = []

    async def listener() -> None:
        heard.append(len(await db.fetchall("SELECT id FROM audit")))

    db.on_catalog_write(listener)
    await db.write(
        lambda conn: conn.execute("INSERT INTO bot_state (key, value) VALUES ('k', 'v')")
    )
    assert heard == []  # no catalogue change
    await db.write(lambda conn: conn.execute(AUDIT_ROW))
    assert heard == [1]
    await db.rehearse(lambda conn: conn.execute(AUDIT_ROW))
    assert heard == [1]  # a rehearsal commits nothing
