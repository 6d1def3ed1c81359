"""`python -m bot` is the same as the `laurel` command."""

import sys

from bot.cli import main

if __name__ == "__main__":
    sys.exit(main())
