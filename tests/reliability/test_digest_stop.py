"""`laurel run` stopped with SIGTERM (`docker stop`) in the middle of a digest fan-out (issue 22,
item 12): a graceful stop reserves nothing new, sends and marks what it had reserved, and
commits the group-committed marks before it exits, so no ledger row is left pending, and every
post in the channel is a row marked sent (and once)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.digest_kills import Bot, ledger_rows, posted_markers, subscribe_due
from tests.support.processes import GRACE, Stand, control, stand_in, until


@pytest.fixture(scope="module")
def stand() -> Iterator[Stand]:
    with stand_in() as running:
        yield running


def test_a_graceful_stop_mid_fan_out_leaves_no_row_pending(stand: Stand, tmp_path: Path) -> None:
    database = tmp_path / "laurel.db"
    env = {**os.environ, "LAUREL_DATABASE__PATH": str(database)}
    env.pop("LAUREL_CONFIG", None)
    subprocess.run([sys.executable, "-m", "bot", "db", "init"], env=env, check=True,
                   capture_output=True)  # fmt: skip
    total = subscribe_due(database, control(f"{stand.control}world"))
    # Paced, so that the fan-out is under way for seconds: rows sent, rows reserved and in
    # flight, and subscriptions not reached yet, all at the moment of the SIGTERM.
    bot = Bot(stand, database, digests__requests_per_second="4",
              digests__fan_out_concurrency="8")  # fmt: skip
    try:
        until(lambda: len(posted_markers(stand)) >= 3, "a few posts sent")
        at_stop = Counter(status for _, status in ledger_rows(database).values())
        assert at_stop["pending"] > 0, at_stop  # mid-fan-out: rows reserved, not yet marked
        bot.process.send_signal(signal.SIGTERM)
        assert bot.process.wait(timeout=GRACE) == 0, "".join(bot.lines[-20:])
    finally:
        bot.kill()  # (reaped already after a clean stop: this closes its pipe)
    ledger = ledger_rows(database)
    statuses = Counter(status for _, status in ledger.values())
    assert statuses["pending"] == 0, statuses
    assert 0 < statuses["sent"] < total  # stopped mid-way: the rest is due at the next start
    markers = posted_markers(stand)
    sent = {nonce for nonce, status in ledger.values() if status == "sent"}
    assert set(markers) == sent  # every post in the channel is a row marked sent
    assert all(count == 1 for count in markers.values())
