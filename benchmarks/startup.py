"""Cold start to ready: `python -m benchmarks.startup [--papers N] [--db PATH] [--repeats R]
[--json PATH]`.

Each start is a fresh process (benchmarks/child.py), timed from exec to on_ready against a
LocalDiscord in this process: Laurel on a database of N synthetic papers, Laurel on the bundled
catalogue alone, the floor (a bare discord.py Client on the same stand-in), and Laurel on the N
papers importing matplotlib up front as it did before charts imported it lazily (the "before" of
that change, next to its "after" in the same run: benchmarks/child.py `laurel-eager`). The
variants take turns within each repetition and the medians are compared in one run. The first
start of each
is reported apart: it also syncs the command tree (later starts find it unchanged) and warms the
OS page cache, which later starts then find warm — so "cold" means a new process, not an empty
page cache. `--papers 2000` is a check in seconds; `--db PATH` reuses one database file (the
one benchmarks.interactions and benchmarks.memory build).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from pathlib import Path

from benchmarks.catalog import as_ratio
from benchmarks.processes import HOUR_MS, bundled_database, count_papers, database, start_child
from benchmarks.report import Rows, machine_line, print_rows, save
from laurel_console.localdiscord.config import Config
from laurel_console.localdiscord.server import LocalDiscord

PHASES = ("imported", "database", "ready")


def median(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


async def measure(
    big: Path, small: Path, repeats: int, other: Path | None = None
) -> dict[str, dict[str, list[float]]]:
    """ms from exec to each phase, per variant; key "first" holds each variant's first start.

    `other`: another checkout of Laurel (an earlier commit, say) started on the same papers
    from that folder, as the variant "other", taking its turns with the rest: a before and
    after measured in one run."""
    variants: dict[str, tuple[str, Path | None, Path | None]] = {
        "bare": ("bare", None, None),
        "bundled": ("laurel", small, None),
        "papers": ("laurel", big, None),
        "eager": ("laurel-eager", big, None),
    }
    if other is not None:
        variants["other"] = ("laurel", big, other)
    times: dict[str, dict[str, list[float]]] = {name: {} for name in variants}
    async with LocalDiscord(config=Config(heartbeat_interval_ms=HOUR_MS, lean=True)) as server:
        for round_ in range(repeats + 1):
            names = list(variants)
            names = names[round_ % len(names) :] + names[: round_ % len(names)]
            for name in names:
                kind, db, cwd = variants[name]
                child = await start_child(kind, server, db, cwd=cwd)
                await child.stop()
                for phase, ms in child.phases.items():
                    key = f"first {phase}" if round_ == 0 else phase
                    times[name].setdefault(key, []).append(ms)
            line = "  ".join(f"{n} {times[n]['ready' if round_ else 'first ready'][-1]:,.0f} ms"
                             for n in variants)  # fmt: skip
            print(f"{'first' if round_ == 0 else f'run {round_}'}: {line}")
        problems = len(server.errors) + len(server.unhandled) + len(server.violations)
    if problems:
        raise RuntimeError(f"the stand-in saw {problems} errors, unknown routes or violations")
    return times


def cpu(times: dict[str, dict[str, list[float]]], variant: str, phase: str) -> float:
    """Median CPU ms of `variant`'s process from exec to `phase`."""
    return median(times[variant].get(f"cpu {phase}", []))


def compare(times: dict[str, dict[str, list[float]]], other: Path) -> Rows:
    """This checkout's start against the one in `other`, both on the same papers."""
    rows: Rows = []
    for phase in ("imported", "ready"):
        mine, theirs = cpu(times, "papers", phase), cpu(times, "other", phase)
        rows.append(
            (
                f"CPU to {phase}: this checkout / {other.name}",
                f"{mine / theirs:.2f}x ({mine:,.0f} vs {theirs:,.0f} ms; floor "
                f"{cpu(times, 'bare', phase):,.0f} ms: {mine / cpu(times, 'bare', phase):.2f}x"
                f" vs {theirs / cpu(times, 'bare', phase):.2f}x)",
            )
        )
    ready = median(times["papers"]["ready"]), median(times["other"]["ready"])
    rows.append(
        (
            f"ready: this checkout / {other.name} (median)",
            f"{ready[0] / ready[1]:.2f}x ({ready[0]:,.0f} vs {ready[1]:,.0f} ms; floor "
            f"{median(times['bare']['ready']):,.0f} ms)",
        )
    )
    return rows


