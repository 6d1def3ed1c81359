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


def mutant_names(source: str) -> list[str]:
    """A name of mutmut's form for each function and method of `source` (bot/x/y.py)."""
    dotted = source.removesuffix(".py").replace("/", ".")
    tree = ast.parse((ROOT / source).read_text(encoding="utf-8"))
    names = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.append(f"{dotted}.x_{node.name}__mutmut_1")
        elif isinstance(node, ast.ClassDef):
            names += [
                f"{dotted}.xǁ{node.name}ǁ{item.name}__mutmut_1"
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            ]
    return names


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.name)
def test_a_module_names_files_and_tests_that_exist(module: Module) -> None:
    assert [s for s in module.sources if not (ROOT / s).is_file()] == []
    assert [t for t in module.tests if not (ROOT / t).exists()] == []


@pytest.mark.parametrize("module", [m for m in MODULES if m.functions], ids=lambda m: m.name)
def test_each_function_pattern_matches_a_function_of_the_module(module: Module) -> None:
    names = [name for source in module.sources for name in mutant_names(source)]
    assert [p for p in module.functions if not fnmatch.filter(names, p)] == []


def test_the_mentions_module_counts_the_line_that_sets_allowed_mentions() -> None:
    (mentions,) = [m for m in MODULES if m.name == "mentions"]
    source = (ROOT / mentions.sources[0]).read_text(encoding="utf-8")
    tree = ast.parse(source)
    counted = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        and any(fnmatch.fnmatch(f"bot.app.x_{node.name}__mutmut_1", p) for p in mentions.functions)
    ]
    assert counted, "no function of bot/app.py is counted"
    body = "\n".join(ast.get_source_segment(source, node) or "" for node in counted)
    assert "allowed_mentions" in body
