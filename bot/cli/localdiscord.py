"""`laurel localdiscord`: the loopback Discord stand-in as a process of its own.

A bot started with `laurel run` and pointed at it (LAUREL_DISCORD__API_BASE_URL) can be killed
and restarted while the stand-in keeps its record of everything the bot sent.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from bot.settings import Settings
from laurel_console.localdiscord.server import serve


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "localdiscord", help="serve a stand-in for Discord on this machine, until Ctrl-C"
    )
    parser.add_argument("--host", default="127.0.0.1", help="default: 127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="default: any free port")
    parser.add_argument("--spec", type=Path, help="Discord's openapi.json: check every request")
    parser.set_defaults(handler=serve_localdiscord)


async def serve_localdiscord(settings: Settings, args: argparse.Namespace) -> int:
    await serve(args.host, args.port, spec_path=args.spec)
    return 0
