"""Reading a message as Discord received it by what it means: a named field's value, the
papers its numbered Open buttons lead to. Tests assert on these, not on a dump of the embed."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def fields(embed: Mapping[str, Any]) -> dict[str, str]:
    """An embed's fields, value by name."""
    return {str(f["name"]): str(f["value"]) for f in embed.get("fields", [])}


def custom_ids(message: Mapping[str, Any]) -> list[str]:
    return [str(c["custom_id"]) for row in message["components"] for c in row["components"]]


def opened(message: Mapping[str, Any]) -> list[int]:
    """The papers a list's numbered Open buttons lead to, in the list's order (the filters
    they keep follow the id: `paper:open:<id>[:<venue>:<year>:<kind>]`)."""
    prefix = "paper:open:"
    return [
        int(c[len(prefix) :].split(":")[0]) for c in custom_ids(message) if c.startswith(prefix)
    ]
