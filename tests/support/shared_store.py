"""The database the shard processes of one bot share in tests, on either backend (issue 15).

`shared_store` (parametrized: sqlite, postgresql) is a SQLite file copied from the template
with the bundled catalogue, or a PostgreSQL database holding the same catalogue.

The SQLite tests copy a template file that holds the bundled catalogue; the PostgreSQL tests of
the sharded bot copy a template database that holds the same rows, put there by this copy (COPY
per table, triggers off while it runs, identity sequences moved past the copied ids). It is a
fixture's shortcut, as copying the file is, not a way into a deployment's database: that is
`laurel db init` / `laurel db copy --to postgresql://…`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest
from psycopg import sql

from bot.store.database import SqliteDatabase
from bot.store.sql import Database
from tests.support.postgres import PostgresServer

# Parents before children (foreign keys), the audit with them: what `load_bundled_into` wrote.
CATALOGUE = (
    "venues",
    "editions",
    "papers",
    "paper_authors",
    "paper_affiliations",
    "awards",
    "audit",
    "bot_state",
    "removed_papers",
)


def copy_catalogue(sqlite_path: Path, url: str) -> dict[str, int]:
    """Copy the catalogue tables of the SQLite database at `sqlite_path` into the migrated,
    empty PostgreSQL database at `url`; the rows copied, by table."""
    copied: dict[str, int] = {}
    source_db = sqlite3.connect(f"file:{sqlite_path}?mode=ro", uri=True)
    with closing(source_db) as source, psycopg.connect(url) as target:
        # The audit's append-only triggers and the removal triggers stay out of a copy.
        target.execute("SET session_replication_role = replica")
        for table in CATALOGUE:
            cursor = source.execute(f"SELECT * FROM {table}")
            columns = [d[0] for d in cursor.description]
            statement = sql.SQL("COPY {} ({}) FROM STDIN").format(
                sql.Identifier(table), sql.SQL(", ").join(map(sql.Identifier, columns))
            )
            rows = cursor.fetchall()
            with target.cursor().copy(statement) as copy:
                for row in rows:
                    copy.write_row(row)
            copied[table] = len(rows)
        identities = target.execute(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE is_identity = 'YES' AND table_schema = 'public'"
        ).fetchall()
        for table, column in identities:
            target.execute(
                sql.SQL(
                    "SELECT setval(pg_get_serial_sequence({t}, {c}),"
                    " coalesce(max({ci}), 0) + 1, false) FROM {ti}"
                ).format(
                    t=sql.Literal(table),
                    c=sql.Literal(column),
                    ci=sql.Identifier(column),
                    ti=sql.Identifier(table),
                )
            )
    return copied


CATALOGUE_TEMPLATE = "laurel_catalogue_tpl"


@dataclass(frozen=True)
class SharedStore:
    """The one database the processes of a deployment share: a SQLite file or a PostgreSQL
    database, both holding the bundled catalogue. Each process opens its own connections."""

    path: Path
    url: str | None = None  # postgresql://…; None: the SQLite file at `path`

    @property
    def dialect(self) -> str:
        return "sqlite" if self.url is None else "postgresql"

    async def open(self) -> Database:
        if self.url is None:
            return await SqliteDatabase.open(self.path, create=False)
        from bot.store.postgres.database import PostgresDatabase

        return await PostgresDatabase.connect(self.url, create=False)

    def env(self) -> dict[str, str]:
        """How `laurel run` is told where it is (the path stays set: the URL wins over it)."""
        found = {"LAUREL_DATABASE__PATH": str(self.path)}
        return found if self.url is None else found | {"LAUREL_DATABASE__URL": self.url}

    def ledger(self) -> dict[int, tuple[str, str]]:
        """subscription id -> (nonce, status) of every ledger row, read from outside the bot."""
        query = "SELECT subscription_id, nonce, status FROM digest_ledger"
        if self.url is None:
            with closing(sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)) as conn:
                rows = conn.execute(query).fetchall()
        else:
            with psycopg.connect(self.url) as pg:
                rows = pg.execute(query).fetchall()
        return {int(sub): (str(nonce), str(status)) for sub, nonce, status in rows}


@pytest.fixture(scope="session")
def postgres_catalogue(
    postgres_server: PostgresServer, postgres_template: str, template_db: Path
) -> str:
    """A template database: the migrated schema and the bundled catalogue (`template_db`'s)."""
    postgres_server.create_database(template=postgres_template, name=CATALOGUE_TEMPLATE)
    copy_catalogue(template_db, postgres_server.url(CATALOGUE_TEMPLATE))
    with postgres_server.admin() as conn:
        conn.execute(
            sql.SQL("ALTER DATABASE {} IS_TEMPLATE true").format(sql.Identifier(CATALOGUE_TEMPLATE))
        )
    return CATALOGUE_TEMPLATE


@pytest.fixture(params=["sqlite", "postgresql"])
def shared_store(
    request: pytest.FixtureRequest, template_db: Path, tmp_path: Path
) -> Iterator[SharedStore]:
    """The deployment's database, once on each backend, with the bundled catalogue."""
    path = tmp_path / "laurel.db"
    if request.param == "sqlite":
        path.write_bytes(template_db.read_bytes())
        yield SharedStore(path)
        return
    server: PostgresServer = request.getfixturevalue("postgres_server")
    name = server.create_database(template=request.getfixturevalue("postgres_catalogue"))
    try:
        yield SharedStore(path, server.url(name))
    finally:
        server.drop_database(name)
