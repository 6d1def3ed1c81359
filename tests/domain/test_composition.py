"""Repositories are made in the composition roots only (issue 26, Deliver 4): `bot/app.py`
(the bot's), `bot/cli/` (each `laurel` command's) and `CatalogParts.over`, the one factory those
roots call for the catalogue's loaders. Anywhere else a repository is handed in, so what it
writes carries the root's clock and a test can hand in its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

BOT = Path(__file__).resolve().parents[2] / "bot"
ROOTS = ("app.py", "cli/")
FACTORY = "catalog/parts.py"  # CatalogParts.over: made for the roots, called by them alone


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    return ""


def made_here(source: str) -> list[str]:
    """Each repository constructed, and each call of the roots' factory, in `source`."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            name = _name(node.func)
            if name.split(".")[-1].endswith("Repository") or name.endswith("CatalogParts.over"):
                found.append(f"{node.lineno}: {name}(…)")
    return found


def test_repositories_are_made_in_the_roots_only() -> None:
    offenders = {}
    for path in sorted(BOT.rglob("*.py")):
        name = path.relative_to(BOT).as_posix()
        if name.startswith(ROOTS) or name == FACTORY:
            continue
        found = made_here(path.read_text(encoding="utf-8"))
        if found:
            offenders[name] = found
    assert offenders == {}, "take the repository as a parameter; the roots make it"


@pytest.mark.parametrize(
    "source",
    [
        "state = BotStateRepository(db)",
        "x = await EditionRepository(db).venues()",
        "r = repositories.PaperRepository(db, index)",
        "parts = CatalogParts.over(db, clock)",
    ],
)
def test_the_check_sees_a_repository_made(source: str) -> None:
    assert made_here(source)


def test_the_check_leaves_a_repository_handed_in_alone() -> None:
    assert made_here("async def f(state: BotStateRepository):\n    await state.get('k')") == []
    assert made_here("parts = CatalogParts(catalog, editions, papers, enrichment, state)") == []
