"""Check the requests the bot sends against Discord's official OpenAPI spec.

The spec (discord/discord-api-spec, OpenAPI 3.1, MIT) sits outside the repository, in ../shared,
and is never committed into it: callers pass its path. Bodies are checked with jsonschema's Draft
2020-12 validator, the dialect of OpenAPI 3.1, with "#/components/schemas/..." resolved through a
`referencing` registry that holds the whole document.
"""

from __future__ import annotations

import json
import reprlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry
from referencing.jsonschema import DRAFT202012

__all__ = ["INT_SNOWFLAKE", "SpecValidator"]

_SPEC_URI = "urn:discord-api-spec"
# A multipart request is checked through its payload_json part, which the caller parses; the
# three operations that take only form fields (attachment and sticker uploads, invite target
# users) are checked against their multipart schema, file parts included.
_MEDIA_TYPES = ("application/json", "multipart/form-data")
# The spec marks a few unions "x-discord-union": "oneOf" beside an anyOf; that extension is an
# annotation, so they validate as the anyOf they are written as.
_UNIONS = frozenset({"anyOf", "oneOf"})
_SCHEMAS = "#/components/schemas/"
_CONSTS = frozenset({"const", "title", "description"})
_MAX_MESSAGE = 240


# The spec types every snowflake as a string of digits (components/schemas/SnowflakeType), but
# Discord's API takes JSON integers there too (discord-api-docs#2089, #1078), and discord.py
# sends ints in allowed_mentions.users/roles, message_reference.{message_id,channel_id,guild_id},
# sticker_ids, attachments[].id, select menus' default_values[].id and Webhook.send's
# applied_tags. This is the one place where the checker is looser than the spec; pass
# int_snowflakes=False to hold requests to the spec's letter.
INT_SNOWFLAKE: dict[str, Any] = {"type": "integer", "minimum": 0, "maximum": 2**64 - 1}

_repr = reprlib.Repr()
_repr.maxstring = _repr.maxother = 40
_repr.maxlist = _repr.maxdict = 4
_repr.maxlevel = 2

Segments = tuple[str | None, ...]  # a path template's segments; None stands for a {parameter}


def _short(instance: object) -> str:
    """A repr short enough for an error message: long strings say how long they are."""
    if isinstance(instance, str) and len(instance) > 40:
        return f"{instance[:24]!r}… ({len(instance)} chars)"
    return _repr.repr(instance)


def _at(path: Sequence[str | int], message: str) -> str:
    """`message` about the body's value at `path`, which reads like `embeds[0].title`."""
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")
    return f"{where}: {message}" if where else message


def _specific(error: ValidationError) -> tuple[int, bool]:
    """Sort key: deeper in the body first, then a plain keyword over a union's summary."""
    return len(error.absolute_path), error.validator not in _UNIONS


def _rejects(error: ValidationError) -> bool:
    """Whether an error inside a union branch shows that the branch plainly does not apply:
    it is the null alternative of a nullable field, or the value (or the object's "type")
    is outside the branch's enum/const."""
    if error.validator in ("enum", "const"):
        return tuple(error.path) in ((), ("type",))
    return error.validator == "type" and error.validator_value == "null"


def _accepted(error: ValidationError) -> list[Any]:
    """The values an enum or const error's keyword accepts."""
    value: Any = error.validator_value
    return list(value) if error.validator == "enum" else [value]


def _ordered(values: Iterable[Any]) -> list[Any]:
    return sorted(
        values, key=lambda v: (type(v).__name__, v if isinstance(v, int | str) else f"{v}")
    )


def _explain(error: ValidationError) -> str:
    """Describe one error, descending into anyOf/oneOf to the most useful cause.

    jsonschema's best_match stops at a union whose branches all fail equally, which for
    Discord's many one-schema-per-type unions only says "not valid under any of the given
    schemas". Here branches that plainly do not apply (see _rejects) are dropped; when none is
    left, the message lists the values that the branches accept.
    """
    while error.context:
        branches: dict[object, list[ValidationError]] = defaultdict(list)
        for sub in error.context:
            branches[sub.relative_schema_path[0]].append(sub)
        alive = [sub for subs in branches.values() if not any(map(_rejects, subs)) for sub in subs]
        if not alive:
            allowed: list[Any] = []
            for subs in branches.values():  # a branch accepts what all its enums/consts accept
                sets = [_accepted(sub) for sub in subs if sub.validator in ("enum", "const")]
                for value in sets[0] if sets else ():
                    if all(value in other for other in sets[1:]) and value not in allowed:
                        allowed.append(value)
            if allowed:
                sub = next(sub for sub in error.context if sub.validator in ("enum", "const"))
                message = f"{_short(sub.instance)} is not one of {_ordered(allowed)}"
                return _at(sub.absolute_path, message)
        error = max(alive or error.context, key=_specific)
    message = error.message.replace(repr(error.instance), _short(error.instance))
    if len(message) > _MAX_MESSAGE:
        message = message[: _MAX_MESSAGE - 1] + "…"
    return _at(error.absolute_path, message)


def _best_errors(errors: Iterable[ValidationError]) -> list[ValidationError]:
    """One error per body location, preferring a plain keyword over a union's summary."""
    best: dict[tuple[str | int, ...], ValidationError] = {}
    for error in errors:
        key = tuple(error.path)
        if key not in best or _specific(error) > _specific(best[key]):
            best[key] = error
    return list(best.values())


