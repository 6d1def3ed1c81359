"""What the digest ledger holds and what a reservation picks: one row per (subscription,
period), reserved before anything is sent (stored by `bot.store.ledger`)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from bot.domain.subscriptions import CycleState

EntryStatus = Literal["pending", "sent", "failed", "empty"]


@dataclass(frozen=True, slots=True)
class Choice:
    """What a reservation picked: `content` ({} when there is nothing to post), and the
    picker state to store with it (None: unchanged)."""

    content: dict[str, Any] = field(default_factory=dict)
    cycle: CycleState | None = None
    watermark: int | None = None


# (the subscription's cycle state, its new-awards watermark) -> what to post
Chooser = Callable[[CycleState, int], Choice]


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    id: int
    subscription_id: int
    period: str
    status: EntryStatus
    theme: str
    late: bool
    nonce: str
    content: dict[str, Any]
    reserved_at: dt.datetime
    attempted_at: dt.datetime | None
    sent_at: dt.datetime | None
    message_id: int | None
    error: str | None
