"""Documents nested deeper than any catalogue needs are refused before they are parsed whole.

The parsers (tomllib, PyYAML's composer, json) recurse once per level of nesting, so a few
thousand `[` end in a RecursionError. A catalogue is five levels deep, settings three; past
MAX_DEPTH a document is refused with NestedTooDeep: TOML by a scan of its brackets before
tomllib sees it (dotted keys nest without recursion, and are measured after), YAML while it is
composed, at the level that goes too deep (bot.catalog.yaml_reader). A RecursionError that
slips by is refused the same.
"""

from __future__ import annotations

from typing import Any

from bot.errors import LaurelError

MAX_DEPTH = 64


class NestedTooDeep(LaurelError):
    def __init__(self, origin: str, limit: int = MAX_DEPTH) -> None:
        super().__init__(
            f"{origin}: nested more than {limit} levels deep; no catalogue or settings file "
            "needs that, so it was not read"
        )
        self.origin = origin
        self.limit = limit


def check_toml(text: str, origin: str) -> None:
    """Refuse `text` if its arrays, inline tables and dotted keys nest past MAX_DEPTH.

    Strings and comments are skipped; a string that does not close is left for tomllib to
    report. A dotted key (`a.b.c = 1`, `[a.b.c]`) nests one level per dot.
    """
    depth, key_dots, in_key, i, n = 0, 0, True, 0, len(text)
    while i < n:
        char = text[i]
        if char == "#":
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if char in "\"'":
            i = _after_string(text, i)
            continue
        if char in "[{":
            depth += 1
        elif char in "]}":
            depth = max(0, depth - 1)
        if char in "\n{,":
            key_dots, in_key = 0, True
        elif char == "=":
            in_key = False
        elif char == "." and in_key:
            key_dots += 1
        if depth + key_dots > MAX_DEPTH:
            raise NestedTooDeep(origin)
        i += 1


def _after_string(text: str, start: int) -> int:
    quote = text[start] * 3 if text.startswith(text[start] * 3, start) else text[start]
    escapes = text[start] == '"'
    i, n = start + len(quote), len(text)
    while i < n and not text.startswith(quote, i):
        if escapes and text[i] == "\\":
            i += 2
            continue
        if len(quote) == 1 and text[i] == "\n":
            return i
        i += 1
    return i + len(quote)


def check_data(data: Any, origin: str) -> None:
    """Refuse parsed `data` nested past MAX_DEPTH (measured without recursion)."""
    stack = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise NestedTooDeep(origin)
        if isinstance(value, dict):
            stack += [(item, depth + 1) for item in value.values()]
        elif isinstance(value, list | tuple):
            stack += [(item, depth + 1) for item in value]
