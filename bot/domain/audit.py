"""One change to the catalogue as the audit log holds it: who made it, when, and the record
before and after (read by `bot.store.catalog.audit`, shown by `bot.render.curate`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class AuditEntry:
    id: int
    at: str
    actor: str
    batch: str
    action: str
    entity: str
    entity_id: str
    before: dict[str, Any] | None
    after: dict[str, Any] | None

    @property
    def fields(self) -> tuple[str, ...]:
        """The fields this change touched (every field given, for an addition)."""
        after = self.after or {}
        if self.before is None:
            return tuple(k for k, v in after.items() if v not in (None, [], {}))
        return tuple(k for k in after if self.before.get(k) != after[k])


@dataclass(frozen=True, slots=True)
class AuditGroup:
    """One write's rows in the history: a curator's change (shown row by row), or a load of
    bundled data or an import (folded into one line)."""

    batch: str
    actor: str
    first: int  # the ids of its rows, first and last
    last: int
    count: int
    at: str  # when its first row was written
    adds: int
    removes: int

    @property
    def by_curator(self) -> bool:
        return self.actor.startswith("discord:")


class UndoRefused(Exception):
    """An audit row that cannot be reverted; `reason` names why, `params` fill in the words."""

    def __init__(self, reason: str, **params: object) -> None:
        super().__init__(reason)
        self.reason = reason
        self.params = params
