"""The benchmark chart: `python -m benchmarks.chart [--results DIR] [--out PATH]`.

Drawn from the JSON the benchmarks wrote (benchmarks/run_all.py runs them all), one panel per
figure of issue 7, each next to its floor. A benchmark without results yet gets a panel that
says so rather than a made-up bar.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

RESULTS = Path("benchmarks/results")
CHART = Path("docs/benchmarks.png")
FLOOR, LAUREL, PENDING = "#9aa5b1", "#2f6f9f", "#c8ccd0"


def load(results: Path, names: list[str] | None = None) -> dict[str, dict[str, Any]]:
    """The benchmarks' results in `results`: those of `names` only (one run's), or all."""
    found = {}
    for path in sorted(results.glob("*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        if "benchmark" in document and (names is None or document["benchmark"] in names):
            found[document["benchmark"]] = document
    return found


def bars(axes: Axes, labels: list[str], values: list[float], floors: int, unit: str) -> None:
    """Horizontal bars, the first `floors` of them floors (grey), each labelled with its value."""
    colours = [FLOOR] * floors + [LAUREL] * (len(values) - floors)
    positions = list(range(len(values)))[::-1]
    axes.barh(positions, values, color=colours)
    axes.set_yticks(positions, labels, fontsize=8)
    for y, value in zip(positions, values, strict=True):
        axes.annotate(f" {value:,.1f} {unit}", (value, y), va="center", fontsize=7)
    axes.margins(x=0.35)
    axes.tick_params(axis="x", labelsize=7)


def pending(axes: Axes, title: str, why: str) -> None:
    axes.set_title(title, fontsize=9, loc="left")
    axes.text(0.5, 0.5, why, ha="center", va="center", fontsize=9, color="#555",
              transform=axes.transAxes, wrap=True)  # fmt: skip
    axes.set_facecolor("#f4f5f6")
    axes.set_xticks([])
    axes.set_yticks([])


def latency(axes: Axes, data: dict[str, Any] | None) -> None:
    if data is None:
        return pending(axes, "Command latency", "no results: python -m benchmarks.interactions")
    ms, papers = data["figures"]["one_at_a_time"], data["figures"]["papers"]
    labels, values = [], []
    for name, label in (("ping", "/ping (floor)"), ("search", "/paper search"),
                        ("store", "store search alone")):  # fmt: skip
        labels += [f"{label} p50", f"{label} p99"]
        values += [ms[name]["p50"], ms[name]["p99"]]
    bars(axes, labels, values, 2, "ms")
    axes.set_xscale("log")
    axes.set_title(f"Command latency, one at a time ({papers:,} papers)", fontsize=9, loc="left")
    return None


def throughput(axes: Axes, data: dict[str, Any] | None) -> None:
    if data is None:
        return pending(axes, "Interactions/s", "no results: python -m benchmarks.interactions")
    sustained = data["figures"]["sustained"]
    values = [sustained["ping"]["per_s"], sustained["search"]["per_s"]]
    bars(axes, ["/ping (floor)", "/paper search"], values, 1, "/s")
    axes.set_title(
        f"Interactions/s sustained, {sustained['concurrency']} in flight", fontsize=9, loc="left"
    )
    return None


def catalogue(axes: Axes, data: dict[str, Any] | None) -> None:
    if data is None:
        return pending(axes, "Catalogue search", "no results: python -m benchmarks.catalog")
    ms = data["figures"]["ms"]
    names = (("select 1", "SELECT 1 (floor)"), ("fts ids", "FTS5 ids only"),
             ("search", "search (FTS5 + models)"), ("like", "LIKE, first 10"),
             ("like ranked", "LIKE, ranked"))  # fmt: skip
    bars(axes, [label for _, label in names], [ms[n]["p50"] for n, _ in names], 1, "ms")
    axes.set_xscale("log")
    axes.set_title(
        f"Catalogue search p50 ({data['figures']['papers']:,} papers)", fontsize=9, loc="left"
    )
    return None


def startup(axes: Axes, data: dict[str, Any] | None) -> None:
    if data is None:
        return pending(axes, "Cold start", "no results: python -m benchmarks.startup")
    figures = data["figures"]
    ms = figures["ms"]

    def median(values: list[float]) -> float:
        ordered = sorted(values)
        middle = len(ordered) // 2
        return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2

    every = (("bare", "bare discord.py (floor)"), ("bundled", "Laurel, bundled catalogue"),
             ("papers", f"Laurel, {figures['papers']:,} papers"),
             ("eager", "the same, matplotlib up front (before)"))  # fmt: skip
    names = [(n, label) for n, label in every if n in ms]  # older results lack "eager"
    bars(axes, [label for _, label in names], [median(ms[n]["ready"]) for n, _ in names], 1, "ms")
    axes.set_title(
        f"Cold start, exec to on_ready (median of {figures['repeats']})", fontsize=9, loc="left"
    )
    return None


def memory(axes: Axes, data: dict[str, Any] | None) -> None:
    if data is None:
        return pending(axes, "Resident memory", "no results: python -m benchmarks.memory")
    kib = data["figures"]["kib"]
    measured = [(name, m["rss_kib"] / 1024) for name, m in kib.items() if m is not None]
    floors = sum(not name.startswith("Laurel") for name, _ in measured)
    bars(axes, [name for name, _ in measured], [v for _, v in measured], floors, "MiB")
    waiting = [name for name, m in kib.items() if m is None]
    if waiting:
        axes.set_xlabel("pending: " + "; ".join(waiting), fontsize=7)
    axes.set_title("Resident memory (VmRSS) of a ready bot", fontsize=9, loc="left")
    return None


def fan_out(axes: Axes, data: dict[str, Any] | None) -> None:
    if data is None:
        return pending(axes, "Digest fan-out", "no results: python -m benchmarks.digests")
    figures = data["figures"]
    free, limited, limit = figures["unlimited"], figures["limited"], figures["rate_limit"]
    values = [limit, limited["posted"] / limited["seconds"], free["per_s"]]
    labels = ["Discord's limit (floor)", f"{limit:g}/s enforced, bot pacing",
              f"unlimited, {figures['concurrency']} in flight"]  # fmt: skip
    bars(axes, labels, values, 1, "posts/s")
    axes.set_xlabel(
        f"enforced: {limited['seconds']:.1f} s vs {limited['theoretical_s']:.1f} s theoretical "
        f"({limited['seconds'] / limited['theoretical_s']:.3f}x)",
        fontsize=7,
    )
    axes.set_title(
        f"Digest fan-out, {figures['subscriptions']:,} subscriptions due at once",
        fontsize=9,
        loc="left",
    )
    return None


def commands(axes: Axes, data: dict[str, Any] | None) -> None:
    if data is None or "bundled" not in data["figures"]:
        return pending(axes, "Per-command cost", "no results: python -m benchmarks.search")
    bundled = data["figures"]["bundled"]
    engine = "tantivy" if "tantivy /ping" in bundled else "fts5"
    names = [k.split(" ", 1)[1] for k, v in bundled.items()
             if k.startswith(f"{engine} ") and isinstance(v, dict)]  # fmt: skip
    names.sort(key=lambda n: n != "/ping")  # the floor first
    trips = [round(bundled[f"{engine} {n}"]["round_trips"]) for n in names]
    labels = [
        f"{n} ({t} store trip{'' if t == 1 else 's'})" for n, t in zip(names, trips, strict=True)
    ]
    bars(axes, labels, [bundled[f"{engine} {n}"]["p50"] for n in names], 1, "ms")
    axes.set_title(f"Per command p50, bundled catalogue ({engine})", fontsize=9, loc="left")
    return None


def engines(axes: Axes, data: dict[str, Any] | None) -> None:
    figures = data["figures"] if data else {}
    if "tantivy" not in figures and "fts5" not in figures:
        return pending(axes, "Search at scale", "no results: python -m benchmarks.search")
    floor = figures["tantivy" if "tantivy" in figures else "fts5"]["ping"]["p99"]
    labels, values = ["/ping p99 (floor)"], [floor]
    for engine in ("fts5", "tantivy"):
        if engine in figures:
            labels += [f"{engine}: /paper search p99", f"{engine}: autocomplete p99"]
            values += [figures[engine]["search"]["p99"], figures[engine]["autocomplete_p99"]]
    bars(axes, labels, values, 1, "ms")
    axes.set_xscale("log")
    ratios = ", ".join(
        f"{e} {figures[e]['throughput_ratio']:.2f}" for e in ("fts5", "tantivy") if e in figures
    )
    axes.set_xlabel(f"search ÷ ping throughput, 8 in flight: {ratios}", fontsize=7)
    axes.set_title("Search at scale, one at a time (p99)", fontsize=9, loc="left")
    return None


def draw(results: Path, out: Path, names: list[str] | None = None) -> Path:
    found = load(results, names)
    figure = Figure(figsize=(13, 13), dpi=110, layout="constrained")
    FigureCanvasAgg(figure)
    grid = figure.subplots(4, 2)
    panels = ((latency, "interactions"), (throughput, "interactions"), (engines, "search"),
              (commands, "search"), (catalogue, "catalog"), (startup, "startup"),
              (memory, "memory"), (fan_out, "digests"))  # fmt: skip
    for axes, (panel, name) in zip(grid.flat, panels, strict=True):
        panel(axes, found.get(name))
    machine = next(iter(found.values()))["machine"] if found else {}
    if machine:
        figure.suptitle(
            f"Laurel benchmarks · {machine['cpus']} CPUs · {machine['memory_gib']} GiB · "
            f"Python {machine['python']} · SQLite {machine['sqlite']} "
            "(grey: the floor each figure is measured against)",
            fontsize=10,
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(out)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.chart", description=__doc__)
    parser.add_argument("--results", type=Path, default=RESULTS)
    parser.add_argument("--out", type=Path, default=CHART)
    args = parser.parse_args(argv)
    print(f"chart: {draw(args.results, args.out)}")


if __name__ == "__main__":
    main()