def report(times: dict[str, dict[str, list[float]]], papers: int, repeats: int) -> Rows:
    ready = {name: median(t["ready"]) for name, t in times.items()}
    print(f"\nmedian ms from exec, {repeats} starts each:")
    print(f"  {'':<22}" + "".join(f"{p:>10}" for p in PHASES) + f"{'first start':>13}")
    for name, t in times.items():
        cells = "".join(f"{median(t.get(p, [])):>10,.0f}" for p in PHASES)
        print(f"  {name:<22}{cells}{median(t['first ready']):>13,.0f}")
    return [
        (f"ready, {papers:,} papers (median of {repeats})", f"{ready['papers']:,.0f} ms"),
        ("ready, bundled catalogue", f"{ready['bundled']:,.0f} ms"),
        ("ready, bare discord.py client (the floor)", f"{ready['bare']:,.0f} ms"),
        (f"{papers:,} papers / floor", as_ratio(ready["papers"] / ready["bare"])),
        ("bundled / floor", as_ratio(ready["bundled"] / ready["bare"])),
        (f"{papers:,} papers / bundled", as_ratio(ready["papers"] / ready["bundled"])),
        # The fastest start is the one least disturbed by other work on the machine.
        (
            f"best of {repeats}: papers / bundled / floor",
            " / ".join(f"{min(times[n]['ready']):,.0f}" for n in ("papers", "bundled", "bare"))
            + f" ms ({as_ratio(min(times['papers']['ready']) / min(times['bare']['ready']))})",
        ),
        (
            "imports alone: Laurel / floor",
            as_ratio(median(times["papers"]["imported"]) / median(times["bare"]["imported"])),
        ),
        # CPU time leaves out waiting for the CPUs: on a busy machine, the steadier figure.
        (
            f"CPU to ready: {papers:,} papers / floor",
            f"{cpu(times, 'papers', 'ready') / cpu(times, 'bare', 'ready'):.2f}x "
            f"({cpu(times, 'papers', 'ready'):,.0f} vs {cpu(times, 'bare', 'ready'):,.0f} ms)",
        ),
        (
            "CPU to ready: bundled / floor",
            f"{cpu(times, 'bundled', 'ready') / cpu(times, 'bare', 'ready'):.2f}x",
        ),
        (
            "CPU to the end of imports: Laurel / floor",
            f"{cpu(times, 'papers', 'imported') / cpu(times, 'bare', 'imported'):.2f}x "
            f"({cpu(times, 'papers', 'imported'):,.0f} vs "
            f"{cpu(times, 'bare', 'imported'):,.0f} ms)",
        ),
        (
            f"ready, {papers:,} papers, matplotlib imported up front (before)",
            f"{ready['eager']:,.0f} ms",
        ),
        ("lazy matplotlib / up front: ready (median)", as_ratio(ready["papers"] / ready["eager"])),
        (
            "lazy matplotlib / up front: imports (median)",
            as_ratio(median(times["papers"]["imported"]) / median(times["eager"]["imported"])),
        ),
        (
            "lazy matplotlib / up front: ready (best)",
            as_ratio(min(times["papers"]["ready"]) / min(times["eager"]["ready"])),
        ),
        (
            "first start (syncs commands), papers / bundled",
            f"{median(times['papers']['first ready']):,.0f} / "
            f"{median(times['bundled']['first ready']):,.0f} ms",
        ),
    ]


async def run(args: argparse.Namespace) -> None:
    print(f"machine: {machine_line()}")
    with tempfile.TemporaryDirectory(prefix="laurel-startup-") as tmp:
        big = await database(args.db or Path(tmp) / "papers.db", args.papers, args.seed)
        small = await bundled_database(Path(tmp) / "bundled.db")
        papers = await count_papers(big)
        times = await measure(big, small, args.repeats, args.other)
    rows = report(times, papers, args.repeats)
    if args.other is not None:
        rows += compare(times, args.other)
    print_rows(rows)
    save(args.json, "startup", rows, {"papers": papers, "repeats": args.repeats, "ms": times})


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.startup", description=__doc__)
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", type=Path, help="build the database here, or reuse it")
    parser.add_argument("--json", type=Path, help="also write the results here")
    parser.add_argument(
        "--other",
        type=Path,
        metavar="DIR",
        help="also start the Laurel checked out in DIR (e.g. `git worktree add DIR main`) on "
        "the same papers, interleaved: this checkout against that one in one run",
    )
    args = parser.parse_args(argv)
    if args.papers < 10 or args.repeats < 1:
        parser.error("--papers >= 10, --repeats >= 1")
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
