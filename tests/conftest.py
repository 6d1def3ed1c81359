from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.domain.clock import SystemClock
from bot.store.database import Database
from laurel_console.localdiscord.config import Config
from laurel_console.localdiscord.limits import SpecValidatorProtocol
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.backends import open_sqlite
from tests.support.mentions import OptInHistory, opted_in_roles, unsafe_messages
from tests.support.processes import Stand, stand_in
from tests.support.shared_dir import SHARED, SPEC

# Hypothesis' deadline (200 ms an example) is a timed assertion: on a loaded machine it failed a
# correct renderer at 394 ms. Time is measured by benchmarks/, never asserted by a test.
settings.register_profile("laurel", deadline=None)
settings.load_profile("laurel")

# A real PostgreSQL server for the tests that run on both backends (issue 15).
pytest_plugins = ["tests.support.postgres"]


@pytest.fixture(scope="session")
def spec_validator() -> SpecValidatorProtocol | None:
    """Discord's OpenAPI spec from ../shared, checking every request the bot sends in tests.

    Where ../shared is absent the stand-in still enforces Discord's limits, but not the spec;
    the run's header says so (see pytest_report_header).
    """
    if not SPEC.is_file():
        return None
    from laurel_console.localdiscord.spec import SpecValidator

    return SpecValidator.from_file(SPEC)


def pytest_report_header() -> str:
    where = SPEC if SPEC.is_file() else f"absent ({SPEC}): requests are checked against limits only"
    return f"Discord OpenAPI spec: {where}"


@pytest.fixture(scope="session")
def template_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database with the bundled catalogue, built once; tests copy it rather than rebuild."""
    path = tmp_path_factory.mktemp("template") / "laurel.db"

    async def build() -> None:
        async with await open_sqlite(path) as db:
            await load_bundled_into(CatalogParts.over(db, SystemClock()))

    asyncio.run(build())
    return path


@pytest.fixture
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"the shared material is not at {SHARED} (it sits beside the checkout in CI)")
    return SHARED


# -- Laurel on the stand-in, in this process and as separate processes ------------------------
@pytest.fixture
async def db(template_db: Path, tmp_path: Path) -> AsyncIterator[Database]:
    """A copy of the bundled catalogue for this test alone."""
    copy = tmp_path / "laurel.db"
    copy.write_bytes(template_db.read_bytes())
    async with await open_sqlite(copy) as database:
        yield database


@pytest.fixture
def config() -> Config:
    return Config(heartbeat_interval_ms=200)


@pytest.fixture
def laurels_db(request: pytest.FixtureRequest) -> tuple[Database, OptInHistory] | None:
    """The test's `db` when it has one: then it is a test of Laurel on the stand-in (tests of
    the stand-in alone have none), and `db` outlives `server`, so its teardown can read it;
    with the roles subscriptions opted in to before they were edited or removed."""
    if "db" not in request.fixturenames:
        return None
    database: Database = request.getfixturevalue("db")
    return database, OptInHistory(database)


@pytest.fixture
async def server(
    config: Config,
    spec_validator: SpecValidatorProtocol | None,
    laurels_db: tuple[Database, OptInHistory] | None,
) -> AsyncIterator[LocalDiscord]:
    """The stand-in in this process; teardown fails on a spec violation, an unhandled route or
    an error of its own, and, in a test of Laurel, on any message that could ping someone
    (tests/support/mentions.py)."""
    if laurels_db is not None:
        await laurels_db[1].install()
    local = await LocalDiscord(config=config, validator=spec_validator).start()
    try:
        yield local
    finally:
        await local.stop()
    assert local.errors == []
    assert [r.route for r in local.unhandled] == []
    assert [str(v) for v in local.violations] == []
    if laurels_db is not None:
        database, history = laurels_db
        opted_in = await opted_in_roles(database, history)
        assert unsafe_messages(local.requests, opted_in) == [], "a message could ping"


@pytest.fixture
def stand() -> Iterator[Stand]:
    """`laurel localdiscord` as its own process."""
    with stand_in() as running:
        yield running


# -- tests that run on SQLite alone (issue 15) ------------------------------------------------
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A `sqlite_only` mark must say why: the report lists every one with its reason."""
    for item in items:
        mark = item.get_closest_marker("sqlite_only")
        if mark is not None and not (mark.args and str(mark.args[0]).strip()):
            raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.sqlite_only needs its reason")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The tests that ran on SQLite alone, and why (the lead lists them)."""
    found: dict[str, list[str]] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            reason = getattr(report, "user_properties", None)
            for name, value in reason or ():
                if name == "sqlite_only" and report.when == "call":
                    found.setdefault(value, []).append(report.nodeid)
    if not found:
        return
    count = sum(len(ids) for ids in found.values())
    terminalreporter.section(f"{count} test(s) on SQLite alone (not run on PostgreSQL)")
    for reason, ids in sorted(found.items()):
        terminalreporter.write_line(f"{reason}:")
        for nodeid in ids:
            terminalreporter.write_line(f"    {nodeid}")


@pytest.fixture(autouse=True)
def _record_sqlite_only(request: pytest.FixtureRequest) -> None:
    mark = request.node.get_closest_marker("sqlite_only")
    if mark is not None:
        request.node.user_properties.append(("sqlite_only", str(mark.args[0])))
