import sys

from tools.bundle import main

sys.exit(main())
