"""`laurel …` run in-process: the exit code and what it printed, with no outside LAUREL_*
settings."""

from __future__ import annotations

import os
from dataclasses import dataclass

import pytest

from bot.cli import main


@dataclass(frozen=True)
class Result:
    code: int
    out: str
    err: str


def clear_environment(patch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("LAUREL_") or name == "DISCORD_TOKEN":
            patch.delenv(name)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Result:
    capsys.readouterr()  # drop anything printed before
    code = main(list(argv))
    captured = capsys.readouterr()
    return Result(code, captured.out, captured.err)
