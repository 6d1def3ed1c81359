"""The bundled catalogue in a PostgreSQL test database, copied from a SQLite one (issue 15).

The SQLite tests copy a template file that holds the bundled catalogue; the PostgreSQL tests of
the sharded bot copy a template database that holds the same rows, put there by this copy (COPY
per table, triggers off while it runs, identity sequences moved past the copied ids). It is a
fixture's shortcut, as copying the file is, not a way into a deployment's database: that is
`laurel db init` / `laurel db copy --to postgresql://…`.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import psycopg
from psycopg import sql

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
