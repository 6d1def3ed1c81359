"""What an import or a curator's write did, or would do, in the reader's language.

`Plan.summary()` and `Plan.details()` are the command line's English; these are the same
tally and lines with every word from the locale files. Labels (titles, venue keys) and field
names are data, and are shown as they are; why a record was rejected is said in the reader's
language (bot/render/problems.py).
"""

from __future__ import annotations

from collections import Counter

from bot.domain.models import Language
from bot.domain.plan import ACTIONS, Plan
from bot.render.i18n import Strings
from bot.render.problems import rejection_reason


def plan_summary(plan: Plan, strings: Strings, language: Language) -> str:
    """`add: 8 papers, 8 awards · merge: 1 paper · rejected: 1`, in `language`."""
    tally = Counter((c.action, c.entity) for c in plan.changes)
    separator = strings.text("plan-separator", language)
    parts = []
    for action in ACTIONS:
        things = [
            strings.text(f"plan-{entity}-{'one' if n == 1 else 'many'}", language, count=n)
            for (done, entity), n in sorted(tally.items())
            if done == action
        ]
        if things:
            name = strings.text(f"plan-action-{action}", language)
            parts.append(
                strings.text("plan-part", language, action=name, things=separator.join(things))
            )
    parts.append(strings.text("plan-rejected", language, count=len(plan.rejected)))
    return " · ".join(parts)


def plan_lines(plan: Plan, strings: Strings, language: Language) -> list[str]:
    """A line for every record that is added, changed, merged or rejected, in `language`."""
    lines = []
    for change in plan.changes:
        if change.action == "unchanged":
            continue
        action = strings.text(f"plan-action-{change.action}", language)
        entity = strings.text(f"plan-entity-{change.entity}", language)
        fields = (
            f"  [{', '.join(change.fields)}]" if change.fields and change.action != "add" else ""
        )
        lines.append(f"{action} {entity} {change.label}{fields}")
    reject = strings.text("plan-action-reject", language)
    lines += [
        f"{reject} {r.where}: {rejection_reason(r, strings, language)}" for r in plan.rejected
    ]
    return lines
