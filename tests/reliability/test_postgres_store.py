"""The store's faults on PostgreSQL, made the way they happen on a real server (issue 15): the
connection killed mid-write (`pg_terminate_backend`), the server restarted mid-transaction and
between two writes (`pg_ctl restart`), serialization failures and deadlocks, another process
holding the write lock, a database turned read-only, the connection lost at COMMIT.

A write that committed nothing is tried again on a fresh connection and lands once; a refusal
is said in the store's words with nothing written; a loss at COMMIT is not retried (it may have
committed) and says so.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator

import psycopg
import pytest
from psycopg import errors as pg
from psycopg.conninfo import conninfo_to_dict

from bot.domain.clock import SystemClock
from bot.errors import StoreBusy, StoreError, StoreReadOnly
from bot.store.postgres.database import WRITE_LOCK, PostgresDatabase, connect_writer
from bot.store.postgres.rows import Row
from bot.store.sql import Connection
from tests.support.backends import open_postgres
from tests.support.postgres import PostgresServer

PATH = "store write (PostgreSQL)"


class Write:
    """A write function that adds one venue, and on its first run does `fault` first (at the
    point `when` says: "before" its insert, or "after" it)."""

    def __init__(self, fault: Callable[[Connection], None], when: str = "after") -> None:
        self.fault, self.when, self.runs = fault, when, 0

    def __call__(self, conn: Connection) -> str:
        self.runs += 1
        if self.runs == 1 and self.when == "before":
            self.fault(conn)
        conn.execute("INSERT INTO venues (key, name) VALUES ('relconf', 'Reliable Bots')")
        if self.runs == 1 and self.when == "after":
            self.fault(conn)
        return "written"


async def venues(db: PostgresDatabase) -> list[str]:
    return [r["key"] for r in await db.fetchall("SELECT key FROM venues ORDER BY key")]


def backend_pid(conn: Connection) -> int:
    return int(conn.execute("SELECT pg_backend_pid()").fetchone()[0])


@pytest.fixture
def admin(postgres_server: PostgresServer) -> Iterator[psycopg.Connection[tuple[object, ...]]]:
    with postgres_server.admin() as conn:
        yield conn


@pytest.mark.fault(PATH, "connection killed mid-write")
async def test_a_write_whose_connection_is_killed_is_retried_and_lands_once(
    db_pg: PostgresDatabase,
    admin: psycopg.Connection[tuple[object, ...]],
    checked: Callable[[str], None],
) -> None:
    def kill(conn: Connection) -> None:
        admin.execute("SELECT pg_terminate_backend(%s)", (backend_pid(conn),))

    write = Write(kill)
    assert await db_pg.write(write) == "written"
    assert write.runs == 2
    assert await venues(db_pg) == ["relconf"]
    checked("pg_terminate_backend after the insert; retried on a fresh connection, 1 row")


@pytest.mark.fault(PATH, "server restarted mid-transaction")
async def test_a_write_cut_by_a_server_restart_is_retried_and_lands_once(
    db_pg: PostgresDatabase, postgres_server: PostgresServer, checked: Callable[[str], None]
) -> None:
    write = Write(lambda conn: postgres_server.restart())
    assert await db_pg.write(write) == "written"
    assert write.runs == 2
    assert await venues(db_pg) == ["relconf"]
    checked("pg_ctl restart inside the transaction; retried once the server was back, 1 row")


@pytest.mark.fault(PATH, "server restarted between writes")
async def test_after_a_server_restart_the_next_write_and_read_reconnect(
    db_pg: PostgresDatabase, postgres_server: PostgresServer, checked: Callable[[str], None]
) -> None:
    await db_pg.write(lambda conn: conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'A')"))
    postgres_server.restart()
    assert await venues(db_pg) == ["a"]  # a reader, reconnected
    await db_pg.write(lambda conn: conn.execute("INSERT INTO venues (key, name) VALUES ('b', 'B')"))
    assert await venues(db_pg) == ["a", "b"]
    checked("pg_ctl restart between two writes: the reads and the next write reconnect")


@pytest.mark.fault(PATH, "serialization failure / deadlock")
@pytest.mark.parametrize("failure", [pg.SerializationFailure, pg.DeadlockDetected])
async def test_a_serialization_failure_or_deadlock_is_retried_and_lands_once(
    db_pg: PostgresDatabase, failure: type[psycopg.Error], checked: Callable[[str], None]
) -> None:
    def fail(conn: Connection) -> None:
        raise failure("injected")

    write = Write(fail)
    assert await db_pg.write(write) == "written"
    assert write.runs == 2
    assert await venues(db_pg) == ["relconf"]
    checked(f"{failure.__name__} raised after the insert: rolled back, retried, 1 row")


@pytest.mark.fault(PATH, "serialization failure in write_each")
async def test_a_serialization_failure_in_a_group_retries_the_whole_group(
    db_pg: PostgresDatabase, checked: Callable[[str], None]
) -> None:
    def first(conn: Connection) -> int:
        conn.execute("INSERT INTO venues (key, name) VALUES ('a', 'A')")
        return 1

    write = Write(lambda conn: (_ for _ in ()).throw(pg.SerializationFailure("injected")))
    outcomes = await db_pg.write_each([first, write])
    assert outcomes == [(1, None), ("written", None)]
    assert await venues(db_pg) == ["a", "relconf"]
    checked("one savepoint's serialization failure retries the transaction, not just it")


@pytest.mark.fault(PATH, "write lock held by another process")
async def test_a_write_lock_held_too_long_is_busy_then_the_write_lands_once(
    postgres_url: str, checked: Callable[[str], None]
) -> None:
    async with await open_postgres(postgres_url, busy_timeout_ms=100) as db:
        with psycopg.connect(postgres_url, autocommit=True) as other:
            other.execute("SELECT pg_advisory_lock(%s)", (WRITE_LOCK,))  # another Laurel writing
            write = Write(lambda conn: None)
            with pytest.raises(StoreBusy, match=r"busy.*nothing was written"):
                await db.write(write)
            assert await venues(db) == []
        assert await db.write(write) == "written"  # its lock went with its connection
        assert await venues(db) == ["relconf"]
    checked("refused whole (busy) after busy_timeout_ms; lands once when the lock is free")


@pytest.mark.fault(PATH, "database turned read-only")
async def test_a_database_turned_read_only_refuses_writes_in_words_until_writable(
    db_pg: PostgresDatabase,
    postgres_url: str,
    admin: psycopg.Connection[tuple[object, ...]],
    checked: Callable[[str], None],
) -> None:
    name = conninfo_to_dict(postgres_url)["dbname"]

    def read_only(on: bool) -> None:
        admin.execute(f"ALTER DATABASE {name} SET default_transaction_read_only = {on}")
        # sessions take it when they start: end the running ones
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )

    read_only(True)
    with pytest.raises(StoreReadOnly, match=r"read-only.*nothing was written"):
        await db_pg.write(Write(lambda conn: None))
    assert await venues(db_pg) == []  # reads go on
    read_only(False)
    assert await db_pg.write(Write(lambda conn: None)) == "written"
    assert await venues(db_pg) == ["relconf"]
    checked("refused whole (read-only); reads answer; lands once when writable again")


@pytest.mark.fault(PATH, "connection lost at COMMIT")
async def test_a_connection_lost_at_commit_asks_the_server_and_lands_once(
    db_pg: PostgresDatabase,
    admin: psycopg.Connection[tuple[object, ...]],
    checked: Callable[[str], None],
) -> None:
    # A deferred constraint trigger runs at COMMIT: it holds the COMMIT open while the
    # connection is killed, the first time.
    await db_pg.write(
        lambda conn: conn.execute(
            """
            CREATE FUNCTION slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN PERFORM pg_sleep(1); RETURN NULL; END; $$;
            CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON venues
                DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION slow_commit();
            """
        )
    )

    def kill_during_commit(conn: Connection) -> None:
        pid = backend_pid(conn)

        def kill() -> None:
            threading.Event().wait(0.3)  # COMMIT is sent by then, and sleeping in the trigger
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))

        threading.Thread(target=kill).start()

    write = Write(kill_during_commit)
    assert await db_pg.write(write) == "written"
    assert write.runs == 2  # the server said the first had not committed: run again
    assert await venues(db_pg) == ["relconf"]
    checked("killed during COMMIT: pg_xact_status said aborted; retried, 1 row")


@pytest.mark.fault(PATH, "connection lost at COMMIT, server cannot say")
async def test_a_commit_nobody_can_confirm_is_reported_as_maybe_saved_not_retried(
    postgres_url: str,
    admin: psycopg.Connection[tuple[object, ...]],
    checked: Callable[[str], None],
) -> None:
    # The server cannot be reached to ask what became of the COMMIT: the store's connection
    # factory (its seam) refuses every new connection while `unreachable` is set.
    unreachable = threading.Event()

    def writer(url: str) -> psycopg.Connection[Row]:
        if unreachable.is_set():
            raise psycopg.OperationalError("connection refused")
        return connect_writer(url)

    def kill(conn: Connection) -> None:
        unreachable.set()
        admin.execute("SELECT pg_terminate_backend(%s)", (backend_pid(conn),))

    clock = SystemClock()
    async with await PostgresDatabase.connect(
        postgres_url, clock=clock, writer_factory=writer
    ) as db_pg:
        write = Write(kill)
        with pytest.raises(StoreError, match=r"while committing.*may or may not have been saved"):
            await db_pg.write(write)
        assert write.runs == 1  # never run twice when it may have been committed
        unreachable.clear()
        assert await db_pg.write(Write(lambda conn: None)) == "written"  # it reconnects
    checked("no answer on the outcome: not retried, said to be maybe saved; next write works")
