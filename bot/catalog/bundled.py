"""The catalogue that ships with Laurel: `data/`, inside the package as `bot/_data`.

`bot/_data` is a link to the top-level `data/` (where people edit the catalogue), and the build
packs it as package data, so a wheel, a plain `pip install .` and an editable checkout all read
it through importlib.resources from wherever the package is installed.
"""

from __future__ import annotations

import hashlib
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from bot.catalog.document import DocumentError, merge, read_document
from bot.catalog.parts import CatalogParts
from bot.domain.models import CatalogBatch
from bot.domain.plan import Plan

DATA: Traversable = resources.files("bot") / "_data"
# The same folder as a path (pip installs packages unzipped), for callers that walk files.
DATA_DIR = Path(str(DATA))
ACTOR = "bundled data"  # the audit's name for every write of the bundled catalogue
_APPLIED = "bundled_catalogue_sha256"  # bot_state: the documents last applied


def documents(root: Traversable | Path = DATA) -> list[tuple[str, str]]:
    """Every `*.toml` document under `root`, as (path relative to it, text), sorted by path."""
    found: list[tuple[str, str]] = []

    def walk(folder: Traversable, prefix: str) -> None:
        for entry in folder.iterdir():
            if entry.is_dir():
                walk(entry, f"{prefix}{entry.name}/")
            elif entry.name.endswith(".toml"):
                found.append((prefix + entry.name, entry.read_text(encoding="utf-8")))

    if root.is_dir():
        walk(root, "")
    return sorted(found)


def load_bundled(root: Traversable | Path = DATA) -> CatalogBatch:
    """Read every document under `root`; the bundled data must be free of rejections."""
    return _batch(documents(root), root)


def _batch(files: list[tuple[str, str]], root: Traversable | Path) -> CatalogBatch:
    if not files:
        raise DocumentError(f"no catalogue documents under {root}", key="bundled")
    batch = merge(read_document(text, name) for name, text in files)
    if batch.rejected:
        problems = "\n".join(f"  {r.where}: {r.reason}" for r in batch.rejected)
        raise DocumentError(
            f"the bundled catalogue has invalid records:\n{problems}", key="bundled"
        )
    return batch


async def load_bundled_into(parts: CatalogParts, *, only_if_empty: bool = False) -> Plan | None:
    """Bring the bundled catalogue into the database of `parts` through its one write path.

    An empty database gets all of it. A database in use (made by this or an earlier release)
    gets what the bundled documents add or correct, under the `bundle` policy: a field a
    curator changed stays theirs, a paper or award they removed stays removed, and the audit
    only grows. With `only_if_empty` (at start and on `laurel db migrate`) that happens only
    when the bundled documents differ from those last applied, which costs a hash at a start.
    """
    files = documents()
    digest = hashlib.sha256(repr(files).encode()).hexdigest()
    state = parts.state
    fresh = not await parts.editions.venues()
    if only_if_empty and not fresh and await state.get(_APPLIED) == digest:
        return None
    plan = await parts.catalog.apply(
        _batch(files, DATA), actor=ACTOR, policy="update" if fresh else "bundle"
    )
    await state.put(_APPLIED, digest)
    return plan


def main() -> None:
    """`python -m bot.catalog.bundled`: check the bundled data and print what it holds."""
    batch = load_bundled()
    print(f"{len(batch.venues)} venues, {len(batch.editions)} editions, {len(batch.awards)} awards")


if __name__ == "__main__":
    main()
