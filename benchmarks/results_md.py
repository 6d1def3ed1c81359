"""The results section of BENCHMARKS.md, written from one run's JSON (benchmarks/run_all.py).

Everything between BEGIN and END in BENCHMARKS.md is replaced: the machine and its load through
the run, then one table per benchmark, each with the time it finished. What the numbers say is
prose, written by a person after the run, outside the markers.
"""

from __future__ import annotations

import json
import statistics
from datetime import datetime
from pathlib import Path
from typing import Any

BEGIN = "<!-- results: written by `python -m benchmarks.run_all`; edits here are overwritten -->"
END = "<!-- end of results -->"
TITLES = {
    "interactions": "Command latency and interactions/s",
    "search": "Search and per-command cost, FTS5 and the derived index",
    "startup": "Cold start to ready",
    "memory": "Resident memory",
    "catalog": "Catalogue search and import",
    "digests": "Digest fan-out of 10,000 subscriptions",
    "curation_lag": "A curator's edit seen by another process, on PostgreSQL",
}
NOTES = {
    "interactions": "The lean stand-in in its own thread; the bot answers with the derived index"
    " (tantivy), ready before anything is timed.",
    "search": "The lean stand-in in its own thread: “CPU an answer” is the bot's (the process's"
    " CPU time less that thread's) and the stand-in's beside it.",
    "digests": "The lean stand-in in its own thread; “bot CPU” is the process's CPU time minus"
    " that thread's.",
    "curation_lag": "The bundled catalogue on an embedded PostgreSQL 18; a writer process edits"
    " through CatalogRepository, this one follows with the derived index.",
}


def load_line(samples: list[float]) -> str:
    if not samples:
        return "not sampled"
    return (
        f"{min(samples):.1f}–{max(samples):.1f}, median {statistics.median(samples):.1f}"
        f" (1-minute, sampled every 30 s, {len(samples)} samples)"
    )


def section(run: dict[str, Any], documents: list[dict[str, Any]]) -> str:
    """The Markdown between the markers: `run` says when, how and on what; `documents` are
    the benchmarks' JSON, in the order they ran."""
    machine = run["machine"]
    started = datetime.fromisoformat(run["started"])
    ended = datetime.fromisoformat(run["ended"])
    lines = [
        BEGIN,
        f"## Results ({run['papers']:,} papers)",
        "",
        f"Measured on {started:%Y-%m-%d}, {started:%H:%M}–{ended:%H:%M} UTC, in one"
        f" `{' '.join(['python -m benchmarks.run_all', *run['argv']])}`, on:",
        "",
        "| | |",
        "|---|---|",
        f"| platform | {machine['platform']} |",
        f"| CPUs (`os.cpu_count()`) | {machine['cpus']} |",
        f"| memory | {machine['memory_gib']} GiB |",
        f"| Python | {machine['python']} |",
        f"| SQLite | {machine['sqlite']} |",
        f"| load average during the run | {load_line(run['load'])} |",
        "",
    ]
    if run.get("pending"):
        names = ", ".join(f"`benchmarks.{name}`" for name in run["pending"])
        lines += [f"Not measured in this run (it was stopped first): {names}.", ""]
    for document in documents:
        name = document["benchmark"]
        load = " / ".join(f"{x:.2f}" for x in document["machine"]["load_average_1_5_15"])
        lines += [
            f"### {TITLES.get(name, name)} (`benchmarks.{name}`) ({document['measured_at']},"
            f" load average at its end {load})",
            "",
        ]
        if name in NOTES:
            lines += [NOTES[name], ""]
        lines += ["| figure | value |", "|---|---|"]
        lines += [f"| {label} | {value} |" for label, value in document["rows"]]
        lines.append("")
    lines.append(END)
    return "\n".join(lines)


def rewrite(markdown: Path, run: dict[str, Any], results: Path, names: list[str]) -> Path:
    """Replace the results section of `markdown` with this run's (the markers must be there)."""
    documents = [
        json.loads((results / f"{name}.json").read_text(encoding="utf-8")) for name in names
    ]
    text = markdown.read_text(encoding="utf-8")
    start, end = text.find(BEGIN), text.find(END)
    if start < 0 or end < start:
        raise SystemExit(f"{markdown}: no results markers ({BEGIN!r} … {END!r})")
    markdown.write_text(
        text[:start] + section(run, documents) + text[end + len(END) :], encoding="utf-8"
    )
    return markdown
