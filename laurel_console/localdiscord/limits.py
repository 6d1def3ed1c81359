"""Discord's limits that its OpenAPI spec does not state, checked in one place.

Message limits (content, embeds, components, nonce), command definitions (names, descriptions,
options, choices), autocomplete results and modals. Each problem is a FieldError: the path into
the request body, Discord's error code and its message, ready for a 400 50035 answer.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from laurel_console.localdiscord.errors import FieldError


class SpecValidatorProtocol(Protocol):
    """What the server needs from laurel_console.localdiscord.spec.SpecValidator."""

    def validate(self, method: str, route: str, body: object | None) -> list[str]: ...


@dataclass(frozen=True)
class Violation:
    """A request that broke the spec ("spec") or one of Discord's limits ("limits")."""

    method: str
    route: str  # the path template, e.g. "/channels/{channel_id}/messages"
    message: str
    source: str
    path: tuple[str | int, ...] = ()

    def __str__(self) -> str:
        where = ".".join(map(str, self.path))
        return f"{self.method} {self.route}: {where + ': ' if where else ''}{self.message}"


MESSAGE_ROUTES = frozenset(
    {
        ("POST", "/channels/{channel_id}/messages"),
        ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
        ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
        ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
        ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    }
)
COMMAND_LIST_ROUTES = frozenset(
    {
        ("PUT", "/applications/{application_id}/commands"),
        ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"),
    }
)
COMMAND_ROUTES = frozenset(
    {
        ("POST", "/applications/{application_id}/commands"),
        ("POST", "/applications/{application_id}/guilds/{guild_id}/commands"),
        ("PATCH", "/applications/{application_id}/commands/{command_id}"),
        ("PATCH", "/applications/{application_id}/guilds/{guild_id}/commands/{command_id}"),
    }
)

Path = tuple[str | int, ...]


