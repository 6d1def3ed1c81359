"""Tests take their helpers from tests/support (issue 26): a conftest.py holds fixtures, which
pytest hands out by name; importing one as a module would run it twice under two names."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def conftest_imports(source: str) -> list[str]:
    """Each import of a conftest module in `source`, as "line: module"."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found += [f"{node.lineno}: {n}" for n in names if n.split(".")[-1] == "conftest"]
    return found


def test_no_test_imports_from_a_conftest() -> None:
    offenders = {
        path.relative_to(TESTS).as_posix(): found
        for path in sorted(TESTS.rglob("*.py"))
        if (found := conftest_imports(path.read_text(encoding="utf-8")))
    }
    assert offenders == {}, "move the helper to tests/support and import it from there"


def test_the_check_sees_a_conftest_import() -> None:
    assert conftest_imports("from tests.digests.conftest import Rig") == [
        "1: tests.digests.conftest"
    ]
    assert conftest_imports("import tests.conftest") == ["1: tests.conftest"]
    assert conftest_imports("from tests.support.digests import Rig") == []
