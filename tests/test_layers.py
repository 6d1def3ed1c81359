"""The layers as drawn (../shared/ARCHITECTURE.md), and the sizes STYLE.md asks for, held by a
test: an import against the intended direction, a module past the file limit or a function
past the function limit fails here, naming it. `python -m tools.code_health` prints the same
measurements in full.

The direction, lowest first; a unit (a package under bot/, or a top-level module) may import
only what is listed for it:

    errors <- domain <- store <- {catalog, digests} <- commands <- app <- cli <- __main__
    render imports domain only (pure: model in, embed out)
    settings, observability, logs, backups: beside the store, below the features
    dburl (database URLs read and shown one way): beside errors, below settings and the store
    the stand-ins live beside bot, in laurel_console: bot imports them only in bot.cli.standins,
    on demand (`laurel console`)
    nothing imports app but cli, and nothing imports cli but __main__
"""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from tools.code_health import (
    PACKAGE,
    Import,
    duplicates,
    file_sizes,
    function_sizes,
    imports,
    module_name,
    unit,
    unit_edges,
)

FEATURES = {"domain", "errors", "settings", "store", "render", "observability", "dburl"}
ALLOWED: dict[str, set[str]] = {
    "bot": set(),  # bot/__init__.py: the version
    "errors": set(),
    "domain": {"errors"},
    "render": {"domain"},
    "http_client": set(),
    "dburl": {"errors"},
    "settings": {"errors", "dburl"},
    "observability": {"errors", "settings", "dburl"},
    "logs": {"observability", "settings"},
    "store": {"domain", "errors", "dburl"},
    "backups": {"domain", "observability", "settings", "store"},
    "catalog": {"domain", "errors", "settings", "store", "observability"},
    "digests": {"domain", "errors", "settings", "store", "render", "observability"},
    "commands": {*FEATURES, "catalog", "digests"},
    "app": {*FEATURES, "catalog", "digests", "commands", "backups", "http_client"},
    "cli": {*FEATURES, "bot", "catalog", "app", "logs"},
    "__main__": {"cli", "observability"},
}
# Single modules allowed to import a unit theirs may not, each with why. An entry no import
# needs any more fails the test too: the list only shrinks.
EXCEPTIONS: dict[tuple[str, str], str] = {
    ("bot.settings", "catalog"): "catalog.nesting: the nesting-depth check every TOML read shares",
    ("bot.settings", "observability"): "observability.redact: the pattern that keeps tokens out",
    ("bot.settings", "domain"): "domain.shards: shard ids parsed one way, in settings and CLI",
}

MAX_FILE_LINES = 450
MAX_FUNCTION_LINES = 80
# Modules or functions allowed past the limits for now, with why; empty today.
LONG_FILES: dict[str, str] = {}
LONG_FUNCTIONS: dict[str, str] = {}

IMPORTS = imports()


def _against_the_direction(found: list[Import]) -> list[str]:
    wrong = []
    for (importer, imported), edges in unit_edges(found).items():
        if imported in ALLOWED.get(importer, set()):
            continue
        wrong += [
            f"{e.source} (line {e.line}) imports {e.target}: {importer} may not import {imported}"
            for e in edges
            if (e.source, imported) not in EXCEPTIONS
        ]
    return wrong


def test_every_import_between_units_goes_the_intended_direction() -> None:
    assert _against_the_direction(IMPORTS) == []


def test_every_unit_has_its_place_in_the_direction() -> None:
    units = {unit(module_name(p)) for p in PACKAGE.rglob("*.py")}
    assert units - ALLOWED.keys() == set(), "a new unit: say what it may import in ALLOWED"


def test_every_exception_is_still_needed() -> None:
    used = {(e.source, unit(e.target)) for e in IMPORTS}
    assert [pair for pair in EXCEPTIONS if pair not in used] == []


@pytest.mark.parametrize(
    ("importer", "imported"),
    [
        ("render", "store"),
        ("render", "commands"),
        ("domain", "store"),
        ("store", "commands"),
        ("store", "catalog"),
        ("commands", "app"),
        ("digests", "commands"),
        ("app", "cli"),
    ],
)
def test_an_import_against_the_direction_is_caught(importer: str, imported: str) -> None:
    """The check itself: a made-up edge against the direction is named, with its line."""
    made_up = Import(f"bot.{importer}.x", f"bot.{imported}.y", 7)
    assert _against_the_direction([*IMPORTS, made_up]) == [
        f"bot.{importer}.x (line 7) imports bot.{imported}.y: {importer} may not import {imported}"
    ]


