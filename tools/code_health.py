"""File sizes, the largest functions, duplicated blocks and the import graph between the
packages of `bot/`: evidence anyone can rerun.

    python -m tools.code_health                 # this checkout's bot/
    python -m tools.code_health --top 20 PATH   # another tree (e.g. an older commit, exported)

`tests/test_layers.py` holds the limits (file and function sizes) and the intended direction
of imports, and fails on anything against them; this prints what they are measured on.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "bot"
# A duplicated block is at least this many consecutive statement lines found in two places.
DUPLICATE_WINDOW = 6


@dataclass(frozen=True, slots=True)
class FileSize:
    path: str
    lines: int


@dataclass(frozen=True, slots=True)
class FunctionSize:
    path: str
    name: str  # qualified: Class.method, or outer.inner
    line: int
    lines: int  # from `def` to the last line of its body (decorators not counted)


@dataclass(frozen=True, slots=True)
class Import:
    source: str  # the importing module, dotted: bot.store.catalog.repository
    target: str  # the imported module, dotted (a name imported from a package counts as its
    #             module when there is one: `from bot import errors` -> bot.errors)
    line: int


@dataclass(frozen=True, slots=True)
class Duplicate:
    lines: int
    places: tuple[tuple[str, int], ...]  # (path, first line)


def python_files(package: Path = PACKAGE) -> list[Path]:
    return sorted(p for p in package.rglob("*.py") if "__pycache__" not in p.parts)


def _relative(path: Path, package: Path) -> str:
    return path.relative_to(package.parent).as_posix()


def file_sizes(package: Path = PACKAGE) -> list[FileSize]:
    """Every module's length in lines, longest first."""
    found = [
        FileSize(_relative(p, package), len(p.read_text(encoding="utf-8").splitlines()))
        for p in python_files(package)
    ]
    return sorted(found, key=lambda f: (-f.lines, f.path))


def function_sizes(package: Path = PACKAGE) -> list[FunctionSize]:
    """Every function and method (nested ones too), longest first."""
    found: list[FunctionSize] = []
    for path in python_files(package):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += _functions(tree, _relative(path, package), "")
    return sorted(found, key=lambda f: (-f.lines, f.path, f.line))


def _functions(node: ast.AST, path: str, prefix: str) -> list[FunctionSize]:
    found: list[FunctionSize] = []
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
            name = f"{prefix}{child.name}"
            end = child.end_lineno or child.lineno
            found.append(FunctionSize(path, name, child.lineno, end - child.lineno + 1))
            found += _functions(child, path, f"{name}.")
        elif isinstance(child, ast.ClassDef):
            found += _functions(child, path, f"{prefix}{child.name}.")
        else:
            found += _functions(child, path, prefix)
    return found


def module_name(path: Path, package: Path = PACKAGE) -> str:
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(package: Path = PACKAGE) -> list[Import]:
    """Every import of a module of `package`, wherever it stands: at the top, inside a
    function, under `if TYPE_CHECKING:` (a type is a dependency too)."""
    modules = {module_name(p, package) for p in python_files(package)}
    found: list[Import] = []
    for path in python_files(package):
        source = module_name(path, package)
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            for target in sorted(set(_targets(node, source, is_package, modules))):
                if target.split(".")[0] == package.name:
                    found.append(Import(source, target, getattr(node, "lineno", 0)))
    return found


def _targets(node: ast.AST, source: str, is_package: bool, modules: set[str]) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:  # relative: from the importing module's package, `level` steps up
        here = source.split(".") if is_package else source.split(".")[:-1]
        here = here[: len(here) - (node.level - 1)]
        base = ".".join([*here, node.module] if node.module else here)
    else:
        base = node.module or ""
    # `from bot.store import rows` imports the module bot.store.rows; a name that is no
    # module (`from bot.errors import UserError`) is an import of the module it comes from.
    return [
        f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
        for alias in node.names
    ]


