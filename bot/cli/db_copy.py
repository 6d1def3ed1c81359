"""`laurel db copy --to postgresql://…` and `laurel db check --against URL`: move a deployment
from SQLite to PostgreSQL, and prove two databases hold the same rows (issue 15).

Both print one line per table — its rows and the start of its sha256 on each side — and exit 1
on any difference, naming the table.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from pydantic import ValidationError

from bot.cli.common import clock_of, open_database
from bot.dburl import shown
from bot.errors import LaurelError
from bot.settings import DatabaseSettings, Settings
from bot.store import backends
from bot.store.copy import copy_into, mismatches, read_snapshot
from bot.store.database import Database
from bot.store.table_digests import Table, TableDigest, digests, sqlite_tables

POSTGRESQL_SCHEMES = ("postgresql://", "postgres://")


async def copy_database(settings: Settings, args: argparse.Namespace) -> int:
    """Copy the SQLite database the settings name into the empty PostgreSQL one at `--to`,
    then compare every table on both sides."""
    url: str = args.to
    if not url.startswith(POSTGRESQL_SCHEMES):
        # Not repeated past its scheme: the rest may hold a password.
        scheme = url.partition("://")[0][:20] + "://" if "://" in url else "no scheme"
        raise LaurelError(
            f"laurel db copy --to: not a postgresql:// URL ({scheme}…); the copy goes from "
            "SQLite into an empty PostgreSQL database"
        )
    async with await open_database(settings, args, create=False) as source:
        if source.dialect != "sqlite":
            raise LaurelError(
                f"laurel db copy copies a SQLite database; [database] names {source.where}"
            )
        snapshot = await source.snapshot(read_snapshot)
        where_from = source.where
    async with await _open_url(url, settings, args) as target:
        copied = await target.write(lambda conn: copy_into(conn, snapshot))
        theirs = await target.snapshot(lambda conn: digests(conn, snapshot.tables))
        where_to = target.where
    print(f"copied {copied} rows of {len(snapshot.tables)} tables from {where_from} to {where_to}")
    return report(snapshot.digests(), theirs, ("sqlite", "postgresql"))


async def compare_databases(settings: Settings, args: argparse.Namespace) -> int:
    """`laurel db check --against URL`: the database the settings name against another, table
    by table (one of the two a SQLite database, whose schema says which tables there are)."""
    async with (
        await open_database(settings, args, create=False) as mine,
        await _open_url(args.against, settings, args, create=False) as other,
    ):
        sqlite = next((db for db in (mine, other) if db.dialect == "sqlite"), None)
        if sqlite is None:
            raise LaurelError(
                "laurel db check --against needs a SQLite database on one side (its schema "
                "says which tables to compare): [database] or --against sqlite:///PATH"
            )
        tables = await sqlite.snapshot(sqlite_tables)
        ours = await _digests(mine, tables)
        theirs = await _digests(other, tables)
        labels = (mine.where, other.where)
    print(f"comparing {labels[0]} with {labels[1]}")
    return report(ours, theirs, ("this", "other"))


async def _open_url(
    url: str, settings: Settings, args: argparse.Namespace, *, create: bool = True
) -> Database:
    """The database at `url`, opened as the settings' own would be (busy timeout, clock)."""
    try:
        where = DatabaseSettings.model_validate({**settings.database.model_dump(), "url": url})
    except ValidationError as exc:
        reason = exc.errors(include_url=False)[0]["msg"].removeprefix("Value error, ")
        raise LaurelError(f"laurel db: {reason}") from None
    return await backends.open_database(
        where.target, clock=clock_of(args), create=create, busy_timeout_ms=where.busy_timeout_ms
    )


async def _digests(db: Database, tables: Sequence[Table]) -> list[TableDigest]:
    return await db.snapshot(lambda conn: digests(conn, tables))


def report(
    ours: Sequence[TableDigest], theirs: Sequence[TableDigest], sides: tuple[str, str]
) -> int:
    print(render(ours, theirs, sides))
    problems = mismatches(ours, theirs)
    for problem in problems:
        print(f"mismatch: {problem}")
    rows = sum(d.rows for d in ours)
    if problems:
        print(f"{len(problems)} of {len(ours)} tables differ")
        return 1
    print(f"all {len(ours)} tables equal ({rows} rows): counts and sha256 match")
    return 0


def render(
    ours: Sequence[TableDigest], theirs: Sequence[TableDigest], sides: tuple[str, str]
) -> str:
    """One line per table: rows and sha256 (its first 12 hex digits) on each side."""
    other = {d.table: d for d in theirs}
    width = max([len("table"), *(len(d.table) for d in ours)])
    a, b = sides
    lines = [_line(width, "table", f"{a} rows", f"{b} rows", f"{a} sha256", f"{b} sha256", "")]
    for mine in ours:
        found = other.get(mine.table)
        lines.append(
            _line(
                width,
                mine.table,
                str(mine.rows),
                "-" if found is None else str(found.rows),
                mine.sha256[:12],
                "-" if found is None else found.sha256[:12],
                "same" if found == mine else "DIFFERENT",
            )
        )
    return "\n".join(lines)


def _line(width: int, table: str, *cells: str) -> str:
    rows_a, rows_b, sha_a, sha_b, verdict = cells
    line = f"{table:<{width}}  {rows_a:>15}  {rows_b:>15}  {sha_a:<17}  {sha_b:<17}  {verdict}"
    return line.rstrip()


def use_pg_dump(url: str, stamp: str) -> str:
    """What `laurel db backup` answers on PostgreSQL, in one line."""
    return (
        "on PostgreSQL, backups are PostgreSQL's own: run `pg_dump --format=custom "
        f"--file=laurel-{stamp}.dump '{shown(url)}'` (pg_restore brings one back); "
        "`laurel db backup` copies SQLite databases only. No backup was made"
    )


def use_pg_restore(url: str) -> str:
    """What `laurel db restore` answers on PostgreSQL, in one line."""
    return (
        "on PostgreSQL, restores are PostgreSQL's own: `pg_restore --clean --if-exists "
        f"--dbname='{shown(url)}' FILE.dump` (from a pg_dump --format=custom); "
        "`laurel db restore` replaces SQLite databases only. Nothing was changed"
    )
