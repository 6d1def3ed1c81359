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

    def groups(self) -> list[ChangeGroup]:
        """What is new first (additions, then merges), then what would change, grouped by
        the fields it changes (the why), then removals; unchanged records are a count in the
        summary (issue 25, item 13: additions were buried under 556 changed awards)."""
        found: dict[tuple[Action, Entity, tuple[str, ...]], list[str]] = {}
        for change in self.changes:
            if change.action == "unchanged":
                continue
            fields = change.fields if change.action in ("change", "merge") else ()
            found.setdefault((change.action, change.entity, fields), []).append(change.label)
        order = {"add": 0, "merge": 1, "change": 2, "remove": 3}
        ordered = sorted(found.items(), key=lambda item: (order[item[0][0]], -len(item[1])))
        groups: list[ChangeGroup] = []
        for (action, entity, fields), labels in ordered:
            if action in ("add", "remove") or len(labels) == 1:
                groups += [ChangeGroup(action, entity, fields, (label,)) for label in labels]
            else:
                groups.append(ChangeGroup(action, entity, fields, tuple(labels)))
        return groups

    def details(self) -> list[str]:
        """A line for every record added or removed, one for each kind of change (how many,
        which fields, a few of them), then the rejected."""
        lines = []
        for group in self.groups():
            why = f"  [{', '.join(group.fields)}]" if group.fields else ""
            if len(group.labels) == 1:
                lines.append(f"{group.action:<7} {group.entity:<7} {group.labels[0]}{why}")
            else:
                examples = "; ".join(group.labels[:EXAMPLES])
                more = (
                    f"; … {len(group.labels) - EXAMPLES} more"
                    if len(group.labels) > EXAMPLES
                    else ""
                )
                lines.append(
                    f"{group.action:<7} {len(group.labels)} {group.entity}s{why}: {examples}{more}"
                )
        lines += [f"reject  {r.where}: {r.reason}" for r in self.rejected]
        return lines


EXAMPLES = 3  # labels named in a line that stands for many records


@dataclass(frozen=True, slots=True)
class ChangeGroup:
    """Records of one entity with one action (and, for changes, the same fields changed)."""

    action: Action
    entity: Entity
    fields: tuple[str, ...]
    labels: tuple[str, ...]
