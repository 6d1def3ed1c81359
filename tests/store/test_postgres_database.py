"""The PostgreSQL database itself (issue 15): its migrations, what it refuses and how it says
so, its readers and rows. What both backends share is tested on both in the other modules."""

from __future__ import annotations

import asyncio
from pathlib import Path

import psycopg
import pytest
from psycopg.conninfo import conninfo_to_dict

from bot.errors import StoreError, StoreReadOnly
from bot.store.migrations import available
from bot.store.postgres.database import PostgresDatabase
from bot.store.sql import Connection
from tests.support.backends import open_postgres
from tests.support.postgres import PostgresServer

LATEST = available("migrations_pg")[-1].version


@pytest.fixture
def empty_url(postgres_server: PostgresServer) -> str:
    """A database with nothing in it, as an administrator makes one for Laurel."""
    return postgres_server.url(postgres_server.create_database())


async def test_an_empty_database_gets_the_whole_schema(empty_url: str) -> None:
    async with await open_postgres(empty_url) as db:
        assert await db.schema_version() == LATEST
        assert await db.integrity_check() == []
        rows = await db.fetchall(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        )
    names = {r["table_name"] for r in rows}
    assert {
        "venues", "editions", "papers", "paper_authors", "paper_affiliations", "awards",
        "audit", "bot_state", "removed_papers", "subscriptions", "digest_ledger",
        "digest_cycles", "live_papers", "live_awards", "schema_version",
    } <= names  # fmt: skip
    assert "paper_search" not in names  # SQLite's FTS5: the tantivy index searches here


async def test_two_processes_starting_at_once_migrate_once(empty_url: str) -> None:
    first, second = await asyncio.gather(open_postgres(empty_url), open_postgres(empty_url))
    try:
        rows = await first.fetchall("SELECT version FROM schema_version")
        assert [r[0] for r in rows] == [LATEST]
        assert await second.schema_version() == LATEST
    finally:
        await first.close()
        await second.close()


async def test_without_create_an_empty_database_is_refused_and_left_empty(empty_url: str) -> None:
    with pytest.raises(StoreError, match="laurel db init"):
        await open_postgres(empty_url, create=False)
    with psycopg.connect(empty_url) as conn:
        assert conn.execute("SELECT to_regclass('schema_version')").fetchone() == (None,)


async def test_a_newer_schema_is_refused(postgres_url: str) -> None:
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute("UPDATE schema_version SET version = 999")
    with pytest.raises(StoreError, match="newer than this Laurel"):
        await open_postgres(postgres_url)


async def test_an_unreachable_server_is_named_without_its_password(
    postgres_server: PostgresServer,
) -> None:
    url = postgres_server.url("postgres").replace("postgres:@", "laurel:s3cret@")
    url = url.replace("/postgres?", "/no_such_database?")
    with pytest.raises(StoreError) as failed:
        await open_postgres(url)
    message = str(failed.value)
    assert "PostgreSQL server" in message
    assert "s3cret" not in message


async def test_a_read_only_database_is_refused_at_start_with_what_to_do(
    postgres_server: PostgresServer, postgres_url: str
) -> None:
    name = conninfo_to_dict(postgres_url)["dbname"]
    with postgres_server.admin() as conn:
        conn.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = on")
    with pytest.raises(StoreError) as refused:
        await open_postgres(postgres_url)
    message = str(refused.value)
    assert "read-only" in message
    assert "default_transaction_read_only = off" in message  # what to do about it


async def test_a_write_in_a_read_only_transaction_is_refused_in_the_stores_words(
    postgres_url: str,
) -> None:
    async with await open_postgres(postgres_url) as db:

        def sneaky(conn: Connection) -> None:
            conn.execute("SET TRANSACTION READ ONLY")
            conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'A')")

        with pytest.raises(StoreReadOnly, match=r"read-only.*nothing was written"):
            await db.write(sneaky)
        assert await db.fetchall("SELECT * FROM venues") == []
        await db.write(
            lambda conn: conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'A')")
        )


async def test_backup_says_to_use_pg_dump(db_pg: PostgresDatabase) -> None:
    with pytest.raises(StoreError, match="pg_dump"):
        await db_pg.backup(Path("x.db"))


async def test_integrity_check_names_migrations_not_applied(db_pg: PostgresDatabase) -> None:
    await db_pg.write(lambda conn: conn.execute("UPDATE schema_version SET version = 0"))
    every = ", ".join(f"{m.version:04d}" for m in available("migrations_pg"))
    assert await db_pg.integrity_check() == [f"schema version 0: migrations {every} not applied"]


async def test_rows_answer_by_position_name_and_keys(db_pg: PostgresDatabase) -> None:
    row = await db_pg.fetchone("SELECT 1 AS one, 'two' AS Two, NULL AS three")
    assert row is not None
    assert (row[0], row["one"], row["two"], row["TWO"], row["three"]) == (1, 1, "two", "two", None)
    assert row.keys() == ["one", "two", "three"]
    assert tuple(row) == (1, "two", None)
    with pytest.raises(IndexError):
        row["four"]


async def test_readers_answer_while_a_long_write_holds_the_writer(db_pg: PostgresDatabase) -> None:
    started = asyncio.Event()
    loop = asyncio.get_running_loop()

    def long_write(conn: Connection) -> None:
        conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'A')")
        loop.call_soon_threadsafe(started.set)
        conn.execute("SELECT pg_sleep(1)")

    writing = asyncio.create_task(db_pg.write(long_write))
    await started.wait()
    async with asyncio.timeout(5):
        assert await db_pg.fetchall("SELECT * FROM venues") == []  # not committed yet
    assert not writing.done()
    await writing
    assert len(await db_pg.fetchall("SELECT * FROM venues")) == 1


async def test_an_error_of_the_write_function_itself_comes_out_as_it_was(
    db_pg: PostgresDatabase,
) -> None:
    class Refusal(Exception):
        pass

    def refuse(conn: Connection) -> None:
        conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'A')")
        raise Refusal("no")

    with pytest.raises(Refusal) as raised:
        await db_pg.write(refuse)
    assert raised.value.__cause__ is None  # not wrapped, nor its own cause
    assert await db_pg.fetchall("SELECT * FROM venues") == []
