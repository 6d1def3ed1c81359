"""What an import or a curator's write did, or would do, in the reader's language.

`Plan.summary()` and `Plan.details()` are the command line's English; these are the same
tally and lines with every word from the locale files. Labels (titles, venue keys) and field
names are data, and are shown as they are; why a record was rejected is said in the reader's
language (bot/render/problems.py).
"""

from __future__ import annotations

from collections import Counter

from bot.domain.models import Language
from bot.domain.plan import ACTIONS, EXAMPLES, Plan
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
    """What is new first, then what would change and why (grouped), then the rejected, in
    `language`; unchanged records are counted in the summary only."""
    lines = []
    for group in plan.groups():
        action = strings.text(f"plan-action-{group.action}", language)
        why = f"  [{', '.join(group.fields)}]" if group.fields else ""
        if len(group.labels) == 1:
            entity = strings.text(f"plan-entity-{group.entity}", language)
            lines.append(f"{action} {entity} {group.labels[0]}{why}")
            continue
        things = strings.text(f"plan-{group.entity}-many", language, count=len(group.labels))
        examples = strings.text("plan-separator", language).join(group.labels[:EXAMPLES])
        more = len(group.labels) - EXAMPLES
        if more > 0:
            examples += strings.text("plan-more", language, count=more)
        lines.append(
            strings.text("plan-group", language, action=action, things=things, why=why,
                         examples=examples)
        )  # fmt: skip
    reject = strings.text("plan-action-reject", language)
    lines += [
        f"{reject} {r.where}: {rejection_reason(r, strings, language)}" for r in plan.rejected
    ]
    return lines
