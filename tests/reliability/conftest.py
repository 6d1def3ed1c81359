"""The reliability suite: a fault matrix on the stand-in, printed as a table of cases.

A case is a test marked `@pytest.mark.fault(path, fault)`: `path` is what Laurel was doing (a
slash command's answer, completing a deferral, the gateway session, a write to the store — and,
once digests exist, each step of a fan-out), `fault` what went wrong there. Each case asserts
that nothing was lost, nothing doubled, and that the user (or the operator, on the command line)
got a clear answer, and says what it checked with the `checked` fixture. At the end of the run
`pytest_terminal_summary` prints every case with its outcome. New rows need nothing here: a
marked test in this folder is a row.

`pytest tests/reliability -q` runs the suite alone; it is also part of the normal test run.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable, Generator
from dataclasses import dataclass, field

import pytest
from _pytest.terminal import TerminalReporter

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.settings import Settings
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord


@dataclass
class Case:
    path: str
    fault: str
    nodeid: str
    outcome: str = "not run"
    checked: list[str] = field(default_factory=list)


CASES = pytest.StashKey[dict[str, Case]]()  # by node id, in the order they ran
NOTES = pytest.StashKey[list[str]]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "fault(path, fault): a row of the reliability table (tests/reliability)"
    )
    config.stash[CASES] = {}


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    marker = item.get_closest_marker("fault")
    if marker is None:
        return report
    cases = item.config.stash[CASES]
    case = cases.setdefault(
        item.nodeid, Case(str(marker.args[0]), str(marker.args[1]), item.nodeid)
    )
    case.checked = item.stash.get(NOTES, [])
    if report.failed:
        case.outcome = f"FAILED ({report.when})" if report.when != "call" else "FAILED"
    elif report.skipped:
        case.outcome = "skipped"
    elif report.when == "call" or (report.when == "teardown" and case.outcome == "not run"):
        case.outcome = "passed" if case.outcome in ("not run", "passed") else case.outcome
    return report


def pytest_terminal_summary(terminalreporter: TerminalReporter, config: pytest.Config) -> None:
    cases = list(config.stash.get(CASES, {}).values())
    if not cases:
        return
    width = {
        "path": max(len("path"), *(len(c.path) for c in cases)),
        "fault": max(len("fault"), *(len(c.fault) for c in cases)),
        "outcome": max(len("outcome"), *(len(c.outcome) for c in cases)),
    }
    write = terminalreporter.write_line
    terminalreporter.section("reliability: fault matrix")
    write(f"{'path':<{width['path']}}  {'fault':<{width['fault']}}  "
          f"{'outcome':<{width['outcome']}}  checked")  # fmt: skip
    first = {c.path: i for i, c in reversed(list(enumerate(cases)))}  # paths as they came
    for case in sorted(cases, key=lambda c: first[c.path]):
        checked = "; ".join(case.checked) or "-"
        write(f"{case.path:<{width['path']}}  {case.fault:<{width['fault']}}  "
              f"{case.outcome:<{width['outcome']}}  {checked}")  # fmt: skip
    passed = sum(c.outcome == "passed" for c in cases)
    write(f"{passed} of {len(cases)} cases passed")


@pytest.fixture
def checked(request: pytest.FixtureRequest) -> Callable[[str], None]:
    """Say what the case verified, for its row in the table."""
    notes: list[str] = request.node.stash.setdefault(NOTES, [])
    return notes.append


# -- Laurel on the stand-in (`db`, `config`, `server`: tests/conftest.py) -------------------
@pytest.fixture
def expected_errors() -> list[str]:
    """Beginnings of ERROR log messages a case expects (an unexpected error is logged with its
    id by design); any other ERROR fails the case."""
    return []


@pytest.fixture
def laurel_settings() -> Settings | None:
    """The settings `laurel` starts with; None: the harness's own. A case that needs others
    parametrizes this name (`@pytest.mark.parametrize("laurel_settings", [...])`)."""
    return None


@pytest.fixture
async def laurel(
    server: LocalDiscord,
    db: Database,
    caplog: pytest.LogCaptureFixture,
    expected_errors: list[str],
    laurel_settings: Settings | None,
) -> AsyncIterator[LaurelBot]:
    caplog.set_level(logging.WARNING)
    async with laurel_on(server, db, laurel_settings, clock=SystemClock()) as bot:
        yield bot
    errors = [r.getMessage() for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    unexpected = [m for m in errors if not m.startswith(tuple(expected_errors) or ("\0",))]
    assert unexpected == [], "the bot logged errors"
