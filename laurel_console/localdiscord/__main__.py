"""python -m laurel_console.localdiscord [--host H] [--port P] [--spec PATH] [--guilds N]
[--shards N] [--max-concurrency N]: serve until Ctrl-C."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
from pathlib import Path

from laurel_console.localdiscord.config import Config
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
    parser.add_argument(
        "--guilds", type=int, default=0, help="this many more guilds, spread over the shards"
    )
    parser.add_argument(
        "--shards", type=int, default=1, help="the shard count GET /gateway/bot recommends"
    )
    parser.add_argument(
        "--max-concurrency", type=int, default=1, help="IDENTIFYs allowed at once (announced)"
    )
    args = parser.parse_args(argv)
    if args.guilds < 0 or args.shards < 1 or args.max_concurrency < 1:
        parser.error("--guilds must be >= 0, --shards and --max-concurrency >= 1")
    config = Config(recommended_shards=args.shards, max_concurrency=args.max_concurrency)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(
            serve(args.host, args.port, spec_path=args.spec, config=config, guilds=args.guilds)
        )


if __name__ == "__main__":
    main()
