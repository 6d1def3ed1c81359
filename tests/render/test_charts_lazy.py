"""matplotlib is imported by the first chart, not by starting the bot (half its import time)."""

from __future__ import annotations

import subprocess
import sys

# A fresh interpreter: this test process has long imported matplotlib through other tests.
PROBE = """
import sys
import bot.app, bot.cli, bot.commands.registry, bot.digests.content, bot.render.stats
print("before", any(name.split(".")[0] == "matplotlib" for name in sys.modules))
from bot.render.chart_labels import ChartLabels
from bot.render.charts import TrendPoint, trend_chart
png = trend_chart(ChartLabels("t"), [TrendPoint(2024, 10, 3)])
print("after", "matplotlib.figure" in sys.modules, png[:4] == b"\\x89PNG")
"""


def test_matplotlib_is_imported_by_the_first_chart_not_by_the_bot() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.split() == ["before", "False", "after", "True", "True"]
