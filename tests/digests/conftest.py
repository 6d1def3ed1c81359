"""The `rig` fixture: a digest engine per test (tests/support/digests.py builds it)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.observability.metrics import Metrics
from bot.store.subscriptions import SubscriptionRepository
from tests.support.backends import open_sqlite
from tests.support.clock import ManualClock
from tests.support.digests import START, RecordingDeliverer, Rig, make_engine


@pytest.fixture
async def rig(template_db: Path, tmp_path: Path) -> AsyncIterator[Rig]:
    copy = tmp_path / "laurel.db"
    copy.write_bytes(template_db.read_bytes())
    async with await open_sqlite(copy) as db:
        clock, metrics = ManualClock(START), Metrics()
        deliverer = RecordingDeliverer(clock)
        subscriptions = SubscriptionRepository(db)
        engine = make_engine(db, clock, deliverer, metrics, subscriptions=subscriptions)
        yield Rig(db, clock, deliverer, subscriptions, engine, metrics)
