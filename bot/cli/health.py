"""`laurel health`: ask the running bot whether it is live; the container's HEALTHCHECK.

Exit 0 when the bot reports healthy, 1 otherwise, with one line saying why either way. The
plain `laurel health` skips this module for bot.observability.probe (see bot/__main__.py); this
is the same check within the full command line (`laurel --help` lists it).
"""

from __future__ import annotations

import argparse
from typing import Any

from bot.observability.probe import probe
from bot.settings import Settings


def register(commands: Any) -> None:
    health = commands.add_parser(
        "health", help="ask the running bot whether it is live (exit 0) or not (exit 1)"
    )
    health.set_defaults(handler=check)


async def check(settings: Settings, args: argparse.Namespace) -> int:
    print(probe(settings))  # one short request: no need for the event loop's client
    return 0
