"""The database the shard processes of one bot share in tests, on either backend (issue 15).

`shared_store` (parametrized: sqlite, postgresql) is a SQLite file copied from the template
that holds the bundled catalogue, or a PostgreSQL database copied from the template that holds
the same catalogue (`postgres_bundled`, loaded through the one write path). Each process of the
deployment opens its own connections to it; the tests read the ledger from outside.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import psycopg
import pytest

from bot.store.database import Database
from tests.support.backends import open_postgres, open_sqlite
from tests.support.postgres import Copies, PostgresServer


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
            return await open_sqlite(self.path, create=False)

        return await open_postgres(self.url, create=False)

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
    bundled: Copies = request.getfixturevalue("postgres_bundled")
    name = bundled.take()
    try:
        yield SharedStore(path, server.url(name))
    finally:
        server.drop_database(name)
