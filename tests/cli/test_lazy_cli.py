"""The command line imports only the module of the subcommand it runs, and the console's
commands, without the `console` extra, say in one line how to install it."""

from __future__ import annotations

import argparse
import subprocess
import sys
import tomllib

import pytest

import laurel_console
from bot.cli import COMMANDS, build_parser, main
from tests.ops.dockerfile_replay import ROOT


def names(parser: argparse.ArgumentParser) -> set[str]:
    (group,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return set(group.choices)


def test_the_table_says_which_module_registers_each_subcommand() -> None:
    assert names(build_parser()) == set(COMMANDS)
    for command, module in COMMANDS.items():
        # Given a subcommand, the parser holds its module's subcommands and no others.
        alone = {c for c, m in COMMANDS.items() if m == module}
        assert names(build_parser([command])) == alone
        assert names(build_parser(["--config", "run", command, "--help"])) == alone
    assert names(build_parser(["--help"])) == set(COMMANDS)
    assert names(build_parser(["nonsense"])) == set(COMMANDS)


@pytest.mark.parametrize(
    ("argv", "imported", "not_imported"),
    [
        (["db", "init"], "bot.cli.db", ("bot.app", "discord", "laurel_console", "jsonschema")),
        (["stats"], "bot.cli.catalog", ("bot.app", "bot.cli.run", "laurel_console")),
        (["run"], "bot.cli.run", ("laurel_console", "jsonschema", "yaml", "bot.cli.enrich")),
    ],
)
def test_a_subcommand_imports_its_module_only(
    argv: list[str], imported: str, not_imported: tuple[str, ...]
) -> None:
    script = (
        "import sys; from bot.cli import build_parser; "
        f"build_parser({argv!r}).parse_args({argv!r}); print(' '.join(sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    loaded = set(done.stdout.split())
    assert imported in loaded
    assert not {m for m in loaded if m.split(".")[0] in not_imported or m in not_imported}


@pytest.mark.parametrize(
    "argv",
    [
        ["console", "-c", "/about"],
        ["localdiscord", "--port", "0"],
        ["localarxiv", "--synthesize"],
    ],
)
def test_without_the_console_extra_one_line_says_how_to_install_it(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(laurel_console, "missing", lambda: ["jsonschema"])
    monkeypatch.delitem(sys.modules, "laurel_console.cli", raising=False)

    assert main(argv) == 1

    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"laurel: `laurel {argv[0]}` needs the console extra (jsonschema not installed): "
        "pip install 'laurel[console]' (in a checkout: pip install -e '.[console]')\n"
    )
    assert "laurel_console.cli" not in sys.modules


def test_the_console_extra_is_what_laurel_console_checks_for() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extra = project["optional-dependencies"]["console"]
    distributions = {requirement.split(">")[0].split("<")[0].strip() for requirement in extra}
    assert distributions == set(laurel_console.REQUIRES)
    # Not a runtime dependency: `laurel run` installs without them.
    runtime = {d.split(">")[0].split("<")[0].strip() for d in project["dependencies"]}
    assert not runtime & distributions
    # The test extra brings the console (the suite runs the stand-ins).
    assert "laurel[console]" in project["optional-dependencies"]["test"]
