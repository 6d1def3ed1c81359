"""python -m laurel_console.localdiscord [--host H] [--port P] [--spec PATH]: serve until Ctrl-C."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from pathlib import Path

from laurel_console.localdiscord.server import serve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m laurel_console.localdiscord",
        description="Serve the loopback Discord stand-in on this machine until Ctrl-C.",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port")
    parser.add_argument(
        "--spec",
        type=Path,
        default=None,
        help="Discord's openapi.json, to check every request against it",
    )
    args = parser.parse_args(argv)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(args.host, args.port, spec_path=args.spec))


if __name__ == "__main__":
    main()
