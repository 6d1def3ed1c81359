"""A running bot's log at INFO is not a line per scheduler run: the search index catches up
with other writers every 5 s by default, and APScheduler logs each run of a job twice at INFO.
A job that fails is still logged, and DEBUG still shows every run."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator

import pytest
from apscheduler.schedulers.asyncio import AsyncIOScheduler

from bot.logs import configure_logging
from bot.settings import LoggingSettings


@pytest.fixture
def restore_logging() -> Iterator[None]:
    root, executors = logging.getLogger(), logging.getLogger("apscheduler.executors")
    handlers, level, executors_level = list(root.handlers), root.level, executors.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    executors.setLevel(executors_level)


async def _run_jobs() -> None:
    """Run one job that succeeds and one that raises on a real scheduler."""
    done = asyncio.Event()

    async def quiet() -> None:
        pass

    async def broken() -> None:
        try:
            raise RuntimeError("the job broke")
        finally:
            asyncio.get_running_loop().call_soon(done.set)

    scheduler = AsyncIOScheduler()
    scheduler.add_job(quiet, name="quiet job")
    scheduler.start()
    await asyncio.sleep(0.1)
    scheduler.add_job(broken, name="broken job")
    await asyncio.wait_for(done.wait(), 10)
    await asyncio.sleep(0.1)  # the executor logs the exception after the job ends
    scheduler.shutdown(wait=False)


@pytest.mark.usefixtures("restore_logging")
async def test_at_info_a_job_that_ran_says_nothing_and_one_that_failed_says_so(
    capsys: pytest.CaptureFixture[str],
) -> None:
    configure_logging(LoggingSettings(level="INFO"))
    await _run_jobs()
    err = capsys.readouterr().err
    assert "Running job" not in err
    assert "executed successfully" not in err
    assert "broken job" in err
    assert "the job broke" in err


@pytest.mark.usefixtures("restore_logging")
async def test_at_debug_every_run_is_logged(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging(LoggingSettings(level="DEBUG"))
    await _run_jobs()
    err = capsys.readouterr().err
    assert 'Running job "quiet job' in err
    assert "the job broke" in err
