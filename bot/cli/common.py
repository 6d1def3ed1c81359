"""What every `laurel` subcommand gets from the command line's composition root: the run's one
clock, and the database opened as the settings say (backend and busy timeout included)."""

from __future__ import annotations

import argparse

from bot.domain.clock import Clock
from bot.settings import Settings
from bot.store import backends
from bot.store.database import Database


def clock_of(args: argparse.Namespace) -> Clock:
    """The run's clock: made once by `bot.cli.main` (a test hands its own to `main_on`)."""
    clock: Clock = args.clock
    return clock


async def open_database(
    settings: Settings, args: argparse.Namespace, *, create: bool = True
) -> Database:
    """The database at [database] url (SQLite or PostgreSQL), else [database] path, waiting
    [database] busy_timeout_ms for a lock."""
    return await backends.open_database(
        settings.database.target,
        clock=clock_of(args),
        create=create,
        busy_timeout_ms=settings.database.busy_timeout_ms,
    )
