import sys

from bot.catalog.bundle import main

sys.exit(main())