def unit(module: str) -> str:
    """The part of the code a module belongs to: its package under bot/, or the top-level
    module itself (bot.store.catalog.repository -> store; bot.settings -> settings)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def unit_edges(found: Iterable[Import]) -> dict[tuple[str, str], list[Import]]:
    """Imports between different units, grouped by (importer, imported)."""
    edges: dict[tuple[str, str], list[Import]] = defaultdict(list)
    for imp in found:
        pair = unit(imp.source), unit(imp.target)
        if pair[0] != pair[1]:
            edges[pair].append(imp)
    return dict(sorted(edges.items()))


def duplicates(package: Path = PACKAGE, window: int = DUPLICATE_WINDOW) -> list[Duplicate]:
    """Blocks of at least `window` consecutive code lines that appear in more than one place
    (lines compared with their indentation and trailing comments stripped; blank lines,
    comments, imports and docstrings left out), longest first."""
    lines_of = {_relative(p, package): _code_lines(p) for p in python_files(package)}
    seen: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for path, lines in lines_of.items():
        for i in range(len(lines) - window + 1):
            text = "\n".join(code for _, code in lines[i : i + window])
            seen[hashlib.sha1(text.encode()).hexdigest()].append((path, i))
    repeated = {(path, i) for places in seen.values() if len(places) > 1 for path, i in places}
    found: list[Duplicate] = []
    done: set[tuple[str, int]] = set()
    for places in seen.values():
        if len(places) < 2 or places[0] in done:
            continue
        length = window
        while all(
            (path, i + length - window + 1) in repeated
            and i + length < len(lines_of[path])
            and lines_of[path][i + length][1] == lines_of[places[0][0]][places[0][1] + length][1]
            for path, i in places
        ):
            length += 1
        for path, i in places:
            done.update((path, j) for j in range(i, i + length - window + 1))
        found.append(Duplicate(length, tuple((path, lines_of[path][i][0]) for path, i in places)))
    return sorted(found, key=lambda d: (-d.lines, d.places))


def _code_lines(path: Path) -> list[tuple[int, str]]:
    """(line number, stripped text) of the lines that are code, not layout or docs."""
    text = path.read_text(encoding="utf-8")
    skip: set[int] = set()
    for node in ast.walk(ast.parse(text, str(path))):
        if isinstance(node, ast.Import | ast.ImportFrom):
            skip.update(range(node.lineno, (node.end_lineno or node.lineno) + 1))
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and _is_docstring(body[0]):
            first = body[0]
            skip.update(range(first.lineno, (first.end_lineno or first.lineno) + 1))
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        code = line.split("  #")[0].strip()
        if code and not code.startswith("#") and number not in skip:
            found.append((number, code))
    return found


def _is_docstring(node: ast.stmt) -> bool:
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    )


def report(package: Path, top: int) -> list[str]:
    sizes, functions = file_sizes(package), function_sizes(package)
    repeated = duplicates(package)
    out = [f"{package}: {len(sizes)} modules, {sum(f.lines for f in sizes):,} lines", ""]
    out.append(f"largest files (lines), top {top}:")
    out += [f"  {f.lines:5d}  {f.path}" for f in sizes[:top]]
    out += ["", f"largest functions (lines), top {top}:"]
    out += [f"  {f.lines:5d}  {f.path}:{f.line}  {f.name}" for f in functions[:top]]
    out += [
        "",
        f"duplicated blocks (>= {DUPLICATE_WINDOW} code lines): {len(repeated)}, "
        f"{sum(d.lines * (len(d.places) - 1) for d in repeated)} lines repeated; top {top}:",
    ]
    out += [
        f"  {d.lines:5d}  " + ", ".join(f"{path}:{line}" for path, line in d.places)
        for d in repeated[:top]
    ]
    out += ["", "imports between units (importer -> imported: names imported):"]
    out += [
        f"  {a:>13} -> {b:<13} {len(found)}"
        for (a, b), found in unit_edges(imports(package)).items()
    ]
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.code_health", description=__doc__)
    parser.add_argument("package", nargs="?", type=Path, default=PACKAGE, help="a bot/ folder")
    parser.add_argument("--top", type=int, default=15, help="how many of each to list")
    args = parser.parse_args(argv)
    if not (args.package / "__init__.py").is_file():
        parser.error(f"{args.package} is not a Python package folder")
    print("\n".join(report(args.package.resolve(), args.top)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
