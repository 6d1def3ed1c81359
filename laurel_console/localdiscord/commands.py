"""Registered application commands: bulk overwrite, listing, and lookup for invocation."""

from __future__ import annotations

import copy
from typing import Any

from laurel_console.localdiscord.state import World

CHAT_INPUT, USER, MESSAGE = 1, 2, 3
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2


class CommandRegistry:
    """World.commands keyed by scope: None for global commands, else a guild id."""

    def __init__(self, world: World) -> None:
        self.world = world

    def list_for(self, guild_id: int | None) -> list[dict[str, Any]]:
        return copy.deepcopy(self.world.commands.get(guild_id, []))

    def overwrite(self, guild_id: int | None, given: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """PUT semantics: the new list replaces the old; a command keeps its id when its name
        and type stay, and gets a new version only when its definition changed."""
        old = {_key(c): c for c in self.world.commands.get(guild_id, [])}
        result = []
        for body in given:
            command = self._normalise(guild_id, body)
            previous = old.get((command["name"], command["type"]))
            if previous is not None:
                command["id"] = previous["id"]
                same = _definition(previous) == _definition(command)
                command["version"] = previous["version"] if same else str(self.world.ids.next())
            result.append(command)
        self.world.commands[guild_id] = result
        return copy.deepcopy(result)

    def upsert(self, guild_id: int | None, body: dict[str, Any]) -> dict[str, Any]:
        """POST semantics: create, or overwrite the command of the same name and type."""
        key = (body["name"], body.get("type", CHAT_INPUT))
        bodies = [
            body if _key(c) == key else _definition(c)
            for c in self.world.commands.get(guild_id, [])
        ]
        if body not in bodies:
            bodies.append(body)
        return next(c for c in self.overwrite(guild_id, bodies) if _key(c) == key)

    def delete(self, guild_id: int | None, command_id: int) -> bool:
        current = self.world.commands.get(guild_id, [])
        kept = [c for c in current if int(c["id"]) != command_id]
        self.world.commands[guild_id] = kept
        return len(kept) != len(current)

    def find(self, name: str, guild_id: int | None, type: int = CHAT_INPUT) -> dict[str, Any]:
        """The command a user in `guild_id` sees under `name`: guild commands shadow global."""
        scopes: list[int | None] = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for command in self.world.commands.get(scope, []):
                if command["name"] == name and command["type"] == type:
                    return command
        names = sorted({c["name"] for s in scopes for c in self.world.commands.get(s, [])})
        raise LookupError(f"no registered command {name!r}; registered: {names}")

    def _normalise(self, guild_id: int | None, body: dict[str, Any]) -> dict[str, Any]:
        command_type = body.get("type", CHAT_INPUT)
        command: dict[str, Any] = {
            "id": str(self.world.ids.next()),
            "application_id": str(self.world.application_id),
            "version": str(self.world.ids.next()),
            "type": command_type,
            "name": body["name"],
            "name_localizations": body.get("name_localizations"),
            "description": body.get("description", "") if command_type == CHAT_INPUT else "",
            "description_localizations": body.get("description_localizations"),
            "default_member_permissions": body.get("default_member_permissions"),
            "nsfw": bool(body.get("nsfw", False)),
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types") or [0],
        }
        if guild_id is not None:
            command["guild_id"] = str(guild_id)
        else:
            command["dm_permission"] = body.get("dm_permission", True)
        if body.get("options"):
            command["options"] = copy.deepcopy(body["options"])
        return command


_VOLATILE = ("id", "version", "application_id", "guild_id")


def _definition(command: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in command.items() if k not in _VOLATILE}


def _key(command: dict[str, Any]) -> tuple[str, int]:
    return command["name"], command.get("type", CHAT_INPUT)
