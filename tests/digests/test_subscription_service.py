"""SubscriptionService: each change reaches the schedule by itself (issue 26, item 1).

The ticker re-reads the schedule every RESYNC_TICKS ticks, a safety net; these tests tick
once a day, at the posts' time, fewer times than that: what posts or stays silent is what the
service told the schedule."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest

from bot.digests.ticker import RESYNC_TICKS
from bot.domain.subscriptions import MAX_SUBSCRIPTIONS_PER_GUILD, Subscription, Theme
from bot.errors import UserError
from tests.support.digests import START, Rig

DAY = dt.timedelta(days=1)


def new(rig: Rig, **fields: Any) -> Subscription:
    base: dict[str, Any] = {
        "guild_id": 1,
        "channel_id": 100,
        "theme": Theme.PAPER_OF_THE_DAY,
        "time": dt.time(9, 0),
        "timezone": "UTC",
        "created_by": 7,
        "created_at": rig.clock.now(),
    }
    return Subscription.model_validate({**base, **fields})


def refused(twin: Subscription) -> UserError:
    return UserError("digest-error-duplicate", heading=f"#{twin.id}")


async def tick_on(rig: Rig, day: int) -> None:
    """One tick on the `day`th day after START, at 09:00, the posts' time."""
    rig.clock.set(START + day * DAY + dt.timedelta(hours=9))
    await rig.engine.run_due()


async def test_a_new_subscription_posts_without_anyone_scheduling_it(rig: Rig) -> None:
    await rig.engine.ticker.tick()  # the schedule is read once, empty, before it subscribes
    assert RESYNC_TICKS > 2
    await rig.engine.subscriptions.subscribe(new(rig), refused)
    await tick_on(rig, 0)
    assert rig.deliverer.periods(100) == ["2026-01-05"]


async def test_pause_resume_edit_and_remove_reach_the_schedule(rig: Rig) -> None:
    assert RESYNC_TICKS > 4
    await rig.engine.ticker.tick()
    service = rig.engine.subscriptions
    sub = await service.subscribe(new(rig), refused)
    assert sub.id is not None
    await service.pause(sub.id)
    await tick_on(rig, 0)
    assert rig.deliverer.periods(100) == []
    resumed = await service.resume(sub.id)
    moved = await service.edit(resumed, resumed.model_copy(update={"channel_id": 200}), refused)
    await tick_on(rig, 1)
    assert (rig.deliverer.periods(100), rig.deliverer.periods(200)) == ([], ["2026-01-06"])
    assert moved.id is not None
    assert await service.remove(moved.id) is True
    await tick_on(rig, 2)
    assert rig.deliverer.periods(200) == ["2026-01-06"]


async def test_the_service_refuses_a_twin_and_a_full_server(rig: Rig) -> None:
    service = rig.engine.subscriptions
    first = await service.subscribe(new(rig), refused)
    with pytest.raises(UserError) as raised:
        await service.subscribe(new(rig), refused)
    assert raised.value.params == {"heading": f"#{first.id}"}
    other = await service.subscribe(new(rig, channel_id=101), refused)
    with pytest.raises(UserError):  # editing one into the other's channel makes a twin
        await service.edit(other, other.model_copy(update={"channel_id": 100}), refused)
    for channel in range(102, 100 + MAX_SUBSCRIPTIONS_PER_GUILD):
        await service.subscribe(new(rig, channel_id=channel), refused)
    with pytest.raises(UserError) as full:
        await service.subscribe(new(rig, channel_id=999), refused)
    assert full.value.key == "digests-too-many"
