from __future__ import annotations

import datetime as dt
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.domain.subscriptions import MAX_SUBSCRIPTIONS_PER_GUILD, DigestFilter, Subscription, Theme
from bot.errors import UserError
from bot.store.database import Database
from bot.store.migrations import available, migrate
from bot.store.sql import Connection, integrity_errors
from bot.store.subscriptions import SubscriptionRepository, fingerprint

NOW = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)


def sub(**fields: Any) -> Subscription:
    base: dict[str, Any] = {
        "guild_id": 10,
        "channel_id": 20,
        "theme": Theme.PAPER_OF_THE_DAY,
        "time": dt.time(9, 30),
        "timezone": "America/New_York",
        "created_by": 3,
        "created_at": NOW,
    }
    return Subscription.model_validate({**base, **fields})


async def test_round_trip_keeps_every_field(db: Database) -> None:
    repo = SubscriptionRepository(db)
    original = sub(
        theme=Theme.VENUE_SPOTLIGHT,
        days={4},
        language="zh-TW",
        role_id=99,
        filters=DigestFilter(venue="icml", year_from=2020),
    )
    stored = await repo.add(original)
    assert stored.id is not None
    assert await repo.get(stored.id) == stored
    assert stored.model_copy(update={"id": None}) == original
    assert await repo.in_guild(10) == [stored]
    assert await repo.in_guild(11) == []


async def test_status_update_and_remove(db: Database) -> None:
    repo = SubscriptionRepository(db)
    a = await repo.add(sub())
    b = await repo.add(sub(channel_id=21))
    assert a.id is not None
    assert b.id is not None
    paused = await repo.set_status(a.id, "paused", "manual")
    assert (paused.status, paused.paused_reason) == ("paused", "manual")
    assert await repo.active() == [b]
    edited = await repo.update(b.model_copy(update={"time": dt.time(7, 0)}))
    assert edited.time == dt.time(7, 0)
    resumed = await repo.set_status(a.id, "active", None)
    assert resumed.paused_reason is None
    assert await repo.remove(a.id) is True
    assert await repo.remove(a.id) is False
    assert await repo.get(a.id) is None
    with pytest.raises(LookupError):
        await repo.set_status(a.id, "active", None)


async def test_pause_channel_reports_each_subscription_once(db: Database) -> None:
    repo = SubscriptionRepository(db)
    first = await repo.add(sub())
    await repo.add(sub(theme=Theme.TEST_OF_TIME))
    await repo.add(sub(channel_id=30))
    paused = await repo.pause_channel(20, "forbidden")
    assert {s.theme for s in paused} == {Theme.PAPER_OF_THE_DAY, Theme.TEST_OF_TIME}
    assert all(s.paused_reason == "forbidden" for s in paused)
    assert await repo.pause_channel(20, "not-found") == []
    assert first.id is not None
    stored = await repo.get(first.id)
    assert stored is not None
    assert stored.paused_reason == "forbidden"


async def test_a_guild_holds_at_most_25(db: Database) -> None:
    repo = SubscriptionRepository(db)
    for _ in range(MAX_SUBSCRIPTIONS_PER_GUILD):
        await repo.add(sub())
    with pytest.raises(UserError) as raised:
        await repo.add(sub())
    assert raised.value.key == "digests-too-many"
    assert len(await repo.in_guild(10)) == MAX_SUBSCRIPTIONS_PER_GUILD
    await repo.add(sub(guild_id=11))  # another guild is not affected


async def test_watermark_starts_at_the_newest_audit_row(db: Database) -> None:
    def audit(conn: Connection) -> None:
        for n in range(3):
            conn.execute(
                "INSERT INTO audit (at, actor, batch, action, entity, entity_id) "
                "VALUES ('t', 'test', 'b', 'add', 'award', ?)",
                (str(n),),
            )

    await db.write(audit)
    repo = SubscriptionRepository(db)
    stored = await repo.add(sub())
    assert stored.id is not None
    assert await repo.audit_watermark(stored.id) == 3


async def test_the_schedule_reads_timings_whose_fingerprint_follows_every_edit(
    db: Database,
) -> None:
    repo = SubscriptionRepository(db)
    stored = await repo.add(
        sub(theme=Theme.VENUE_SPOTLIGHT, days={4}, role_id=99, filters=DigestFilter(venue="icml"))
    )
    other = await repo.add(sub(channel_id=21))
    await repo.set_status(other.id or 0, "paused", "manual")
    (row,) = await repo.active_timings()  # the paused one is not scheduled
    assert row.id == stored.id
    assert row.timing == stored.timing
    assert row.timing.zone.key == "America/New_York"
    assert row.created_at == NOW
    # The same number from the row and from the model: `scheduled` and a resync agree.
    assert row.fingerprint == fingerprint(stored)
    edited = await repo.update(stored.model_copy(update={"language": "zh-CN"}))
    (again,) = await repo.active_timings()
    assert again.fingerprint == fingerprint(edited) != row.fingerprint
    assert again.timing == row.timing  # the language is no part of when it posts


