"""What every benchmark shares: the machine it ran on, and its results as JSON.

Each benchmark prints its summary rows and, with `--json PATH`, writes them with the raw figures
to PATH (benchmarks/run_all.py puts them under benchmarks/results/, which git ignores), so that
the chart and BENCHMARKS.md are drawn from what was measured, not copied by hand.
"""

from __future__ import annotations

import json
import os
import platform
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

Rows = list[tuple[str, str]]


def memory_total_gib() -> float:
    with open("/proc/meminfo", encoding="ascii") as meminfo:
        for line in meminfo:
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 2**20
    return float("nan")


def machine() -> dict[str, Any]:
    return {
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "memory_gib": round(memory_total_gib(), 1),
        "python": platform.python_version(),
        "sqlite": sqlite3.sqlite_version,
        # Other work on the machine skews absolute times (ratios measured in one run less so).
        "load_average_1_5_15": [round(x, 2) for x in os.getloadavg()],
    }


def machine_line() -> str:
    m = machine()
    return (f"{m['platform']} · Python {m['python']} · SQLite {m['sqlite']} · {m['cpus']} CPUs"
            f" · {m['memory_gib']} GiB")  # fmt: skip


def print_rows(rows: Rows) -> None:
    print("\nsummary")
    for label, value in rows:
        print(f"  {label:<48} {value}")


def save(path: Path | None, name: str, rows: Rows, figures: dict[str, Any]) -> None:
    """Write `rows` (as printed) and `figures` (raw numbers, for the chart) to `path`."""
    if path is None:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "benchmark": name,
        "measured_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "rows": [list(row) for row in rows],
        "figures": figures,
    }
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"results: {path}")