def test_imports_are_found_wherever_they_stand() -> None:
    """Function-level, relative and TYPE_CHECKING imports are edges too."""
    found = {(e.source, e.target) for e in IMPORTS}
    # registry.py imports ArxivClient only for its type, under `if TYPE_CHECKING:`.
    assert ("bot.commands.registry", "bot.catalog.arxiv") in found
    # `from bot.store import rows` is an import of the module bot.store.rows.
    assert ("bot.store.catalog", "bot.store.rows") in found


def test_the_direction_is_one_way_and_says_what_the_drawing_says() -> None:
    """ALLOWED itself: no cycle (so it is a direction), and the rules the drawing states."""
    order: list[str] = []
    while len(order) < len(ALLOWED):
        ready = [u for u in ALLOWED if u not in order and ALLOWED[u] <= set(order)]
        assert ready, f"a cycle among {sorted(set(ALLOWED) - set(order))}"
        order += sorted(ready)
    assert ALLOWED["render"] == {"domain"}
    assert ALLOWED["domain"] <= {"errors"}
    # dburl (issue 22): database URLs read and shown one way; a leaf beside errors.
    assert ALLOWED["dburl"] <= {"errors"}
    assert ALLOWED["store"] <= {"domain", "errors", "dburl"}
    assert [u for u, allowed in ALLOWED.items() if "app" in allowed] == ["cli"]
    assert [u for u, allowed in ALLOWED.items() if "cli" in allowed] == ["__main__"]


def test_the_runtime_imports_the_stand_ins_only_to_run_them() -> None:
    """bot/ names laurel_console (the stand-ins, the console, the harness) in one module only,
    the one that starts them for `laurel console`, `localdiscord` and `localarxiv`."""
    naming = set()
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            if any(n == "laurel_console" or n.startswith("laurel_console.") for n in names):
                naming.add(module_name(path))
    assert naming == {"bot.cli.standins"}


def test_no_module_is_longer_than_the_limit() -> None:
    long = [f"{f.path}: {f.lines} lines" for f in file_sizes() if f.lines > MAX_FILE_LINES]
    assert [line for line in long if line.split(":")[0] not in LONG_FILES] == []


def test_no_function_is_longer_than_the_limit() -> None:
    long = [
        f"{f.path}:{f.line} {f.name}: {f.lines} lines"
        for f in function_sizes()
        if f.lines > MAX_FUNCTION_LINES and f"{f.path}:{f.name}" not in LONG_FUNCTIONS
    ]
    assert long == []


def test_the_allowlists_name_only_what_is_still_too_long() -> None:
    files = {f.path: f.lines for f in file_sizes()}
    functions = {f"{f.path}:{f.name}": f.lines for f in function_sizes()}
    assert [p for p in LONG_FILES if files.get(p, 0) <= MAX_FILE_LINES] == []
    assert [n for n in LONG_FUNCTIONS if functions.get(n, 0) <= MAX_FUNCTION_LINES] == []


def test_the_measurements_on_a_made_up_package(tmp_path: Path) -> None:
    """What code_health counts: function spans, nested and methods; a repeated block once,
    however many windows it spans; imports in functions and relative ones."""
    package = tmp_path / "bot"
    (package / "store").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "store" / "__init__.py").write_text("")
    block = "".join(f"    total += {i} * value\n" for i in range(8))
    (package / "store" / "a.py").write_text(
        f"def first(value):\n    total = 0\n{block}    return total\n"
    )
    (package / "store" / "b.py").write_text(
        "from . import a\n\n\nclass Twice:\n    def second(self, value):\n"
        "        import bot.render\n"
        f"        total = 1\n{textwrap.indent(block, '    ')}        return -total\n"
    )
    sizes = {(f.path, f.name): f.lines for f in function_sizes(package)}
    assert sizes == {("bot/store/a.py", "first"): 11, ("bot/store/b.py", "Twice.second"): 12}
    (repeated,) = duplicates(package)
    assert repeated.lines == 8
    assert repeated.places == (("bot/store/a.py", 3), ("bot/store/b.py", 8))
    assert {(e.source, e.target) for e in imports(package)} == {
        ("bot.store.b", "bot.store.a"),
        ("bot.store.b", "bot.render"),
    }
