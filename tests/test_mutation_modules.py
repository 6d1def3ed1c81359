"""tools/mutation.py names, per module, the files mutated, the tests that must kill their
mutants and (for some) the functions that count. A move or a rename elsewhere leaves those names
pointing at nothing, and a mutation run then measures nothing without saying so: the mentions
module counted a function two refactors after `allowed_mentions` had left it (issue 26)."""

from __future__ import annotations

import ast
import fnmatch
from pathlib import Path

import pytest

from tools.mutation import MODULES, Module

ROOT = Path(__file__).resolve().parents[1]


Function = ast.FunctionDef | ast.AsyncFunctionDef


def functions_of(source: str) -> list[tuple[str, Function]]:
    """Each function and method of `source` (bot/x/y.py), with a name of mutmut's form."""
    dotted = source.removesuffix(".py").replace("/", ".")
    tree = ast.parse((ROOT / source).read_text(encoding="utf-8"))
    found: list[tuple[str, Function]] = []
    for node in tree.body:
        if isinstance(node, Function):
            found.append((f"{dotted}.x_{node.name}__mutmut_1", node))
        elif isinstance(node, ast.ClassDef):
            found += [
                (f"{dotted}.xǁ{node.name}ǁ{item.name}__mutmut_1", item)
                for item in node.body
                if isinstance(item, Function)
            ]
    return found


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_a_module_names_files_and_tests_that_exist(module: Module) -> None:
    assert [s for s in module.sources if not (ROOT / s).is_file()] == []
    assert [t for t in module.tests if not (ROOT / t).exists()] == []


@pytest.mark.parametrize("module", [m for m in MODULES if m.functions], ids=lambda m: m.name)
def test_each_function_pattern_matches_a_function_of_the_module(module: Module) -> None:
    names = [name for source in module.sources for name, _ in functions_of(source)]
    assert [p for p in module.functions if not fnmatch.filter(names, p)] == []


def test_the_mentions_module_counts_the_line_that_sets_allowed_mentions() -> None:
    (mentions,) = [m for m in MODULES if m.name == "mentions"]
    source = (ROOT / mentions.sources[0]).read_text(encoding="utf-8")
    counted = [
        node
        for name, node in functions_of(mentions.sources[0])
        if any(fnmatch.fnmatch(name, pattern) for pattern in mentions.functions)
    ]
    assert counted, "no function of bot/app.py is counted"
    body = "\n".join(ast.get_source_segment(source, node) or "" for node in counted)
    assert "allowed_mentions" in body
