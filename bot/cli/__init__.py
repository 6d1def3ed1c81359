"""The `laurel` command line: one module per group of subcommands, wired here.

Only the module of the subcommand being run is imported (`laurel db init` needs neither
discord.py nor the bot's commands, and `laurel run` none of the stand-ins): COMMANDS says which
module declares each subcommand; `laurel --help`, or a name that is none of them, imports all.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sqlite3
import sys
from collections.abc import Sequence
from pathlib import Path

from bot import __version__
from bot.domain.clock import Clock, SystemClock
from bot.errors import LaurelError
from bot.settings import load_settings
from bot.store.errors import describe_os_error, refused, sqlite_reason

# Subcommand -> the module under bot.cli that registers it (tests/cli/test_lazy_cli.py checks
# this against what the modules register).
COMMANDS = {
    "db": "db",
    "import": "catalog",
    "export": "catalog",
    "stats": "catalog",
    "run": "run",
    "console": "standins",
    "localdiscord": "standins",
    "localarxiv": "standins",
    "health": "health",
    "enrich": "enrich",
    "sync": "sync",
}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser, with only the subcommand module `argv` names (all of them without `argv`, or
    when it names none)."""
    parser = argparse.ArgumentParser(
        prog="laurel", description="Laurel: a Discord bot about award-winning research papers."
    )
    parser.add_argument("--version", action="version", version=f"laurel {__version__}")
    parser.add_argument(
        "--config", type=Path, help="settings file (default: $LAUREL_CONFIG, else ./laurel.toml)"
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    named = COMMANDS.get(_command(argv)) if argv is not None else None
    for name in [named] if named else dict.fromkeys(COMMANDS.values()):
        importlib.import_module(f"bot.cli.{name}").register(commands)
    return parser


def _command(argv: Sequence[str]) -> str:
    """The subcommand's name in `argv`: its first word that is neither an option nor the value
    of --config."""
    words = iter(argv)
    for word in words:
        if word == "--config":
            next(words, None)
        elif not word.startswith("-"):
            return word
    return ""


def parse(argv: Sequence[str], clock: Clock) -> argparse.Namespace:
    """`argv` read, with the run's one clock beside it (`bot.cli.common.clock_of` reads it):
    every subcommand reads time from `clock`."""
    args = build_parser(argv).parse_args(argv)
    args.clock = clock
    return args


def main(argv: Sequence[str] | None = None) -> int:
    """The `laurel` command: the composition root of a command-line run, where its one clock
    is made."""
    return main_on(sys.argv[1:] if argv is None else list(argv), SystemClock())


def main_on(argv: Sequence[str], clock: Clock) -> int:
    """`laurel` on `argv`, reading time from `clock` (a test hands in a ManualClock)."""
    args = parse(argv, clock)
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
