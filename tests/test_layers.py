"""The layers as drawn (../shared/ARCHITECTURE.md), and the sizes STYLE.md asks for, held by a
test: an import against the intended direction, a module past the file limit or a function
past the function limit fails here, naming it. `python -m tools.code_health` prints the same
measurements in full.

The direction, lowest first; a unit (a package under bot/, or a top-level module) may import
only what is listed for it:

    errors <- domain <- store <- {catalog, digests} <- commands <- app <- cli <- __main__
    render imports domain only (pure: model in, embed out)
    settings, observability, logs, backups: beside the store, below the features; like the
    store they may import domain (what settings and the log share, e.g. the token pattern and
    the nesting check, lives there)
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
    "settings": {"errors", "domain", "dburl"},
    "observability": {"errors", "domain", "settings", "dburl"},
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
MAX_FILE_LINES = 450
MAX_FUNCTION_LINES = 80
# Modules or functions allowed past the limits for now, with why.
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
        ]
    return wrong


def test_every_import_between_units_goes_the_intended_direction() -> None:
    assert _against_the_direction(IMPORTS) == []


def module_cycles(found: list[Import]) -> list[list[str]]:
    """Every set of modules that import one another round a loop (strongly connected, more than
    one module), each sorted; found without recursion."""
    graph: dict[str, set[str]] = {}
    for e in found:
        if e.source != e.target:
            graph.setdefault(e.source, set()).add(e.target)
            graph.setdefault(e.target, set())
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cycles: list[list[str]] = []
    for root in sorted(graph):
        if root in order:
            continue
        work = [(root, iter(sorted(graph[root])))]
        order[root] = low[root] = len(order)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, rest = work[-1]
            nxt = next(rest, None)
            if nxt is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == order[node]:
                    members = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    if len(members) > 1:
                        cycles.append(sorted(members))
            elif nxt not in order:
                order[nxt] = low[nxt] = len(order)
                stack.append(nxt)
                on_stack.add(nxt)
                work.append((nxt, iter(sorted(graph[nxt]))))
            elif nxt in on_stack:
                low[node] = min(low[node], order[nxt])
    return sorted(cycles)


def test_no_modules_import_one_another_round_a_loop() -> None:
    """None at all (issue 26): the database's interface (`bot.store.database`) knows neither
    backend; `bot.store.backends` opens one, and each backend imports the interface alone."""
    assert module_cycles(IMPORTS) == []


def test_a_loop_of_imports_is_caught() -> None:
    """The check itself: a made-up loop through three modules is found, and only it."""
    made_up = [
        Import("bot.render.a", "bot.render.b", 1),
        Import("bot.render.b", "bot.render.c", 1),
        Import("bot.render.c", "bot.render.a", 1),
        Import("bot.render.c", "bot.domain.x", 1),
    ]
    assert module_cycles(made_up) == [["bot.render.a", "bot.render.b", "bot.render.c"]]
    assert module_cycles([*IMPORTS, *made_up]) == sorted(
        [*module_cycles(IMPORTS), ["bot.render.a", "bot.render.b", "bot.render.c"]]
    )


def test_every_unit_has_its_place_in_the_direction() -> None:
    units = {unit(module_name(p)) for p in PACKAGE.rglob("*.py")}
    assert units - ALLOWED.keys() == set(), "a new unit: say what it may import in ALLOWED"


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
    # parts.py imports ArxivClient only for its type, under `if TYPE_CHECKING:`.
    assert ("bot.commands.parts", "bot.catalog.arxiv.client") in found
    # `from bot.store import rows` is an import of the module bot.store.rows.
    assert ("bot.store.catalog.repository", "bot.store.rows") in found


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


def _imported_names(path: Path) -> list[tuple[str, int]]:
    """Every module `path` imports (absolute imports), with its line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            found += [(f"{node.module}.{a.name}", node.lineno) for a in node.names]
    return found


def test_the_stand_ins_depend_on_bot_never_on_the_cli_that_loads_them() -> None:
    """laurel_console imports bot (the bot it runs), but not bot.cli or bot.__main__, which
    load it: what it needs from the command line is handed in (laurel_console.cli.Given)."""
    console = sorted((PACKAGE.parent / "laurel_console").rglob("*.py"))
    found = {
        (p.relative_to(PACKAGE.parent).as_posix(), *i) for p in console for i in _imported_names(p)
    }
    assert any(name.startswith("bot.") for _, name, _ in found)  # the scan sees its imports
    backwards = sorted(
        f"{path}:{line} imports {name}"
        for path, name, line in found
        if any(name == m or name.startswith(f"{m}.") for m in ("bot.cli", "bot.__main__"))
    )
    assert backwards == []


def _conftest_imports() -> dict[str, list[str]]:
    """Every import of a conftest module by a test file: conftest is pytest's (fixtures and
    hooks); helpers live in tests/support."""
    found: dict[str, list[str]] = {}
    tests = PACKAGE.parent / "tests"
    for path in sorted(tests.rglob("*.py")):
        for name, line in _imported_names(path):
            module = name.rpartition(".")[0]
            if module.endswith("conftest") or name.endswith(".conftest"):
                where = f"{path.relative_to(PACKAGE.parent).as_posix()}:{line}"
                found.setdefault(module if module.endswith("conftest") else name, []).append(where)
    return found


def test_tests_import_helpers_from_support_not_from_conftest() -> None:
    """None at all (issue 26): the digest rig lives in tests/support/digests.py."""
    assert _conftest_imports() == {}


def _test_module_imports(tests: Path = PACKAGE.parent / "tests") -> list[str]:
    """Every import of one test module (`tests.<dir>.test_*`) by another file under `tests`: a
    test module holds tests; what two of them share lives in tests/support."""
    found = []
    for path in sorted(tests.rglob("*.py")):
        for name, line in _imported_names(path):
            parts = name.split(".")
            if parts[0] == "tests" and any(p.startswith("test_") for p in parts[1:]):
                where = f"{path.relative_to(tests.parent).as_posix()}:{line}"
                found.append(f"{where} imports {name}")
    return found


def test_tests_import_helpers_from_support_not_from_other_test_modules() -> None:
    """None at all (issue 26): a fixture or helper two test modules share moves to
    tests/support, so deleting or renaming a test module never breaks another."""
    assert _test_module_imports() == []


def test_an_import_of_another_test_module_is_caught(tmp_path: Path) -> None:
    """The check itself: `from tests.e2e.test_x import …` and `import tests.e2e.test_x` are
    named, with their lines; an import from tests/support is not."""
    e2e = tmp_path / "tests" / "e2e"
    e2e.mkdir(parents=True)
    importer = "test_y.py"  # made up: no path to it written out, which the docs check reads
    (e2e / importer).write_text(
        "from tests.support.curating import curate\n"
        "from tests.e2e.test_x import helper\n"
        "import tests.e2e.test_x\n"
    )
    assert _test_module_imports(tmp_path / "tests") == [
        f"tests/e2e/{importer}:2 imports tests.e2e.test_x.helper",
        f"tests/e2e/{importer}:3 imports tests.e2e.test_x",
    ]


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
