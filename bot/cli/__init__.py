"""The `laurel` command line: one module per group of subcommands, wired here."""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from bot import __version__
from bot.cli import catalog, console, db, enrich, health, localdiscord, run, sync
from bot.domain.clock import Clock, SystemClock
from bot.errors import LaurelError
from bot.settings import load_settings
from bot.store.errors import describe_os_error, refused, sqlite_reason


def build_parser(clock: Clock | None = None) -> argparse.ArgumentParser:
    """The command line; every subcommand reads time from `clock` (one SystemClock by default)."""
    parser = argparse.ArgumentParser(
        prog="laurel", description="Laurel: a Discord bot about award-winning research papers."
    )
    parser.set_defaults(clock=clock or SystemClock())  # bot.cli.common.clock_of reads it
    parser.add_argument("--version", action="version", version=f"laurel {__version__}")
    parser.add_argument(
        "--config", type=Path, help="settings file (default: $LAUREL_CONFIG, else ./laurel.toml)"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    db.register(commands)
    catalog.register(commands)
    run.register(commands)
    console.register(commands)
    localdiscord.register(commands)
    health.register(commands)
    enrich.register(commands)
    sync.register(commands)
    return parser


def main(argv: Sequence[str] | None = None, *, clock: Clock | None = None) -> int:
    args = build_parser(clock).parse_args(argv)
    try:
        settings = load_settings(args.config)
        code: int = asyncio.run(args.handler(settings, args))
    except LaurelError as exc:
        print(f"laurel: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("laurel: interrupted; nothing was half-written", file=sys.stderr)
        return 130
    except (OSError, sqlite3.OperationalError) as exc:
        # The machine said no (disk full, read-only, permissions, a device error): a cause
        # outside the program, so one line, not a traceback.
        print(f"laurel: {outside_cause(exc)}", file=sys.stderr)
        return 1
    except sqlite3.DatabaseError as exc:
        if type(exc) is not sqlite3.DatabaseError:  # an IntegrityError, a ProgrammingError: bugs
            raise
        print(f"laurel: the database cannot be used: {exc}", file=sys.stderr)
        return 1
    return code


def outside_cause(exc: OSError | sqlite3.OperationalError) -> str:
    if isinstance(exc, OSError):
        return describe_os_error(exc)
    if (error := refused(exc)) is not None:
        return str(error)
    return f"the database could not be used: {sqlite_reason(exc)}"
