"""One change to the catalogue as the audit log holds it: who made it, when, and the record
before and after (read by `bot.store.audit`, shown by `bot.render.curate`)."""

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
