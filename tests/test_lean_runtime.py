"""What a starting bot imports: `import bot.app` (and `laurel run`'s own module) leave out the
stand-ins and the console extra, PyYAML, matplotlib, the importers, the converter, the arXiv
enrich job and, with metrics off, prometheus_client. Each is checked in a fresh interpreter,
since this one has imported everything the suite touches."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.ops.dockerfile_replay import ROOT

NOT_AT_START = (
    "laurel_console",  # the stand-ins, the harness, the console
    "jsonschema",  # the console extra
    "referencing",
    "yaml",  # read when a YAML file is imported (bot/catalog/yaml_reader.py)
    "matplotlib",  # the first chart
    "prometheus_client",  # metrics on
    "bot.catalog.importers",  # the first import of a file
    "bot.catalog.yaml_reader",
    "tools",  # development tools (the converter, tools.bundle): never the bot
    "bot.catalog.arxiv.enrich_job",  # [arxiv] enrich_on_start, or `laurel enrich`
    "tqdm",  # progress bars of the command line
)


def imported_by(code: str) -> set[str]:
    script = f"import json, sys\n{code}\nprint(json.dumps(sorted(sys.modules)))"
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def unwanted(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == n or m.startswith(f"{n}.") for n in NOT_AT_START))


@pytest.mark.parametrize(
    "code",
    [
        "import bot.app",
        # What `laurel run` imports before it starts the bot (bot/cli/run.py, bot/__main__.py).
        "import bot.__main__, bot.cli.run; bot.cli.build_parser(['run'])",
        # A LaurelBot built as `laurel run` builds it, metrics off (the default).
        "from bot.app import LaurelBot; from bot.settings import Settings; "
        "from apscheduler.schedulers.asyncio import AsyncIOScheduler; "
        "from bot.store.backends import open_database; from bot.dburl import SqliteTarget; "
        "from bot.domain.clock import SystemClock\n"
        "import asyncio, tempfile, pathlib, aiohttp\n"
        "async def build():\n"
        "    path = pathlib.Path(tempfile.mkdtemp()) / 'l.db'\n"
        "    async with (\n"
        "        await open_database(SqliteTarget(path), clock=SystemClock()) as db,\n"
        "        aiohttp.ClientSession() as session,\n"
        "    ):\n"
        "        LaurelBot(\n"
        "            settings=Settings(), db=db, scheduler=AsyncIOScheduler(),\n"
        "            clock=SystemClock(), http_session=session,\n"
        "        )\n"
        "asyncio.run(build())",
    ],
    ids=["import bot.app", "laurel run's modules", "LaurelBot built"],
)
def test_a_starting_bot_imports_none_of_what_it_does_not_use(code: str) -> None:
    modules = imported_by(code)
    assert "bot.app" in modules
    assert unwanted(modules) == []


def test_the_check_sees_those_modules_when_they_are_used() -> None:
    """The same check, on what does import them: it can fail."""
    modules = imported_by(
        "import bot.app, bot.catalog.formats, laurel_console.harness, bot.cli.catalog\n"
        "from bot.observability.metrics import Metrics; Metrics()\n"
        "from bot.catalog.importers import ai_bestpapers"
    )
    assert {"laurel_console", "prometheus_client", "bot.catalog.importers", "tqdm"} <= {
        m.split(".")[0] if not m.startswith("bot.") else ".".join(m.split(".")[:3])
        for m in unwanted(modules)
    }
