"""What tests/ops/test_compose.py checks in compose.yaml, as functions that return the problems
they find (so that each check is shown to fail on a file that breaks its promise).

There is no Docker engine in CI: the file is validated against the Compose Specification's own
JSON schema (shipped inside the check-jsonschema package, vendor/compose-spec.json, Apache-2.0),
then against what a Laurel deployment needs that the schema cannot say.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from importlib.resources import files
from pathlib import Path
from typing import Any

import jsonschema
import yaml

from bot.cli import build_parser
from bot.cli.run import run_bot
from bot.domain.shards import ShardError, Shards

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "compose.yaml"

# `${NAME}`, `${NAME:?message}`, `${NAME:-default}` …: compose's interpolation of one variable.
_VARIABLE = re.compile(r"^\$\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?P<rest>[:?\-+][^}]*)?\}$")
_SECRET_KEY = re.compile(r"TOKEN|PASSWORD|SECRET|PASSWD|_KEY$", re.IGNORECASE)
_URL_PASSWORD = re.compile(r"^[a-z][a-z0-9+.-]*://[^/@:]*:[^/@]*@", re.IGNORECASE)
RESTART_POLICIES = ("always", "unless-stopped", "on-failure")


def load(path: Path = COMPOSE) -> dict[str, Any]:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))  # resolves the `<<: *laurel` merges
    assert isinstance(doc, dict), f"{path}: not a mapping"
    return doc


def compose_schema() -> dict[str, Any]:
    text = (files("check_jsonschema.builtin_schemas.vendor") / "compose-spec.json").read_text()
    schema: dict[str, Any] = json.loads(text)
    return schema


def schema_problems(doc: Mapping[str, Any]) -> list[str]:
    schema = compose_schema()
    validator = jsonschema.validators.validator_for(schema)
    checker = validator(schema, format_checker=validator.FORMAT_CHECKER)
    return [
        f"{'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
        for error in sorted(checker.iter_errors(doc), key=lambda e: list(e.absolute_path))
    ]


def laurel_services(doc: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    """The services that run Laurel: their command starts with `laurel`."""
    return {
        name: service
        for name, service in doc.get("services", {}).items()
        if _command(service)[:1] == ["laurel"]
    }


def _command(service: Mapping[str, Any]) -> list[str]:
    command = service.get("command", [])
    return command.split() if isinstance(command, str) else list(command)


def _environment(service: Mapping[str, Any]) -> dict[str, str]:
    env = service.get("environment", {})
    if isinstance(env, list):
        return dict(item.split("=", 1) if "=" in item else (item, "") for item in env)
    return {key: "" if value is None else str(value) for key, value in env.items()}


def parsed_shards(service: Mapping[str, Any]) -> Shards:
    """The shards a service's command runs, read by Laurel's own parser; ValueError if its
    command is not a `laurel run` Laurel would accept, or runs no shards."""
    argv = _command(service)[1:]
    try:
        args = build_parser(argv).parse_args(argv)
    except SystemExit:
        raise ValueError(f"`laurel {' '.join(argv)}` does not parse") from None
    if args.handler is not run_bot:
        raise ValueError(f"`laurel {' '.join(argv)}` is not `laurel run`")
    try:
        shards = Shards.of(args.shards, args.shard_count)
    except ShardError as exc:
        raise ValueError(f"`laurel {' '.join(argv)}`: {exc}") from None
    if shards is None:
        raise ValueError(f"`laurel {' '.join(argv)}` runs no shard range")
    return shards


def shard_problems(doc: Mapping[str, Any]) -> list[str]:
    """Every Laurel service parses, they agree on the shard count, and their ranges are
    disjoint and cover every shard."""
    services = laurel_services(doc)
    if len(services) < 2:
        return [f"{len(services)} Laurel service(s): the deployment runs two shard ranges"]
    problems: list[str] = []
    owner: dict[int, str] = {}
    counts: set[int] = set()
    for name, service in services.items():
        try:
            shards = parsed_shards(service)
        except ValueError as exc:
            problems.append(f"{name}: {exc}")
            continue
        counts.add(shards.count)
        for shard in shards.ids:
            if shard in owner:
                problems.append(f"shard {shard} is run by both {owner[shard]} and {name}")
            owner.setdefault(shard, name)
    if len(counts) > 1:
        problems.append(f"the services disagree on --shard-count: {sorted(counts)}")
    elif counts:
        missing = sorted(set(range(counts.pop())) - owner.keys())
        if missing:
            problems.append(f"no service runs shard(s) {missing}")
    return problems


def _values(node: Any, where: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, Mapping):
        for key, value in node.items():
            yield from _values(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _values(value, f"{where}/{i}")
    elif node is not None:
        yield where, str(node)


def secret_problems(doc: Mapping[str, Any]) -> list[str]:
    """No secret is written in the file: a variable named like one is only ever `${VAR…}` (the
    token a required one, `${DISCORD_TOKEN:?…}`), and no URL carries a password."""
    problems: list[str] = []
    for name, service in doc.get("services", {}).items():
        for key, value in _environment(service).items():
            if not _SECRET_KEY.search(key):
                continue
            match = _VARIABLE.match(value)
            if match is None:
                problems.append(f"{name}: {key} is written in the file, not taken from the host")
            elif not (match["rest"] or "").startswith(":?"):
                problems.append(f"{name}: {key} must be required (`${{{match['name']}:?…}}`)")
    problems += [
        f"{where}: a URL with a password in it"
        for where, value in _values(doc)
        if _URL_PASSWORD.match(value)
    ]
    return problems


def database_problems(doc: Mapping[str, Any]) -> list[str]:
    """The database: a pinned image, a named volume, a pg_isready health check; every Laurel
    service is built from this repository's Dockerfile, waits for the database to be healthy,
    checks its own health and restarts."""
    services = doc.get("services", {})
    databases = [n for n, s in services.items() if str(s.get("image", "")).startswith("postgres")]
    if len(databases) != 1:
        return [f"expected one postgres service, found {databases}"]
    name = databases[0]
    database = services[name]
    problems: list[str] = []
    tag = str(database["image"]).partition(":")[2]
    if not re.match(r"^\d+\.\d+", tag):
        problems.append(f"{name}: image {database['image']} is not pinned to a version")
    named = set(doc.get("volumes") or {})
    mounts = [str(v).split(":")[0] for v in database.get("volumes", [])]
    if not any(m in named for m in mounts):
        problems.append(f"{name}: its data is not on a named volume")
    test = database.get("healthcheck", {}).get("test", [])
    if "pg_isready" not in (test if isinstance(test, str) else " ".join(test)):
        problems.append(f"{name}: no pg_isready health check")
    for laurel, service in laurel_services(doc).items():
        build = service.get("build")
        context = build.get("context") if isinstance(build, Mapping) else build
        dockerfile = build.get("dockerfile", "Dockerfile") if isinstance(build, Mapping) else None
        if context != "." or (dockerfile or "Dockerfile") != "Dockerfile":
            problems.append(f"{laurel}: not built from this repository's Dockerfile")
        depends = service.get("depends_on", {})
        if (
            not isinstance(depends, Mapping)
            or (depends.get(name) or {}).get("condition") != "service_healthy"
        ):
            problems.append(f"{laurel}: does not wait for {name} to be healthy")
        if service.get("healthcheck", {}).get("test") != ["CMD", "laurel", "health"]:
            problems.append(f"{laurel}: its health check is not `laurel health`")
        if service.get("restart") not in RESTART_POLICIES:
            problems.append(f"{laurel}: restart policy {service.get('restart')!r}")
    return problems


def settings_environment(service: Mapping[str, Any]) -> dict[str, Any]:
    """A service's LAUREL_* variables as the nested values Laurel's settings read
    (`LAUREL_DATABASE__URL` -> {"database": {"url": …}}), variables replaced by a stand-in."""
    nested: dict[str, Any] = {}
    for key, value in _environment(service).items():
        if not key.startswith("LAUREL_"):
            continue
        *sections, field = key.removeprefix("LAUREL_").lower().split("__")
        node = nested
        for section in sections:
            node = node.setdefault(section, {})
        node[field] = "stand-in" if _VARIABLE.match(value) else value
    return nested
