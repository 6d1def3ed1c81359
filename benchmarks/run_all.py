"""Every benchmark in turn, then the chart: `python -m benchmarks.run_all [--papers N] [--db PATH]
[--results DIR] [--chart PATH] [--only NAME ...] [--quick]`.

Each benchmark runs in a fresh process (so none inherits another's memory or caches), one after
the other (so none competes with another for the CPUs), on one database file (`--db`, built by
the first that needs it). Its output is shown and kept as DIR/NAME.txt, its results as
DIR/NAME.json; the machine's load average is sampled every 30 s throughout. Then, from this
run's results only: benchmarks.chart draws the chart, DIR/summary.md gathers every benchmark's
summary rows, and a whole run (no --only, no --quick) rewrites the results section of
BENCHMARKS.md (`--markdown PATH` to write it anyway, or elsewhere). `--papers 2000 --quick`
checks the whole run in about two minutes.

A benchmark is a row of BENCHMARKS below.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from benchmarks import chart, results_md
from benchmarks.report import machine, machine_line

Argv = Callable[[argparse.Namespace], list[str]]
MARKDOWN = Path("BENCHMARKS.md")


def sized(args: argparse.Namespace) -> list[str]:
    return ["--papers", str(args.papers)]


def on_db(args: argparse.Namespace) -> list[str]:
    return [*sized(args), "--db", str(args.db)]


def unsized(args: argparse.Namespace) -> list[str]:
    return []


# name -> its arguments (besides --json); in the order they run.
BENCHMARKS: dict[str, Argv] = {
    "interactions": on_db,  # builds the database when it is missing
    "search": on_db,  # FTS5 against the derived index; per-command cost (issue 14)
    "startup": on_db,
    "memory": on_db,
    "catalog": sized,  # imports into a database of its own: the import is what it measures
    "digests": unsized,  # 10,000 subscriptions on the bundled catalogue: posts, not search
    "curation_lag": unsized,  # PostgreSQL: another process's edit seen by show and search
}
# --quick: fewer queries, seconds and repetitions, to check that everything runs.
QUICK = {
    "interactions": ["--queries", "30", "--seconds", "2"],
    "search": ["--queries", "30", "--commands", "20", "--seconds", "1"],
    "startup": ["--repeats", "2"],
    "memory": ["--guilds", "50", "--searches", "5", "--subscriptions", "500"],
    "catalog": ["--queries", "30"],
    "digests": ["--subs", "500", "--quiet", "3"],
    "curation_lag": ["--writes", "5", "--follow-seconds", "1"],
}


def run(name: str, argv: list[str], results: Path) -> None:
    command = [sys.executable, "-m", f"benchmarks.{name}", *argv]
    print(f"\n$ python -m benchmarks.{name} {' '.join(argv)}", flush=True)
    with (results / f"{name}.txt").open("w", encoding="utf-8") as log:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        assert process.stdout is not None
        for line in process.stdout:
            print(line, end="", flush=True)
            log.write(line)
        if process.wait():
            raise SystemExit(f"benchmarks.{name} failed ({process.returncode})")


class LoadSampler:
    """The 1-minute load average every `every` seconds, on a thread, until stopped."""

    def __init__(self, every: float = 30.0) -> None:
        self.samples: list[float] = []
        self._every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, name="load-sampler", daemon=True)

    def _sample(self) -> None:
        while True:
            self.samples.append(round(os.getloadavg()[0], 2))
            if self._stop.wait(self._every):
                return

    def __enter__(self) -> LoadSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def summary(results: Path, names: list[str]) -> Path:
    """Every benchmark's summary rows as Markdown tables, for BENCHMARKS.md."""
    lines = [f"Measured on: {machine_line()}", ""]
    for name in names:
        path = results / f"{name}.json"
        if not path.exists():
            continue
        document = json.loads(path.read_text(encoding="utf-8"))
        lines += [f"### {name} ({document['measured_at']})", "", "| figure | value |", "|---|---|"]
        lines += [f"| {label} | {value} |" for label, value in document["rows"]]
        lines.append("")
    out = results / "summary.md"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.run_all", description=__doc__)
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--db", type=Path, help="default: DIR/papers-N.db, kept for reruns")
    parser.add_argument("--results", type=Path, default=chart.RESULTS)
    parser.add_argument("--chart", type=Path, default=chart.CHART)
    parser.add_argument("--only", nargs="+", choices=list(BENCHMARKS), help="run only these")
    parser.add_argument("--quick", action="store_true", help="a check, not a measurement")
    parser.add_argument(
        "--markdown",
        type=Path,
        help="rewrite this file's results section (default: BENCHMARKS.md, on a whole run only)",
    )
    args = parser.parse_args(argv)
    args.results.mkdir(parents=True, exist_ok=True)
    args.db = args.db or args.results / f"papers-{args.papers}.db"
    names = args.only or list(BENCHMARKS)
    whole = not args.only and not args.quick
    markdown = args.markdown or (MARKDOWN if whole else None)
    print(f"machine: {machine_line()}")
    started = datetime.now(UTC)
    this_run = {
        "started": started.isoformat(timespec="seconds"),
        "argv": sys.argv[1:] if argv is None else argv,
        "papers": args.papers,
        "names": names,
        "machine": machine(),
    }
    done: list[str] = []
    with LoadSampler() as load:
        for name in names:
            argv_ = [*BENCHMARKS[name](args), *(QUICK[name] if args.quick else [])]
            run(name, [*argv_, "--json", str(args.results / f"{name}.json")], args.results)
            done.append(name)
            this_run |= {"ended": datetime.now(UTC).isoformat(timespec="seconds")}
            this_run |= {"load": list(load.samples), "pending": names[len(done) :]}
            # After each, so that a run cut short still shows and says its part.
            chart.draw(args.results, args.chart, done)
            if markdown is not None:
                results_md.rewrite(markdown, this_run, args.results, done)
    (args.results / "run.json").write_text(json.dumps(this_run, indent=2) + "\n", "utf-8")
    print(f"load average (1 min) through the run: {results_md.load_line(load.samples)}")
    print(f"chart: {chart.draw(args.results, args.chart, names)}")
    print(f"summary: {summary(args.results, names)}")
    if markdown is not None:
        print(f"results section: {markdown}")


if __name__ == "__main__":
    main()
