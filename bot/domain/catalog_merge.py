"""How a record's incoming values meet the stored ones, under a write's policy: the catalogue's
merge rules, pure (the store's writer, `bot.store.catalog.writer`, applies them).

Values are a record's stored form (`bot.store.rows`): dicts of column values whose JSON
columns hold lists and dicts, as the audit log keeps them.
"""

from __future__ import annotations

from typing import Any

from bot.domain.models import Source
from bot.domain.writes import WriteContext

_UNION_FIELDS = frozenset({"aliases", "sources", "alternatives"})
_MAPPING_FIELDS = frozenset({"links", "summaries"})
# A field that describes another: it is taken with the value it describes, never on its own
# (a complete author list stays complete when a source with a cut-short one meets it).
_FOLLOWS = {"authors_incomplete": "authors"}


def merge(
    context: WriteContext,
    before: dict[str, Any],
    incoming: dict[str, Any],
    sources: list[Any] | None,
    curated: frozenset[str] = frozenset(),
) -> dict[str, Any]:
    """The record after `incoming` met `before`; `curated` fields (under `bundle`) stay."""
    after = dict(before)
    for field, new in incoming.items():
        old = before.get(field)
        if new in (None, [], {}) or field in _FOLLOWS or field in curated:
            continue
        if field in _UNION_FIELDS:
            after[field] = list(old or []) + [x for x in new if not _held(x, old or [])]
        elif field in _MAPPING_FIELDS:
            mine = {key for key in new if f"{field}.{key}" in curated}
            kept = {k: v for k, v in new.items() if k not in mine}
            after[field] = _merge_mapping(context, field, old or {}, kept, sources, after)
        elif old in (None, [], {}) or context.policy != "fill":
            after[field] = new
        elif old != new:
            _keep_alternative(context, after, field, new, sources)
    for field, leader in _FOLLOWS.items():
        if field in curated or field not in incoming or not incoming.get(leader):
            continue
        if after.get(leader) == incoming[leader]:
            after[field] = incoming[field]
    return after


def _held(item: Any, stored: list[Any]) -> bool:
    """Whether `item` adds nothing to `stored`: it is there, or (a source) it says only part of
    what one there says, as the link alone that a CSV export writes of a source does."""
    if item in stored:
        return True
    return isinstance(item, dict) and any(
        isinstance(kept, dict) and all(kept.get(k) == v for k, v in item.items()) for kept in stored
    )


def latest(old: int | None, new: int | None) -> int | None:
    return max((v for v in (old, new) if v is not None), default=None)


def _merge_mapping(
    context: WriteContext,
    field: str,
    old: dict[str, Any],
    new: dict[str, Any],
    sources: list[Any] | None,
    after: dict[str, Any],
) -> dict[str, Any]:
    merged = dict(old)
    for key, value in new.items():
        if key not in old or context.policy != "fill":
            merged[key] = value
        elif old[key] != value:
            _keep_alternative(context, after, f"{field}.{key}", value, sources)
    return merged


def _keep_alternative(
    context: WriteContext,
    after: dict[str, Any],
    field: str,
    value: Any,
    sources: list[Any] | None,
) -> None:
    if "alternatives" not in after:
        return  # venues keep no alternatives: the stored value stands
    source = (sources or [None])[0] or Source(document=f"import by {context.actor}").model_dump(
        mode="json", exclude_none=True
    )
    alternative = {
        "field": field,
        "value": value,
        "source": source,
        "reason": "given by a later import; the value already in the catalogue is kept",
    }
    existing = after.get("alternatives") or []
    if not any(a["field"] == field and a["value"] == value for a in existing):
        after["alternatives"] = [*existing, alternative]