def check_limits(method: str, route: str, body: object | None) -> list[FieldError]:
    """Every limit `body` breaks for this route; [] when none (or the route has none)."""
    key = (method.upper(), route)
    if not isinstance(body, (dict, list)):
        return []
    problems: list[FieldError] = []
    if key in MESSAGE_ROUTES and isinstance(body, dict):
        _message(body, (), problems)
    elif key == ("POST", "/channels/{channel_id}/threads") and isinstance(body, dict):
        _length(body.get("name"), 100, ("name",), problems, minimum=1)
        if isinstance(body.get("message"), dict):
            _message(body["message"], ("message",), problems)
    elif key == ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"):
        if isinstance(body, dict) and isinstance(body.get("data"), dict):
            _callback(int(body.get("type", 0)), body["data"], problems)
    elif key in COMMAND_LIST_ROUTES and isinstance(body, list):
        chat_inputs = sum(1 for c in body if isinstance(c, dict) and c.get("type", 1) == 1)
        if chat_inputs > 100:
            problems.append(((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length."))
        for index, command in enumerate(body):
            if isinstance(command, dict):
                _command(command, (index,), problems)
    elif key in COMMAND_ROUTES and isinstance(body, dict):
        _command(body, (), problems)
    return problems


def _length(
    value: object, maximum: int, path: Path, problems: list[FieldError], *, minimum: int = 0
) -> None:
    if not isinstance(value, str):
        return
    if len(value) > maximum:
        problems.append((path, "BASE_TYPE_MAX_LENGTH", f"Must be {maximum} or fewer in length."))
    elif len(value) < minimum:
        problems.append((path, "BASE_TYPE_MIN_LENGTH", f"Must be {minimum} or more in length."))


def _count(value: object, maximum: int, path: Path, problems: list[FieldError]) -> None:
    if isinstance(value, list) and len(value) > maximum:
        problems.append((path, "BASE_TYPE_MAX_LENGTH", f"Must be {maximum} or fewer in length."))


# -- messages ------------------------------------------------------------------------------
def _message(body: dict[str, Any], at: Path, problems: list[FieldError]) -> None:
    _length(body.get("content"), 2000, (*at, "content"), problems)
    _length(body.get("nonce"), 25, (*at, "nonce"), problems)
    embeds = body.get("embeds")
    _count(embeds, 10, (*at, "embeds"), problems)
    if isinstance(embeds, list):
        total = sum(_embed(e, (*at, "embeds", i), problems) for i, e in enumerate(embeds))
        if total > 6000:
            problems.append(
                (
                    (*at, "embeds"),
                    "MAX_EMBED_SIZE_EXCEEDED",
                    "Embed size exceeds maximum size of 6000",
                )
            )
    _count(body.get("attachments"), 10, (*at, "attachments"), problems)
    components = body.get("components")
    if isinstance(components, list):
        v2 = int(body.get("flags") or 0) & (1 << 15)
        _count(components, 40 if v2 else 5, (*at, "components"), problems)
        _components(components, (*at, "components"), problems)


def _embed(embed: object, at: Path, problems: list[FieldError]) -> int:
    """Checks one embed and returns the characters it counts towards the 6000 total."""
    if not isinstance(embed, dict):
        return 0
    texts: list[tuple[object, int, Path]] = [
        (embed.get("title"), 256, (*at, "title")),
        (embed.get("description"), 4096, (*at, "description")),
    ]
    for key, field, limit in (("footer", "text", 2048), ("author", "name", 256)):
        if isinstance(embed.get(key), dict):
            texts.append((embed[key].get(field), limit, (*at, key, field)))
    fields = embed.get("fields")
    _count(fields, 25, (*at, "fields"), problems)
    for index, field in enumerate(fields if isinstance(fields, list) else []):
        if isinstance(field, dict):
            where = (*at, "fields", index)
            _length(field.get("name"), 256, (*where, "name"), problems, minimum=1)
            _length(field.get("value"), 1024, (*where, "value"), problems, minimum=1)
            texts += [(field.get("name"), 256, ()), (field.get("value"), 1024, ())]
    for value, limit, path in texts:
        if path:
            _length(value, limit, path, problems)
    return sum(len(value) for value, _, _ in texts if isinstance(value, str))


def _components(components: list[Any], at: Path, problems: list[FieldError]) -> None:
    for index, component in enumerate(components):
        if not isinstance(component, dict):
            continue
        where = (*at, index)
        _length(component.get("custom_id"), 100, (*where, "custom_id"), problems, minimum=1)
        _length(component.get("label"), 80, (*where, "label"), problems)
        _length(component.get("placeholder"), 150, (*where, "placeholder"), problems)
        _count(component.get("options"), 25, (*where, "options"), problems)
        if component.get("type") == 1:
            _count(component.get("components"), 5, (*where, "components"), problems)
        if isinstance(component.get("components"), list):
            _components(component["components"], (*where, "components"), problems)


# -- interaction callbacks -----------------------------------------------------------------
def _callback(kind: int, data: dict[str, Any], problems: list[FieldError]) -> None:
    if kind in (4, 7):
        _message(data, ("data",), problems)
    elif kind == 8:
        _choices(data.get("choices"), ("data", "choices"), problems)
    elif kind == 9:
        _length(data.get("title"), 45, ("data", "title"), problems, minimum=1)
        _length(data.get("custom_id"), 100, ("data", "custom_id"), problems, minimum=1)
        _count(data.get("components"), 5, ("data", "components"), problems)


def _choices(choices: object, at: Path, problems: list[FieldError]) -> None:
    _count(choices, 25, at, problems)
    for index, choice in enumerate(choices if isinstance(choices, list) else []):
        if isinstance(choice, dict):
            _length(choice.get("name"), 100, (*at, index, "name"), problems, minimum=1)
            _length(choice.get("value"), 100, (*at, index, "value"), problems)


# -- commands ------------------------------------------------------------------------------
def _name_char(ch: str) -> bool:
    """One character of ^[-_\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]$."""
    code = ord(ch)
    return (
        ch in "-_"
        or unicodedata.category(ch)[0] in "LN"
        or 0x0900 <= code <= 0x097F  # Devanagari
        or 0xA8E0 <= code <= 0xA8FF  # Devanagari Extended
        or 0x11B00 <= code <= 0x11B5F  # Devanagari Extended-A
        or 0x0E01 <= code <= 0x0E5B  # Thai
    )


def _name(name: object, at: Path, problems: list[FieldError], *, chat_input: bool) -> None:
    if not isinstance(name, str):
        return
    _length(name, 32, at, problems, minimum=1)
    if not chat_input:
        return
    if not all(map(_name_char, name)) or name != name.lower():
        problems.append((at, "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid"))


def _command(command: dict[str, Any], at: Path, problems: list[FieldError]) -> None:
    chat_input = command.get("type", 1) == 1
    _name(command.get("name"), (*at, "name"), problems, chat_input=chat_input)
    if chat_input:
        _length(command.get("description"), 100, (*at, "description"), problems, minimum=1)
    _options(command.get("options"), (*at, "options"), problems)


def _options(options: object, at: Path, problems: list[FieldError]) -> None:
    if not isinstance(options, list):
        return
    _count(options, 25, at, problems)
    seen_optional = False
    for index, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        where = (*at, index)
        _name(option.get("name"), (*where, "name"), problems, chat_input=True)
        _length(option.get("description"), 100, (*where, "description"), problems, minimum=1)
        _choices(option.get("choices"), (*where, "choices"), problems)
        if option.get("type") in (1, 2):
            _options(option.get("options"), (*where, "options"), problems)
            continue
        if option.get("required") and seen_optional:
            problems.append(
                (
                    where,
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
            )
        seen_optional = seen_optional or not option.get("required")


def violations_from(
    method: str, route: str, problems: Sequence[FieldError], spec_messages: Sequence[str]
) -> list[Violation]:
    found = [Violation(method, route, message, "spec") for message in spec_messages]
    found += [
        Violation(method, route, f"{message} ({code})", "limits", tuple(path))
        for path, code, message in problems
    ]
    return found