async def test_by_ids_reads_many_and_skips_the_removed(db: Database) -> None:
    repo = SubscriptionRepository(db)
    made = [await repo.add(sub(guild_id=10 + n // 25, channel_id=100 + n)) for n in range(30)]
    ids = [s.id or 0 for s in made]
    await repo.remove(ids[3])
    found = await repo.by_ids([*ids, 999_999])
    assert sorted(found) == sorted(set(ids) - {ids[3]})
    assert found[ids[29]] == made[29]


async def test_active_timings_reads_every_page(db: Database) -> None:
    repo = SubscriptionRepository(db, page=7)
    made = [await repo.add(sub(guild_id=10 + n // 25, channel_id=100 + n)) for n in range(30)]
    await repo.set_status(made[7].id or 0, "paused", "manual")  # a page's last row, skipped
    rows = await repo.active_timings()
    assert [r.id for r in rows] == [s.id for n, s in enumerate(made) if n != 7]


async def test_an_update_writes_every_editable_field_and_keeps_guild_and_creator(
    db: Database,
) -> None:
    repo = SubscriptionRepository(db)
    stored = await repo.add(sub())
    changed = {
        "channel_id": 21,
        "theme": Theme.TEST_OF_TIME,
        "days": {0, 6},
        "time": dt.time(18, 5),
        "timezone": "Asia/Taipei",
        "language": "zh-CN",
        "role_id": 77,
        "filters": DigestFilter(venue="iclr", year_to=2020),
        "status": "paused",
        "paused_reason": "manual",
    }
    # Guild, creator and creation time are no part of an edit: what is given for them is not kept.
    given = stored.model_copy(update={**changed, "guild_id": 11, "created_by": 4})
    edited = await repo.update(given)
    assert edited == stored.model_copy(update=changed)
    assert await repo.get(stored.id or 0) == edited
    assert await repo.active_timings() == []  # paused: off the schedule


async def test_any_theme_name_is_stored_and_only_a_name(db: Database) -> None:
    """A theme is a module of bot/digests/themes (issue 26): a new one needs no migration, and
    the column still refuses what is no theme name (migration 0009, PostgreSQL's 0005)."""
    repo = SubscriptionRepository(db)
    stored = await repo.add(sub(theme="edition-roll", cadence="daily"))
    assert stored.id is not None
    assert (await repo.get(stored.id)) == stored
    assert stored.theme == "edition-roll"

    def rename(conn: Connection) -> None:
        conn.execute("UPDATE subscriptions SET theme = 'Edition Roll' WHERE id = ?", (stored.id,))

    with pytest.raises(integrity_errors()):
        await db.write(rename)
    assert (await repo.get(stored.id)) == stored


def test_the_theme_migration_keeps_every_subscription_and_its_posts(tmp_path: Path) -> None:
    """Migration 0009 moves the theme names to a column without the list of five; the rows and
    the ledger rows that cascade from them stay (dropping a column deletes no row)."""
    conn = sqlite3.connect(tmp_path / "old.db", isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    for migration in [m for m in available() if m.version < 9]:
        conn.executescript(f"{migration.sql}\nPRAGMA user_version = {migration.version};")
    conn.execute(
        "INSERT INTO subscriptions (id, guild_id, channel_id, theme, cadence, days, time, "
        "timezone, language, status, created_by, created_at) VALUES (5, 1, 2, 'new-awards', "
        "'weekly', 1, '09:00', 'UTC', 'en', 'active', 3, '2026-01-01T00:00:00+00:00')"
    )
    conn.execute(
        "INSERT INTO digest_ledger (subscription_id, period, status, theme, nonce, reserved_at) "
        "VALUES (5, '2026-W01', 'sent', 'new-awards', 'n1', '2026-01-01T09:00:00+00:00')"
    )
    assert [m.version for m in migrate(conn, None, NOW)] == [9, 10]
    assert conn.execute("SELECT id, theme FROM subscriptions").fetchall() == [(5, "new-awards")]
    assert conn.execute("SELECT subscription_id FROM digest_ledger").fetchall() == [(5,)]
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("UPDATE subscriptions SET theme = 'New Awards'")
