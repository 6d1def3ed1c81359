"""Numbered, forward-only migrations on PostgreSQL: `migrations_pg/NNNN_name.sql`, the version
in the table `schema_version`.

Every process migrates at start; `pg_advisory_xact_lock` makes the second of two starting at
once wait for the first and then find nothing left to do. DDL is transactional on PostgreSQL:
all pending migrations and the new version are committed together, or none.
"""

from __future__ import annotations

import psycopg

from bot.errors import StoreError
from bot.store.migrations import Migration, available
from bot.store.postgres.rows import Row
from bot.store.sql import Connection

FOLDER = "migrations_pg"
# The advisory lock key of migrating (any constant: it names the lock for all Laurels).
MIGRATE_LOCK = 0x4C61_7572_656C_0001  # "Laurel", 1


def latest() -> int:
    return available(FOLDER)[-1].version


def current_version(conn: psycopg.Connection[Row]) -> int:
    """The schema version, 0 where Laurel has made nothing yet."""
    made = conn.execute("SELECT to_regclass('schema_version') IS NOT NULL").fetchone()
    if made is None or not made[0]:
        return 0
    row = conn.execute("SELECT max(version) FROM schema_version").fetchone()
    return int(row[0]) if row is not None and row[0] is not None else 0


def refuse_newer(version: int) -> None:
    if version > latest():
        raise StoreError(
            f"the database is at schema version {version}, newer than this Laurel knows "
            f"({latest()}): upgrade Laurel"
        )


def migrate(conn: psycopg.Connection[Row]) -> list[Migration]:
    """Bring the schema up to date on `conn` (autocommit); return what was applied."""
    migrations = available(FOLDER)
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATE_LOCK,))
        version = current_version(conn)
        refuse_newer(version)
        pending = [m for m in migrations if m.version > version]
        if not pending:
            return []
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT PRIMARY KEY)")
        for migration in pending:
            try:
                with conn.transaction():  # a savepoint: the failing migration is named
                    conn.execute(migration.sql.encode())
            except psycopg.Error as exc:
                raise StoreError(f"migration {migration.name} failed: {exc}") from exc
        conn.execute("DELETE FROM schema_version")
        conn.execute("INSERT INTO schema_version (version) VALUES (%s)", (pending[-1].version,))
    return pending


def problems(conn: Connection) -> list[str]:
    """What PostgreSQL can say of the database: its schema version against this Laurel's
    migrations, and constraints not validated (pages and foreign keys it keeps itself)."""
    problems = []
    version = int(conn.execute("SELECT max(version) FROM schema_version").fetchone()[0] or 0)
    known = [m.version for m in available(FOLDER)]
    if version > known[-1]:
        problems.append(f"schema version {version} is newer than this Laurel knows ({known[-1]})")
    elif version < known[-1]:
        pending = ", ".join(f"{v:04d}" for v in known if v > version)
        problems.append(f"schema version {version}: migrations {pending} not applied")
    for row in conn.execute(
        "SELECT conrelid::regclass::text, conname FROM pg_constraint WHERE NOT convalidated"
    ):
        problems.append(f"{row[0]}: constraint {row[1]} is not validated")
    return problems
