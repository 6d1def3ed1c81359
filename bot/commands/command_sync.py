"""Whether the commands Discord holds are the tree the bot would push.

Discord answers a command with fields of its own (ids, versions) and leaves out what is at
its default (an option that is not required, an empty list of localizations); the tree's
payload writes some defaults out. Both are brought to one shape before they are compared.
"""

from __future__ import annotations

from typing import Any

# Set by Discord, never by the bot.
_ASSIGNED = frozenset({"id", "application_id", "version", "guild_id", "default_permission"})
# Discord's defaults, which one side may write out and the other leave out.
_DEFAULTS: dict[str, object] = {"type": 1, "dm_permission": True, "integration_types": [0]}


def same_commands(held: list[dict[str, Any]], tree: list[dict[str, Any]]) -> bool:
    """Whether `held` (Discord's answer) defines exactly the commands of `tree` (the payload)."""

    def by_name(commands: list[dict[str, Any]]) -> dict[tuple[str, object], object]:
        return {(c["name"], c.get("type", 1)): _shape(c, top=True) for c in commands}

    return by_name(held) == by_name(tree)


def _shape(value: Any, *, top: bool = False) -> Any:
    if isinstance(value, dict):
        shaped = {}
        for key, item in value.items():
            if top and (key in _ASSIGNED or _DEFAULTS.get(key, object()) == item):
                continue
            item = _shape(item)
            if item in (None, False, "", [], {}):  # absent and empty are one
                continue
            shaped[key] = item
        return shaped
    if isinstance(value, list):
        return [_shape(item) for item in value]
    return value
