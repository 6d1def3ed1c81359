"""The catalogue writer's time comes from the clock it is given, never from the wall clock:
every audit row of a write and a curator's removal carry the injected clock's time."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.domain.models import CatalogBatch
from bot.domain.writes import WriteContext
from bot.store.catalog.audit import AuditRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.awards import VENUES, award, batch
from tests.support.clock import ManualClock

START = dt.datetime(2031, 5, 17, 8, 30, 15, 999_000, tzinfo=dt.UTC)


async def test_audit_rows_and_removals_carry_the_injected_clocks_time(db: Database) -> None:
    clock = ManualClock(START)
    catalog, audit = CatalogRepository(db, clock), AuditRepository(db)
    added = await catalog.apply(CatalogBatch(venues=VENUES), actor="t", policy="update")
    await catalog.apply(batch(award("Clockwork")), actor="t", policy="update")
    clock.advance(3600)
    (stored,) = await PaperRepository(db).awarded_at("icml", 2025, None)
    removed = await catalog.remove("paper", stored.id, actor="curator")

    entries = await audit.in_batch(added.batch)
    assert {e.at for e in entries} == {"2031-05-17T08:30:15+00:00"}  # to the second, in UTC
    (removal,) = await audit.in_batch(removed.batch)
    assert removal.at == "2031-05-17T09:30:15+00:00"
    assert removal.after is not None
    assert removal.after["removed_at"] == "2031-05-17T09:30:15+00:00"


def test_a_write_without_a_time_zone_is_refused() -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        WriteContext("t", "update", "b", dt.datetime(2031, 5, 17, 8, 30))


def test_the_stamp_is_utc_whatever_zone_the_clock_speaks() -> None:
    taipei = dt.timezone(dt.timedelta(hours=8))
    context = WriteContext("t", "update", "b", dt.datetime(2031, 5, 17, 16, 30, tzinfo=taipei))
    assert context.stamp == "2031-05-17T08:30:00+00:00"
