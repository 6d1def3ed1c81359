"""Typing a user's input the way Discord's client does: command options, select menu values
and modal fields, each checked against the bot's own definitions, with `resolved` data."""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from laurel_console.localdiscord import payloads
from laurel_console.localdiscord.messages import number_components
from laurel_console.localdiscord.state import Channel, Guild, Role, User, World

STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = (
    3,
    4,
    5,
    6,
    7,
    8,
    9,
    10,
    11,
)
SELECT_RESOLVES = {5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}  # select type -> option type


class Resolver:
    """Turns values into wire values, collecting `resolved` as it goes."""

    def __init__(
        self, world: World, guild: Guild, channel: Channel, user_id: int, *, cdn_base: str
    ) -> None:
        self.world = world
        self.cdn_base = cdn_base  # uploads are served from here, at absolute URLs as Discord's
        self.guild = guild
        self.channel = channel
        self.user_id = user_id
        self.resolved: dict[str, dict[str, Any]] = {}

    # -- command options -------------------------------------------------------------------
    def command_options(
        self,
        command: dict[str, Any],
        path: Sequence[str],
        given: Mapping[str, object],
        focused: str | None,
    ) -> list[dict[str, Any]]:
        definitions: list[dict[str, Any]] = command.get("options", [])
        wrappers = []
        for part in path:
            found = next(
                (o for o in definitions if o["name"] == part and o["type"] in (1, 2)), None
            )
            if found is None:
                raise LookupError(
                    f"/{command['name']} has no subcommand {part!r}; it has "
                    f"{[o['name'] for o in definitions if o['type'] in (1, 2)]}"
                )
            wrappers.append(found)
            definitions = found.get("options", [])
        if any(o["type"] in (1, 2) for o in definitions):
            names = [o["name"] for o in definitions]
            raise ValueError(f"/{command['name']} {' '.join(path)} needs a subcommand: {names}")
        options = self._leaf(definitions, given, focused)
        for wrapper in reversed(wrappers):
            options = [{"type": wrapper["type"], "name": wrapper["name"], "options": options}]
        return options

    def _leaf(
        self, definitions: list[dict[str, Any]], given: Mapping[str, object], focused: str | None
    ) -> list[dict[str, Any]]:
        names = {o["name"] for o in definitions}
        unknown = set(given) - names | ({focused} - names if focused else set())
        if unknown:
            raise ValueError(f"unknown options {sorted(unknown)}; the command has {sorted(names)}")
        options = []
        for definition in definitions:
            name, kind = definition["name"], definition["type"]
            if name == focused:  # what the user has typed so far, always as text
                value = given.get(name, "")
                options.append({"type": kind, "name": name, "value": str(value), "focused": True})
            elif name in given:
                value = self.option_value(definition, given[name])
                options.append({"type": kind, "name": name, "value": value})
            elif definition.get("required") and focused is None:
                raise ValueError(f"required option {name!r} is missing")
        return options

    def option_value(self, definition: dict[str, Any], value: object) -> object:
        kind, name = definition["type"], definition["name"]
        if kind in (STRING, INTEGER, NUMBER):
            return self._scalar(definition, value)
        if kind == BOOLEAN:
            if not isinstance(value, bool):
                raise ValueError(f"option {name!r} takes true or false, not {value!r}")
            return value
        if kind == USER:
            return self.user(value)
        if kind == CHANNEL:
            allowed = definition.get("channel_types")
            return self.channel_value(value, allowed)
        if kind == ROLE:
            return self.role(value)
        if kind == MENTIONABLE:
            try:
                return self.role(value)
            except LookupError:
                return self.user(value)
        if kind == ATTACHMENT:
            return self.attachment(value)
        raise ValueError(f"option {name!r} has unsupported type {kind}")

    def _scalar(self, definition: dict[str, Any], value: object) -> object:
        kind, name = definition["type"], definition["name"]
        choices = definition.get("choices")
        if choices:
            for choice in choices:
                if value in (choice["value"], choice["name"]):
                    return choice["value"]
            raise ValueError(
                f"{value!r} is not a choice of {name!r}: {[c['value'] for c in choices]}"
            )
        if kind == STRING:
            text = str(value)
            low, high = definition.get("min_length", 0), definition.get("max_length", 6000)
            if not low <= len(text) <= high:
                raise ValueError(f"option {name!r} must be {low}-{high} characters")
            return text
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError(f"option {name!r} takes a number, not {value!r}")
        number: int | float = int(value) if kind == INTEGER else float(value)
        low_value, high_value = definition.get("min_value"), definition.get("max_value")
        if (low_value is not None and number < low_value) or (
            high_value is not None and number > high_value
        ):
            raise ValueError(f"option {name!r} must be within [{low_value}, {high_value}]")
        return number

    # -- entities, with their resolved data ------------------------------------------------
    def user(self, value: object) -> str:
        user = self._find_user(value)
        self.resolved.setdefault("users", {})[str(user.id)] = payloads.user(user)
        if member := self.guild.members.get(user.id):
            data = payloads.member(self.world, member, with_user=False)
            data["permissions"] = str(self.guild.permissions_in(self.channel, user.id))
            self.resolved.setdefault("members", {})[str(user.id)] = data
        return str(user.id)

    def _find_user(self, value: object) -> User:
        if isinstance(value, User):
            return value
        if isinstance(value, int) and value in self.world.users:
            return self.world.users[value]
        if isinstance(value, str):
            text = value.strip("<@!>")
            if text.isdigit() and int(text) in self.world.users:
                return self.world.users[int(text)]
            return self.world.find_user(value.lstrip("@"))
        raise LookupError(f"no user {value!r}")

    def channel_value(self, value: object, allowed: list[int] | None = None) -> str:
        channel = self._find_channel(value)
        if allowed and channel.type not in allowed:
            raise ValueError(f"#{channel.name} (type {channel.type}) is not one of {allowed}")
        data = payloads.interaction_channel(self.world, channel, self.user_id)
        self.resolved.setdefault("channels", {})[str(channel.id)] = data
        return str(channel.id)

    def _find_channel(self, value: object) -> Channel:
        if isinstance(value, Channel):
            return value
        if isinstance(value, int) and (channel := self.world.channel(value)):
            return channel
        if isinstance(value, str):
            text = value.strip("<#>")
            if text.isdigit() and (channel := self.world.channel(int(text))):
                return channel
            return self.world.find_channel(value, self.guild)
        raise LookupError(f"no channel {value!r}")

    def role(self, value: object) -> str:
        if isinstance(value, Role):
            role = value
        elif isinstance(value, int) and value in self.guild.roles:
            role = self.guild.roles[value]
        elif isinstance(value, str):
            text = value.strip("<@&>")
            found = self.guild.roles.get(int(text)) if text.isdigit() else None
            role = found or self.world.find_role(value.lstrip("@"), self.guild)
        else:
            raise LookupError(f"no role {value!r}")
        self.resolved.setdefault("roles", {})[str(role.id)] = payloads.role(role)
        return str(role.id)

    def attachment(self, value: object) -> str:
        """An uploaded file, given as (filename, bytes)."""
        if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes)):
            raise ValueError("an attachment option takes (filename, bytes)")
        filename, data = str(value[0]), value[1]
        attachment_id = self.world.ids.next()
        self.world.attachments[attachment_id] = data
        url = f"{self.cdn_base}/attachments/{self.channel.id}/{attachment_id}/{filename}"
        self.resolved.setdefault("attachments", {})[str(attachment_id)] = {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(data),
            "url": url,
            "proxy_url": url,
            "content_type": "application/octet-stream",
            "ephemeral": True,
        }
        return str(attachment_id)

    # -- select menus and modals -----------------------------------------------------------
    def select_values(self, component: dict[str, Any], values: Sequence[str | int]) -> list[str]:
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"{component['custom_id']!r} takes {low}-{high} values")
        kind = int(component["type"])
        if kind == 3:
            offered = [o["value"] for o in component.get("options", [])]
            for value in values:
                if value not in offered:
                    raise ValueError(f"{value!r} is not an option of {component['custom_id']!r}")
            return [str(v) for v in values]
        option_type = SELECT_RESOLVES.get(kind)
        if option_type is None:
            raise ValueError(f"component type {kind} is not a select menu")
        definition = {
            "type": option_type,
            "name": component["custom_id"],
            "channel_types": component.get("channel_types"),
        }
        return [str(self.option_value(definition, v)) for v in values]

    def modal_components(
        self, modal: dict[str, Any], fields: Mapping[str, str | Sequence[str]]
    ) -> list[dict[str, Any]]:
        components = number_components(copy.deepcopy(modal.get("components", [])))
        remaining = dict(fields)
        submitted = []
        for top in components:
            if top["type"] == 1:
                inner = [self._field(c, remaining) for c in top.get("components", [])]
                submitted.append({"type": 1, "id": top["id"], "components": inner})
            elif top["type"] == 18:
                field = self._field(top["component"], remaining)
                submitted.append({"type": 18, "id": top["id"], "component": field})
            else:  # text displays and the like carry no value
                submitted.append({"type": top["type"], "id": top["id"]})
        if remaining:
            raise ValueError(f"the modal has no fields {sorted(remaining)}")
        return submitted

    def _field(
        self, item: dict[str, Any], fields: dict[str, str | Sequence[str]]
    ) -> dict[str, Any]:
        custom_id = item["custom_id"]
        value = fields.pop(custom_id, None)
        base = {"type": item["type"], "id": item["id"], "custom_id": custom_id}
        if item["type"] == 4:
            text = "" if value is None else str(value)
            required = item.get("required", True)
            low, high = item.get("min_length", 0), item.get("max_length", 4000)
            if required and not text:
                raise ValueError(f"modal field {custom_id!r} is required")
            if text and not low <= len(text) <= high:
                raise ValueError(f"modal field {custom_id!r} must be {low}-{high} characters")
            return {**base, "value": text}
        values = [] if value is None else [value] if isinstance(value, str) else list(value)
        return {**base, "values": self.select_values(item, values)}
