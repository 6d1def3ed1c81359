"""`laurel console`, `laurel localdiscord`, `laurel localarxiv`: the bot against stand-ins on
127.0.0.1, and the stand-ins alone.

Their code is the `laurel_console` package, beside `bot`, and what only it needs is the
`console` extra: this module declares the arguments and imports `laurel_console.cli` only when
one of these commands runs, after checking that the extra is installed (one line saying how to
install it, if not).
"""

from __future__ import annotations

import argparse
import importlib
import math
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from bot.cli.common import clock_of, open_database
from bot.errors import LaurelError
from bot.settings import Settings

Handler = Callable[[Settings, argparse.Namespace], Awaitable[int]]


def register(commands: Any) -> None:
    _console(commands)
    localdiscord = commands.add_parser(
        "localdiscord", help="serve a stand-in for Discord on this machine, until Ctrl-C"
    )
    localdiscord.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1")
    localdiscord.add_argument("--port", type=_port, default=0, help="default: any free port")
    localdiscord.add_argument(
        "--spec", type=Path, help="Discord's openapi.json: check every request"
    )
    localdiscord.set_defaults(handler=_deferred("localdiscord", "serve_localdiscord"))
    localarxiv = commands.add_parser(
        "localarxiv", help="serve a stand-in for the arXiv API on this machine, until Ctrl-C"
    )
    localarxiv.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1")
    localarxiv.add_argument("--port", type=_port, default=0, help="default: any free port")
    localarxiv.add_argument(
        "--recordings",
        type=Path,
        help="the recorded replies (default: those a development checkout keeps beside it)",
    )
    localarxiv.add_argument(
        "--synthesize",
        action="store_true",
        help="answer ids no recording has with made-up entries (marked as such)",
    )
    localarxiv.set_defaults(handler=_deferred("localarxiv", "serve_localarxiv"))


def _console(commands: Any) -> None:
    console = commands.add_parser(
        "console",
        help="try Laurel in this terminal, on a local stand-in for Discord",
        description="Run Laurel against a Discord stand-in on 127.0.0.1 and type slash "
        "commands as in Discord (/about, /help); `help` at the prompt lists the rest.",
    )
    console.add_argument(
        "-c",
        "--command",
        dest="lines",
        action="append",
        metavar="LINE",
        help='run LINE (e.g. "/about") and exit instead of prompting; repeat to run several',
    )
    console.add_argument(
        "--json", action="store_true", help="print the JSON the bot sent instead of drawing it"
    )
    console.add_argument(
        "--locale",
        type=_locale,
        default="en-US",
        help="your Discord language: en-US (default), zh-TW or zh-CN",
    )
    console.add_argument(
        "--attachments",
        type=Path,
        metavar="DIR",
        help="where files the bot sends are saved (default: a new folder in the temp dir)",
    )
    console.add_argument(
        "--spec",
        type=Path,
        metavar="PATH",
        help="Discord's openapi.json: check every request the bot makes against it",
    )
    console.add_argument(
        "--timeout",
        type=_seconds,
        default=60.0,
        metavar="SECONDS",
        help="how long to wait for a deferred answer (default: 60)",
    )
    console.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="show the bot's log at the configured level (default: warnings and errors only)",
    )
    console.set_defaults(handler=_deferred("console", "run_console"))


def console_cli(command: str) -> ModuleType:
    """`laurel_console.cli`, or a LaurelError saying how to install what `command` needs."""
    try:
        import laurel_console
    except ImportError:
        raise LaurelError(
            f"`laurel {command}` needs the laurel_console package, which this installation "
            "leaves out (as the image does): install Laurel from its source with the console "
            "extra, pip install -e '.[console]'"
        ) from None
    if missing := laurel_console.missing():
        raise LaurelError(
            f"`laurel {command}` needs the console extra ({', '.join(missing)} not installed): "
            f"{laurel_console.INSTALL}"
        )
    return importlib.import_module("laurel_console.cli")


def _deferred(command: str, name: str) -> Handler:
    """The handler that loads laurel_console.cli and runs `name`, handing in what it needs from
    the command line (it never imports bot.cli)."""

    async def handler(settings: Settings, args: argparse.Namespace) -> int:
        module = console_cli(command)
        given = module.Given(
            open_database=lambda: open_database(settings, args), clock=clock_of(args)
        )
        run: Callable[..., Awaitable[int]] = getattr(module, name)
        return await run(settings, args, given)

    return handler


def _locale(value: str) -> str:
    """Checked by the console's own rule; left as it is where the console cannot run, for the
    command to say what to install before anything reads it."""
    try:
        import laurel_console
    except ImportError:
        return value
    if laurel_console.missing():
        return value
    from laurel_console.cli import canonical_console_locale

    return canonical_console_locale(value)


def _port(text: str) -> int:
    """A TCP port, 0 for any free one (past 65535, binding raised OverflowError: a traceback)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0 to 65535 (0: any free one), not {value}")
    return value


def _seconds(text: str) -> float:
    """A wait in seconds: more than 0 and finite."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be more than 0 seconds, not {text}")
    return value
