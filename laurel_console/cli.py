"""What `laurel console`, `laurel localdiscord` and `laurel localarxiv` run (their arguments are
in bot/cli/standins.py, which imports this module only when one of them runs).

`laurel console`: Laurel in this terminal, against a Discord stand-in on 127.0.0.1. The bot is
the real one, on the configured database, holding the same single-instance lock as `laurel run`;
only Discord is local. Type slash commands as in Discord, or run one with -c.

`laurel localdiscord`: the loopback Discord stand-in as a process of its own. A bot started with
`laurel run` and pointed at it (LAUREL_DISCORD__API_BASE_URL) can be killed and restarted while
the stand-in keeps its record of everything the bot sent.

`laurel localarxiv`: the arXiv API stand-in, answering from recorded replies.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import shutil
import sys
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.domain.clock import Clock
from bot.errors import LaurelError
from bot.logs import configure_logging
from bot.settings import LoggingSettings, Settings
from bot.store.database import Database
from bot.store.lock import InstanceLock
from laurel_console.harness import laurel_on
from laurel_console.localarxiv.recordings import RECORDINGS
from laurel_console.localarxiv.server import LocalArxiv
from laurel_console.localarxiv.server import serve as serve_arxiv
from laurel_console.localdiscord.console import AttachmentSaver, Console, canonical_locale
from laurel_console.localdiscord.console_complete import console_completer, install_readline
from laurel_console.localdiscord.console_parse import CommandLineError
from laurel_console.localdiscord.console_repl import PROMPT, Display, Reader, Repl, run_lines
from laurel_console.localdiscord.limits import SpecValidatorProtocol
from laurel_console.localdiscord.server import LocalDiscord
from laurel_console.localdiscord.server import serve as serve_discord

MIN_WIDTH, MAX_WIDTH = 24, 100  # at most about as wide as Discord draws an embed


@dataclass(frozen=True, slots=True)
class Given:
    """What the command line that loads this module hands in (laurel_console depends on bot,
    never on the bot.cli that loads it): the configured database, opened when called, and the
    run's clock."""

    open_database: Callable[[], Awaitable[Database]]
    clock: Clock


def canonical_console_locale(value: str) -> str:
    """`--locale`'s value as Discord spells it (argparse's type, via bot/cli/standins.py)."""
    try:
        return canonical_locale(value)
    except CommandLineError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


async def run_console(settings: Settings, args: argparse.Namespace, given: Given) -> int:
    validator = _validator(args.spec)
    path = settings.database.path
    with _logging(settings.logging, verbose=args.verbose), InstanceLock(path):
        async with await given.open_database() as db:
            await load_bundled_into(CatalogParts.over(db, given.clock), only_if_empty=True)
            async with (
                LocalDiscord(validator=validator) as server,
                _local_arxiv() as arxiv,
                laurel_on(server, db, _offline(settings, arxiv.url), clock=given.clock),
            ):
                display = Display(
                    sys.stdout,
                    sys.stderr,
                    width=max(MIN_WIDTH, min(shutil.get_terminal_size().columns, MAX_WIDTH)),
                    colour=sys.stdout.isatty() and not os.environ.get("NO_COLOR"),
                    json=args.json,
                    saver=AttachmentSaver(server.attachment_bytes, args.attachments),
                )
                console = Console(
                    server, locale=args.locale, timeout=args.timeout, notify=display.note
                )
                if args.lines:
                    return await run_lines(console, display, args.lines)
                display.note(
                    f"Laurel is on a local Discord at {server.base_url}, with the database "
                    f"{path}. Type /about, help, or quit."
                )
                return await _interactive(console, display)


async def _interactive(console: Console, display: Display) -> int:
    if not sys.stdin.isatty():
        return await Repl(console, display, _echoing_reader(sys.stdin, display.out)).run()
    install_readline(console_completer(console, asyncio.get_running_loop()), PROMPT)
    with _terminal_restored():
        try:
            return await Repl(console, display, input).run()
        except asyncio.CancelledError:  # Ctrl-C: end the half-typed line before the goodbye
            display.say("")
            raise


def _echoing_reader(stream: TextIO, out: TextIO) -> Reader:
    """Lines from a pipe, echoed after their prompt so that the output reads as a session."""

    def read(prompt: str) -> str:
        line = stream.readline()
        if not line:
            raise EOFError
        out.write(prompt + line if line.endswith("\n") else f"{prompt}{line}\n")
        return line.rstrip("\n")

    return read


@contextlib.contextmanager
def _terminal_restored() -> Iterator[None]:
    """Put the terminal back as it was: Ctrl-C ends the console while readline, in the reading
    thread, still has the terminal in its own mode."""
    try:
        import termios
    except ImportError:
        yield
        return
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        yield
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _validator(path: Path | None) -> SpecValidatorProtocol | None:
    if path is None:
        return None
    from laurel_console.localdiscord.spec import SpecValidator

    try:
        return SpecValidator.from_file(path)
    except OSError as exc:
        raise LaurelError(f"cannot read the OpenAPI spec {path}: {exc.strerror}") from None
    except (ValueError, KeyError, TypeError) as exc:  # not JSON, or JSON of another shape
        raise LaurelError(f"{path} is not Discord's OpenAPI spec: {exc}") from None


class _NoVoice(logging.Filter):
    """discord.py warns at every start that voice needs extra packages; Laurel has no voice."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


def _local_arxiv() -> LocalArxiv:
    """arXiv on this machine too: recorded replies where ../shared has them, made-up (and
    marked) entries for other ids, so /curate paper add works with no network."""
    return LocalArxiv(RECORDINGS if RECORDINGS.is_dir() else None, synthesize=True)


def _offline(settings: Settings, arxiv_url: str) -> Settings:
    return settings.model_copy(
        update={"arxiv": settings.arxiv.model_copy(update={"base_url": arxiv_url})}
    )


@contextlib.contextmanager
def _logging(settings: LoggingSettings, *, verbose: bool) -> Iterator[None]:
    """The bot's log on stderr, warnings and errors only unless verbose; put back after, so
    that running the console in-process (as the tests do) leaves logging as it found it."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    configure_logging(settings if verbose else settings.model_copy(update={"level": "WARNING"}))
    for handler in root.handlers:
        handler.addFilter(_NoVoice())
    try:
        yield
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


async def serve_localdiscord(settings: Settings, args: argparse.Namespace, given: Given) -> int:
    # Loaded here, as the console loads it: a file that is no spec is one line, not a traceback.
    validator = _validator(args.spec)
    await serve_discord(args.host, args.port, spec_path=args.spec, validator=validator)
    return 0


async def serve_localarxiv(settings: Settings, args: argparse.Namespace, given: Given) -> int:
    recordings = _recordings(args.recordings or RECORDINGS, synthesize=args.synthesize)
    await serve_arxiv(recordings, args.host, args.port, synthesize=args.synthesize)
    return 0


def _recordings(folder: Path, *, synthesize: bool) -> Path | None:
    if folder.is_dir():
        return folder
    if synthesize:
        return None  # made-up entries only: still enough to try `laurel enrich`
    raise LaurelError(f"no recorded arXiv replies at {folder} (see --recordings, --synthesize)")
