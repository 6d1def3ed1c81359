"""What every write to the catalogue is made with: who writes, under which policy, in which
batch, and when. One `WriteContext` per write; each audit row the write leaves says the same."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import Literal

# What a record does when it meets one already stored (bot/store/catalog/writer.py says more):
# `update` replaces, `fill` only fills gaps (keeping disagreements as alternatives), `bundle`
# updates but leaves what curators changed or removed as they left it.
Policy = Literal["update", "fill", "bundle"]


@dataclass(frozen=True, slots=True)
class WriteContext:
    actor: str
    policy: Policy
    batch_id: str
    at: dt.datetime  # aware, UTC: from the composition root's Clock
    # A curator's confirmed addition: an award whose paper is already stored is rejected, not
    # merged, so that it cannot turn into a change of another paper.
    new_papers_only: bool = False

    def __post_init__(self) -> None:
        if self.at.tzinfo is None:
            raise ValueError("a write's time must be timezone-aware")

    @property
    def stamp(self) -> str:
        """The time as the audit log and `removed_at` hold it: ISO 8601, UTC, to the second."""
        return self.at.astimezone(dt.UTC).isoformat(timespec="seconds")
