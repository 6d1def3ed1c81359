"""BENCHMARKS.md's results come from one run: run_all rewrites the section between the markers
from that run's JSON only, and leaves the prose around it alone (benchmarks/results_md.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks import results_md

RUN = {
    "started": "2026-12-01T08:00:00+00:00",
    "ended": "2026-12-01T08:30:00+00:00",
    "argv": ["--papers", "2000"],
    "papers": 2000,
    "load": [3.0, 5.5, 4.0],
    "pending": ["digests"],
    "machine": {
        "platform": "Linux",
        "cpus": 2,
        "memory_gib": 23.5,
        "python": "3.11.7",
        "sqlite": "3.40.1",
    },
}


def _result(folder: Path, name: str, rows: list[list[str]]) -> None:
    document = {
        "benchmark": name,
        "measured_at": "2026-12-01T08:10:00+00:00",
        "machine": {"load_average_1_5_15": [4.0, 3.5, 3.0]},
        "rows": rows,
        "figures": {},
    }
    (folder / f"{name}.json").write_text(json.dumps(document), encoding="utf-8")


def test_the_section_between_the_markers_is_this_runs_and_nothing_else(tmp_path: Path) -> None:
    markdown = tmp_path / "BENCHMARKS.md"
    before, after = "# Benchmarks\n\nprose before\n\n", "\n\n### What the numbers say\n\nprose\n"
    stale = f"{results_md.BEGIN}\n| search p99 | 400 ms |\n{results_md.END}"
    markdown.write_text(before + stale + after, encoding="utf-8")
    _result(tmp_path, "search", [["tantivy: search p99", "5.0 ms"]])
    _result(tmp_path, "startup", [["ready", "900 ms"]])
    _result(tmp_path, "memory", [["Laurel", "80 MiB"]])  # an older run's: not asked for

    results_md.rewrite(markdown, RUN, tmp_path, ["search", "startup"])

    text = markdown.read_text(encoding="utf-8")
    assert text.startswith(before)
    assert text.endswith(after)
    assert "400 ms" not in text
    assert "80 MiB" not in text
    assert "| tantivy: search p99 | 5.0 ms |" in text
    assert "| ready | 900 ms |" in text
    assert "08:00–08:30 UTC" in text
    assert "`python -m benchmarks.run_all --papers 2000`" in text
    assert "3.0–5.5, median 4.0" in text
    assert "Not measured in this run (it was stopped first): `benchmarks.digests`" in text
    assert text.index("Search and per-command cost") < text.index("Cold start to ready")


def test_a_file_without_the_markers_is_refused_not_appended_to(tmp_path: Path) -> None:
    markdown = tmp_path / "BENCHMARKS.md"
    markdown.write_text("# Benchmarks\n", encoding="utf-8")
    _result(tmp_path, "search", [["x", "1"]])
    with pytest.raises(SystemExit, match="no results markers"):
        results_md.rewrite(markdown, RUN, tmp_path, ["search"])
    assert markdown.read_text(encoding="utf-8") == "# Benchmarks\n"
