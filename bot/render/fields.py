"""A stored field as a curator reads it (issue 25, item 12): its name in the reader's
language, its value by name ("ICML 2025" for an edition id, "Best paper" for a kind, "3
sources"), in the history and in what a write says it changed."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.domain.models import AwardKind, Language
from bot.render.awards import kind_label
from bot.render.i18n import Strings
from bot.render.markdown import esc

HIDDEN = frozenset({"alternatives", "title_key", "removed_at"})  # shown as the action instead
VALUE_SHOWN = 300  # one side of "before → after" is cut to about this


def show_value(value: Any) -> str:
    """A stored value as one short line: lists joined, mappings as `key: value`."""
    if value in (None, [], {}, ""):
        return "—"
    if isinstance(value, list):
        text = "; ".join(show_value(v) if isinstance(v, dict | list) else str(v) for v in value)
    elif isinstance(value, dict):
        text = ", ".join(f"{k}: {v}" for k, v in value.items())
    else:
        text = str(value)
    text = esc(text.replace("\n", " "))
    return text if len(text) <= VALUE_SHOWN else text[: VALUE_SHOWN - 1] + "…"


def same(a: Any, b: Any) -> bool:
    def blank(v: Any) -> Any:
        return None if v in ([], {}) else v

    return json.dumps(blank(a), sort_keys=True) == json.dumps(blank(b), sort_keys=True)


def field_name(key: str, strings: Strings, language: Language) -> str:
    return strings.optional(f"curate-field-{key}", language) or key


def field_value(
    key: str,
    value: Any,
    strings: Strings,
    language: Language,
    editions: Mapping[int, str] | None = None,
) -> str:
    if value in (None, [], {}, ""):
        return "—"
    if key == "edition_id":
        return esc((editions or {}).get(int(value), f"#{value}"))
    if key == "paper_id":
        return f"#{value}"
    if key == "kind" and value in AwardKind._value2member_map_:
        return kind_label(AwardKind(value), strings, language)
    if key == "sources" and isinstance(value, list):
        return strings.text("curate-sources-count", language, count=len(value))
    if key == "summaries" and isinstance(value, dict):
        return ", ".join(sorted(value))
    return show_value(value)
