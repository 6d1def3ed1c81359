"""The mention check's memory (tests/support/mentions.py): a role a subscription opted in to
stays allowed in its channel after the subscription is edited or removed, kept by the
database's own trigger rather than by a patch on Laurel's repository (issue 26)."""

from __future__ import annotations

import datetime as dt

from bot.domain.subscriptions import Subscription, Theme
from bot.store.database import Database
from bot.store.subscriptions import SubscriptionRepository
from tests.support.mentions import OptInHistory, opted_in_roles

ROLE, CHANNEL = 700, 20


def with_role() -> Subscription:
    return Subscription.model_validate(
        {
            "guild_id": 10,
            "channel_id": CHANNEL,
            "theme": Theme.PAPER_OF_THE_DAY,
            "time": dt.time(9, 30),
            "timezone": "UTC",
            "created_by": 3,
            "created_at": dt.datetime(2026, 3, 2, tzinfo=dt.UTC),
            "role_id": ROLE,
        }
    )


async def test_a_removed_or_edited_subscriptions_role_stays_allowed(db: Database) -> None:
    history = OptInHistory(db)
    await history.install()
    repo = SubscriptionRepository(db)
    edited = await repo.add(with_role())
    removed = await repo.add(with_role().model_copy(update={"channel_id": CHANNEL + 1}))
    await repo.update(edited.model_copy(update={"role_id": None}))
    await repo.remove(removed.id or 0)
    assert await opted_in_roles(db) == {}  # what the table holds now
    assert await opted_in_roles(db, history) == {CHANNEL: {ROLE}, CHANNEL + 1: {ROLE}}
