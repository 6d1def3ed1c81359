"""Time comes from the one clock the composition root hands in (bot/domain/clock.py), never
from the system directly: a test that moves a ManualClock then moves all of Laurel's time,
and nothing depends on the wall clock (crossing midnight, a real sleep, a real minute).

The stand-ins (laurel_console/localdiscord, laurel_console/localarxiv) keep the real clock:
they play Discord and arXiv, whose clocks are not Laurel's.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
BOT = REPO / "bot"
CONSOLE = REPO / "laurel_console"  # the harness and the console run LaurelBot: the same rules
THE_CLOCK = BOT / "domain" / "clock.py"
STAND_INS = ("localdiscord", "localarxiv")

# Reading the system's time or waiting on it, as a dotted name (`dt.datetime.now` ends with
# `datetime.now`; a bare `monotonic` is checked through its import).
FORBIDDEN = {
    "datetime.now",
    "datetime.utcnow",
    "datetime.today",
    "date.today",
    "time.monotonic",
    "time.time",
    "asyncio.sleep",
}
FORBIDDEN_IMPORTS = {
    ("datetime", "datetime"),  # `from datetime import datetime` hides `datetime.now()` as `now`
    ("time", "monotonic"),
    ("time", "time"),
    ("asyncio", "sleep"),
}

# Files allowed to read time themselves, each with why (none today: every module takes the
# clock it is handed).
ALLOWED: dict[str, str] = {}


def dotted(node: ast.expr) -> str:
    """`a.b.c` for an attribute chain on a name, else ""."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return ""
    return ".".join([node.id, *reversed(parts)])


def reads_of_time(source: str) -> list[str]:
    """Each direct use of the system clock in `source`, as "line: name"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute):
            name = dotted(node)
            if any(name == f or name.endswith("." + f) for f in FORBIDDEN):
                found.append(f"{node.lineno}: {name}")
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            for alias in node.names:
                if (node.module, alias.name) in FORBIDDEN_IMPORTS:
                    found.append(f"{node.lineno}: from {node.module} import {alias.name}")
    return found


def modules() -> list[Path]:
    """bot/ and laurel_console/, but the clock itself and the stand-ins."""
    return sorted(
        path
        for path in [*BOT.rglob("*.py"), *CONSOLE.rglob("*.py")]
        if path != THE_CLOCK and not set(path.relative_to(REPO).parts[:2]) & set(STAND_INS)
    )


def name_of(path: Path) -> str:
    """A module of bot/ by its path under bot/; one of laurel_console/ by its path under the
    repository."""
    return (
        path.relative_to(BOT) if path.is_relative_to(BOT) else path.relative_to(REPO)
    ).as_posix()


def test_no_module_reads_the_system_clock_but_the_clock() -> None:
    offenders = {}
    for path in modules():
        name = name_of(path)
        found = reads_of_time(path.read_text(encoding="utf-8"))
        if found and name not in ALLOWED:
            offenders[name] = found
    assert offenders == {}, "read time from the injected Clock (bot/domain/clock.py) instead"


def test_the_allowlist_holds_only_files_that_still_need_it() -> None:
    """An entry whose file no longer reads the system clock is stale: remove it."""
    stale = [
        name
        for name in ALLOWED
        if not (BOT / name).is_file() or not reads_of_time((BOT / name).read_text("utf-8"))
    ]
    assert stale == []


def test_the_check_sees_each_way_of_reading_the_clock() -> None:
    """The detector itself: each spelling is caught, and lookalikes are not."""
    caught = [
        "import datetime as dt\nx = dt.datetime.now(dt.UTC)",
        "import datetime\nx = datetime.datetime.now()",
        "import datetime as dt\nx = dt.date.today()",
        "import time\nx = time.monotonic()",
        "import time\nx = time.time()",
        "import asyncio\nasync def f():\n    await asyncio.sleep(1)",
        "import asyncio\ndef f(sleep=asyncio.sleep): ...",  # handed on as a default
        "from time import monotonic",
        "from asyncio import sleep",
        "from datetime import datetime",
    ]
    for source in caught:
        assert reads_of_time(source), source
    fine = [
        "import time\nx = time.perf_counter()",  # a duration for a log line or a metric
        "x = clock.now()",
        "async def f(clock):\n    await clock.sleep(1)",
        "import datetime as dt\nx = dt.datetime(2026, 3, 2, tzinfo=dt.UTC)",
        "from datetime import timedelta",
    ]
    for source in fine:
        assert reads_of_time(source) == [], source
    assert reads_of_time(THE_CLOCK.read_text("utf-8"))  # the one place that may
    assert THE_CLOCK not in modules()
    assert CONSOLE / "harness.py" in modules()
    assert not [p for p in modules() if "localdiscord" in p.parts or "localarxiv" in p.parts]


# Where the one clock is made (issue 26): the composition roots. Anywhere else a clock is a
# required parameter; a default (`clock: Clock | None = None`, `clock or SystemClock()`) would
# let a caller forget it and stamp the wall clock under a test's ManualClock unseen.
ROOTS = ("app.py", "cli/__init__.py")


def _annotation(node: ast.expr | None) -> str:
    return ast.unparse(node) if node is not None else ""


def defaulted_clocks(source: str) -> list[str]:
    """Each clock that is defaulted rather than handed in, or made outside a root."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            args = node.args
            positional = [*args.posonlyargs, *args.args]
            defaulted = positional[len(positional) - len(args.defaults) :]
            defaulted += [a for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d]
            for arg in defaulted:
                if arg.arg == "clock" or re.search(r"\bClock\b", _annotation(arg.annotation)):
                    found.append(f"{arg.lineno}: {node.name}({arg.arg}=…)")
        elif isinstance(node, ast.Call) and dotted(node.func).endswith("SystemClock"):
            found.append(f"{node.lineno}: SystemClock()")
        elif (
            isinstance(node, ast.BoolOp)
            and isinstance(node.op, ast.Or)
            and any(dotted(v).split(".")[-1] in ("clock", "_clock") for v in node.values)
        ):
            found.append(f"{node.lineno}: clock or …")
    return found


def test_clocks_are_handed_in_never_defaulted_outside_the_roots() -> None:
    offenders = {}
    for path in modules():
        name = name_of(path)
        if name.startswith(ROOTS):
            continue
        found = defaulted_clocks(path.read_text(encoding="utf-8"))
        if found:
            offenders[name] = found
    assert offenders == {}, "take the clock as a required parameter; the roots make it"


def test_the_check_sees_each_way_of_defaulting_a_clock() -> None:
    caught = [
        "def f(clock: Clock | None = None): ...",
        "class A:\n    def __init__(self, db, clock=None): ...",
        "async def f(db, *, clock: Clock = SystemClock()): ...",
        "def f(db, *, now: Clock | None = None): ...",
        "x = clock or SystemClock()",
        "self._clock = clock if clock is not None else SystemClock()",
        "def f():\n    return SystemClock().now()",
    ]
    for source in caught:
        assert defaulted_clocks(source), source
    fine = [
        "def f(db, clock: Clock): ...",
        "async def f(db, *, clock: Clock, create: bool = True): ...",
        "def f(clock: Clock, /, every: float = 1.0): ...",
        "x = clock.now() or other",
        "def f(clock: Clock, scheduler: _ByClock | None = _ByClock.DEFAULT): ...",
    ]
    for source in fine:
        assert defaulted_clocks(source) == [], source
