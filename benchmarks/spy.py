"""Where a process's samples went, by thread and by whose code: `python -m benchmarks.spy FILE`.

FILE is py-spy's raw output (`--format raw --threads`), e.g. of the search benchmark at scale:

    py-spy record --rate 250 --threads --format raw -o spy.txt -- \\
        python -m benchmarks.search --skip-bundled --engines tantivy --db DB --queries 150

Each sample is counted under its thread (the bot's loop, the stand-in's, the index's searchers,
the rest) and the owner of its innermost frame (Laurel, discord.py, aiohttp, asyncio, ...);
the query generation before the measurement is left out. A sample on the loop whose stack runs
through Laurel's code but ends in a library's is the library's: what Laurel itself costs is
the "Laurel" rows.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

OWNERS = (
    ("laurel_console/localdiscord", "the stand-in's code"),
    ("bot/", "Laurel"),
    ("discord/", "discord.py"),
    ("aiohttp", "aiohttp"),
    ("aiosqlite", "aiosqlite"),
    ("asyncio", "asyncio"),
    ("selectors", "waiting (epoll)"),
    ("json", "json"),
    ("yarl", "yarl"),
    ("concurrent", "thread pool (waiting for work)"),
    ("benchmarks/", "the benchmark"),
)
_PATH = re.compile(r"\(([^()]*?):\d+\)$")
SKIPPED = ("synthesize", "make_queries")


def owner(frame: str) -> str:
    found = _PATH.search(frame)
    path = found.group(1) if found else frame
    return next((name for marker, name in OWNERS if marker in path), "other (C, stdlib)")


def thread(frame: str) -> str:
    for marker, name in (("MainThread", "the bot's loop"), ("stand-in", "the stand-in's loop"),
                         ("laurel-search", "the index's searchers")):  # fmt: skip
        if marker in frame:
            return name
    return "other threads (SQLite readers, writer, heartbeat)"


def split(lines: list[str]) -> Counter[tuple[str, str]]:
    samples: Counter[tuple[str, str]] = Counter()
    for line in lines:
        stack, _, count = line.rpartition(" ")
        if not stack or any(skip in stack for skip in SKIPPED):
            continue
        frames = stack.split(";")
        samples[thread(frames[0]), owner(frames[-1])] += int(count)
    return samples


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.spy", description=__doc__)
    parser.add_argument("file", type=Path)
    args = parser.parse_args(argv)
    samples = split(args.file.read_text(encoding="utf-8").splitlines())
    per_thread: Counter[str] = Counter()
    for (name, _), count in samples.items():
        per_thread[name] += count
    for name, total in per_thread.most_common():
        print(f"{name}: {total:,} samples")
        mine = [(o, c) for (t, o), c in samples.items() if t == name]
        for who, count in sorted(mine, key=lambda item: -item[1]):
            print(f"  {who:<36} {count:>6,} {count / total:>6.1%}")


if __name__ == "__main__":
    main()
