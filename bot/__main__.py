"""`python -m bot` is the same as the `laurel` command."""

import sys
from collections.abc import Sequence

from bot.observability.probe import is_health_command
from bot.observability.probe import main as health


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    # The container's health check runs every 30 s: answer it without importing the whole bot
    # (discord.py, matplotlib, every command) — bot.observability.probe needs none of it.
    if is_health_command(args):
        return health(args)
    from bot.cli import main as full

    return full(args)


if __name__ == "__main__":
    sys.exit(main())
