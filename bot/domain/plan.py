"""What a write did, or would do: the report shown for a dry run and after an import."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from bot.domain.models import Rejection

Action = Literal["add", "change", "merge", "remove", "unchanged"]
ACTIONS: tuple[Action, ...] = ("add", "change", "merge", "remove", "unchanged")  # as reported
Entity = Literal["venue", "edition", "paper", "award"]


@dataclass(frozen=True, slots=True)
class Change:
    """One record of the batch and what became of it.

    `merge` is a paper that resolved to one already in the catalogue (by arXiv id, DOI or title
    within the edition) and brought something new to it; `unchanged` brought nothing new.
    """

    action: Action
    entity: Entity
    label: str
    fields: tuple[str, ...] = ()


@dataclass(slots=True)
class Plan:
    changes: list[Change] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    batch: str = ""

    def count(self, action: Action, entity: Entity | None = None) -> int:
        return sum(1 for c in self.changes if c.action == action and entity in (None, c.entity))

    @property
    def changes_anything(self) -> bool:
        return any(c.action != "unchanged" for c in self.changes)

    def summary(self) -> str:
        """`add: 8 papers, 8 awards · merge: 1 paper · unchanged: 2 venues · rejected: 1`."""
        tally = Counter((c.action, c.entity) for c in self.changes)
        parts = []
        for action in ACTIONS:
            entities = [
                f"{n} {entity}{'s' if n != 1 else ''}"
                for (a, entity), n in sorted(tally.items())
                if a == action
            ]
            if entities:
                parts.append(f"{action}: {', '.join(entities)}")
        parts.append(f"rejected: {len(self.rejected)}")
        return " · ".join(parts)

    def details(self) -> list[str]:
        """A line for every record that is added, changed, merged or rejected."""
        lines = [
            f"{c.action:<7} {c.entity:<7} {c.label}"
            + (f"  [{', '.join(c.fields)}]" if c.fields and c.action != "add" else "")
            for c in self.changes
            if c.action != "unchanged"
        ]
        lines += [f"reject  {r.where}: {r.reason}" for r in self.rejected]
        return lines