def _dispatch(union: list[Any], schemas: dict[str, Any]) -> dict[str, Any] | None:
    """An enum or an if/then dispatch on "type" with the same verdicts as `union`, or None.

    jsonschema checks a union by trying every branch. The spec writes its enums as a oneOf of
    {"const", "title", "description"}: an enum keyword says the same. Its big unions (message
    components, command options, interaction callbacks) are $refs to object schemas that
    require "type" and allow disjoint "type" values: at most one branch can match, so checking
    only the one that the body's "type" picks says the same, faster and with that branch's
    error rather than a union's summary.
    """
    consts = [b["const"] for b in union if isinstance(b, dict) and "const" in b]
    consts = consts if all(isinstance(b, dict) and b.keys() <= _CONSTS for b in union) else []
    if len(consts) == len(union) and len({json.dumps(c) for c in consts}) == len(consts):
        return {"enum": consts}
    seen: list[Any] = []
    rules: list[dict[str, Any]] = []
    for branch in union:
        ref = branch.get("$ref", "") if isinstance(branch, dict) else ""
        target = schemas.get(ref.removeprefix(_SCHEMAS), {}) if ref.startswith(_SCHEMAS) else {}
        tag = target.get("properties", {}).get("type", {})
        values = tag.get("enum", [tag["const"]] if "const" in tag else [])
        required = target.get("type") == "object" and "type" in target.get("required", ())
        if not (required and values) or any(value in seen for value in values):
            return None
        seen += values
        condition = {"required": ["type"], "properties": {"type": {"enum": values}}}
        rules.append({"if": condition, "then": branch})
    tags = {"enum": _ordered(seen)}
    return {"type": "object", "required": ["type"], "properties": {"type": tags}, "allOf": rules}


def _rewrite(node: Any, schemas: dict[str, Any]) -> Any:
    """`node` with every union that _dispatch can replace replaced, as a new tree."""
    if isinstance(node, list):
        return [_rewrite(item, schemas) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _rewrite(value, schemas) for key, value in node.items()}
    for key in _UNIONS & out.keys():
        dispatch = _dispatch(node[key], schemas)
        if dispatch is not None:
            del out[key]
            out["allOf"] = [*out.get("allOf", ()), dispatch]
    return out


def _pointer(*parts: str) -> str:
    return "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in parts)


class SpecValidator:
    """Maps request paths to the spec's routes and checks request bodies against it."""

    def __init__(self, spec: dict[str, Any], *, int_snowflakes: bool = True) -> None:
        spec = _rewrite(spec, spec["components"]["schemas"])
        if int_snowflakes:
            schemas = spec["components"]["schemas"]
            schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], INT_SNOWFLAKE]}
        self._paths: dict[str, dict[str, Any]] = spec["paths"]
        self._registry: Registry[Any] = Registry().with_resource(
            _SPEC_URI, DRAFT202012.create_resource(spec)
        )
        self._templates: dict[int, list[tuple[Segments, str]]] = defaultdict(list)
        for template in self._paths:
            segments = tuple(
                None if part.startswith("{") else part for part in template.strip("/").split("/")
            )
            self._templates[len(segments)].append((segments, template))
        self._validators: dict[tuple[str, str], Draft202012Validator] = {}

    @classmethod
    def from_file(cls, path: Path, *, int_snowflakes: bool = True) -> SpecValidator:
        """Load the spec at `path` (discord-api-spec's specs/openapi.json)."""
        with path.open(encoding="utf-8") as file:
            return cls(json.load(file), int_snowflakes=int_snowflakes)

    def route_for(self, method: str, path: str) -> str | None:
        """The spec's path template for a concrete path such as "/channels/1/messages/2".

        `path` is without the /api/v10 prefix; a query string is ignored. A literal segment
        ("@me", "@original") wins over a {parameter} at the same place, whatever the method,
        so that validate() reports a method the literal route lacks; the method only breaks
        ties. None when no template matches.
        """
        parts = path.split("?", 1)[0].strip("/").split("/")
        method = method.lower()
        found: str | None = None
        best: tuple[tuple[bool, ...], bool] | None = None
        for segments, template in self._templates.get(len(parts), ()):
            pairs = zip(segments, parts, strict=True)
            if all(p != "" if s is None else s == p for s, p in pairs):
                key = (tuple(s is not None for s in segments), method in self._paths[template])
                if best is None or key > best:
                    found, best = template, key
        return found

    def validate(self, method: str, route: str, body: object | None) -> list[str]:
        """Violations of the spec by a request's JSON body; empty when there are none.

        `route` is a template as route_for returns it; `body` is the parsed JSON (for a
        multipart request, the parsed payload_json part), or None when none was sent.
        """
        where = f"{method.upper()} {route}"
        item = self._paths.get(route)
        if item is None:
            return [f"{where}: no such route in Discord's API spec"]
        operation = item.get(method.lower())
        if operation is None or method.lower() == "parameters":
            allowed = ", ".join(m.upper() for m in item if m != "parameters")
            return [f"{where}: the spec has no such method on this route (it has {allowed})"]
        request_body = operation.get("requestBody")
        if request_body is None:
            return [] if body is None else [f"{where}: takes no request body, got {_short(body)}"]
        if body is None:
            return [f"{where}: a request body is required"] if request_body.get("required") else []
        errors = self._validator(method.lower(), route, request_body).iter_errors(body)
        return list(dict.fromkeys(f"{where}: {_explain(e)}" for e in _best_errors(errors)))

    def _validator(
        self, method: str, route: str, request_body: dict[str, Any]
    ) -> Draft202012Validator:
        key = (method, route)
        validator = self._validators.get(key)
        if validator is None:
            content: dict[str, Any] = request_body["content"]
            media = next((m for m in _MEDIA_TYPES if m in content), next(iter(content)))
            pointer = _pointer("paths", route, method, "requestBody", "content", media, "schema")
            validator = Draft202012Validator(
                {"$ref": _SPEC_URI + "#" + pointer}, registry=self._registry
            )
            self._validators[key] = validator
        return validator
