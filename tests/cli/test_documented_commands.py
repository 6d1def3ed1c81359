"""Every `laurel …` command the docs, the example settings and the code's own texts name in
backticks exists (config.example.toml still sent people to "laurel catalog import", a command
that never was), and so does every test module they name."""

from __future__ import annotations

import argparse
import re
import subprocess
from itertools import takewhile

import pytest

from bot.cli import COMMANDS, build_parser
from tests.ops.dockerfile_replay import ROOT

TICK = "`"
NAMED = TICK + "laurel "  # then the command's words: `laurel db init`, `laurel import PATH`
WORD = re.compile(r"[a-z][a-z-]*")
TEST_MODULE = re.compile(r"\btests/[A-Za-z0-9_/]+\.py")


def tracked(*patterns: str) -> list[str]:
    listed = subprocess.run(
        ["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    return listed.stdout.splitlines()


def subcommands_of(command: str) -> set[str]:
    parser = build_parser([command])
    (group,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    child = group.choices[command]
    nested = [a for a in child._actions if isinstance(a, argparse._SubParsersAction)]
    return set(nested[0].choices) if nested else set()


def unknown_commands(text: str) -> list[str]:
    """The `laurel …` commands `text` names that the command line does not have (only names
    are checked: `laurel {command}` or `laurel db …` name none)."""
    unknown = []
    for part in text.split(NAMED)[1:]:
        words = list(takewhile(WORD.fullmatch, part.split(TICK)[0].split()))[:2]
        if not words:
            continue
        nested = subcommands_of(words[0]) if words[0] in COMMANDS else set()
        if words[0] not in COMMANDS or (nested and len(words) == 2 and words[1] not in nested):
            unknown.append(" ".join(words))
    return unknown


def test_every_command_named_in_backticks_exists() -> None:
    found = {
        name: unknown
        for name in tracked("*.md", "*.toml", "*.py", "Dockerfile")
        if (unknown := unknown_commands((ROOT / name).read_text(encoding="utf-8")))
    }
    assert found == {}


def test_the_check_sees_a_command_that_does_not_exist() -> None:
    assert unknown_commands(f"writes other processes make ({NAMED}catalog import{TICK}).") == [
        "catalog import"
    ]
    assert unknown_commands(f"{NAMED}db frobnicate{TICK}") == ["db frobnicate"]
    assert unknown_commands(f"{NAMED}db migrate{TICK}, {NAMED}import PATH{TICK}") == []
    assert unknown_commands(f"{NAMED}{{command}}{TICK}, {NAMED}db …{TICK}") == []


def test_every_test_module_the_code_names_exists() -> None:
    """A comment that says which test keeps something true names a test that exists
    (laurel_console/__init__.py named a test_packaging module in tests/ops that never was)."""
    named = {
        (name, path)
        for name in tracked("*.md", "*.toml", "*.py", "Dockerfile")
        for path in TEST_MODULE.findall((ROOT / name).read_text(encoding="utf-8"))
    }
    assert sorted((n, p) for n, p in named if not (ROOT / p).is_file()) == []
