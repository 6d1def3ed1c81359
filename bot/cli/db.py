"""`laurel db …`: make, migrate, check and back up the database."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.cli import db_copy
from bot.cli.bookkeeping import render_bookkeeping
from bot.cli.catalog import render_links
from bot.cli.common import clock_of, open_database
from bot.errors import LaurelError
from bot.settings import Settings
from bot.store import migrations
from bot.store.backup_files import restore
from bot.store.catalog.links import LinkRepository
from bot.store.catalog.repository import CatalogRepository


def register(commands: Any) -> None:
    group = commands.add_parser("db", help="make, migrate, check or back up the database")
    actions = group.add_subparsers(dest="action", required=True, metavar="ACTION")
    init = actions.add_parser("init", help="make the database and load the bundled catalogue")
    init.set_defaults(handler=init_database)
    migrate = actions.add_parser("migrate", help="bring the schema up to date")
    migrate.set_defaults(handler=migrate_database)
    check = actions.add_parser("check", help="check integrity, foreign keys and schema version")
    check.add_argument(
        "--against",
        metavar="URL",
        help="also compare every table, row for row, with the database at URL "
        "(sqlite:///PATH or postgresql://…)",
    )
    check.set_defaults(handler=check_database)
    copy = actions.add_parser(
        "copy", help="copy the SQLite database into an empty PostgreSQL one, then verify it"
    )
    copy.add_argument("--to", required=True, metavar="URL", help="postgresql://… (empty)")
    copy.set_defaults(handler=db_copy.copy_database)
    backup = actions.add_parser("backup", help="copy the live database, checked, to a file")
    backup.add_argument("path", nargs="?", type=Path, help="default: a dated file in backup_dir")
    backup.set_defaults(handler=backup_database)
    restore = actions.add_parser(
        "restore", help="replace the database by a backup, checked first; the old one is kept"
    )
    restore.add_argument("file", type=Path, help="a backup made by `laurel db backup` or the bot")
    restore.add_argument("--yes", action="store_true", help="replace without asking")
    restore.set_defaults(handler=restore_database)


async def init_database(settings: Settings, args: argparse.Namespace) -> int:
    async with await open_database(settings, args) as db:
        plan = await load_bundled_into(CatalogParts.over(db, clock_of(args)))
    assert plan is not None
    print(f"{settings.database.target.shown()}: bundled catalogue loaded ({plan.summary()})")
    return 0


async def migrate_database(settings: Settings, args: argparse.Namespace) -> int:
    async with await open_database(settings, args, create=False) as db:
        version = await db.schema_version()
        # A new release's bundled records, without undoing what curators did (see bundled.py).
        plan = await load_bundled_into(CatalogParts.over(db, clock_of(args)), only_if_empty=True)
    print(f"{settings.database.target.shown()}: schema version {version}, up to date")
    if plan is not None:
        print(f"bundled catalogue brought up to date ({plan.summary()})")
    return 0


async def check_database(settings: Settings, args: argparse.Namespace) -> int:
    async with await open_database(settings, args, create=False) as db:
        problems = await db.integrity_check()
        version = await db.schema_version()
        links = await LinkRepository(db).coverage()
        catalogue = await CatalogRepository(db, clock_of(args)).export() if not problems else None
        where, latest = db.where, latest_version(db.dialect)
    for problem in problems:
        print(f"problem: {problem}")
    print(render_links(links, listed=10))  # a paper without a link is a gap, not a fault
    if catalogue is not None:  # what is unknown, where sources disagree: for curators
        print(render_bookkeeping(catalogue))
    print(f"{where}: schema {version}/{latest}, {len(problems)} problem(s)")
    code = 1 if problems else 0
    if args.against is not None:
        code = max(code, await db_copy.compare_databases(settings, args))
    return code


def latest_version(dialect: str) -> int:
    """The schema version this Laurel migrates a database of `dialect` to."""
    if dialect == "postgresql":
        from bot.store.postgres import migrate as postgresql  # psycopg: only when used

        return postgresql.latest()
    return migrations.available()[-1].version


async def backup_database(settings: Settings, args: argparse.Namespace) -> int:
    stamp = clock_of(args).now().strftime("%Y%m%dT%H%M%SZ")
    if settings.database.postgresql is not None:
        # Exit 1: no backup was made, and `laurel db backup && upload` must not go on as if.
        raise LaurelError(db_copy.use_pg_dump(settings.database.postgresql, stamp))
    target: Path = args.path or settings.database.backup_dir / f"laurel-{stamp}.db"
    async with await open_database(settings, args, create=False) as db:
        await db.backup(target)
    print(f"backed up {settings.database.path} to {target} (integrity checked)")
    return 0


async def restore_database(settings: Settings, args: argparse.Namespace) -> int:
    if settings.database.postgresql is not None:
        raise LaurelError(db_copy.use_pg_restore(settings.database.postgresql))
    database: Path = settings.database.path

    def confirm(version: int, papers: int) -> bool:
        print(f"{args.file}: checked, schema version {version}, {papers} papers")
        if args.yes:
            return True
        if not sys.stdin.isatty():
            raise LaurelError("not replacing the database without --yes (no terminal to ask)")
        answer = input(f"Replace {database} with it? The current one is kept aside. [y/N] ")
        return answer.strip().lower() in ("y", "yes")

    now = clock_of(args).now()
    # Sync file work (copy, check, rename) that must not interleave with anything: nothing else
    # runs in this process, so it needs no thread.
    restored = restore(args.file, database, confirm=confirm, now=now)
    if restored is None:
        print("nothing changed")
        return 1
    kept = f"; the previous one is kept at {restored.kept_aside}" if restored.kept_aside else ""
    print(f"restored {database} from {args.file}{kept}")
    return 0
