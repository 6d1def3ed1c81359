"""The catalogue that ships with Laurel, under `data/`."""

from __future__ import annotations

from pathlib import Path

from bot.catalog.document import DocumentError, merge, read_document
from bot.domain.models import CatalogBatch
from bot.store.catalog import CatalogRepository
from bot.store.database import Database
from bot.store.editions import EditionRepository
from bot.store.plan import Plan

DATA_DIR = Path(__file__).resolve().parents[2] / "data"


def load_bundled(root: Path = DATA_DIR) -> CatalogBatch:
    """Read every document under `root`; the bundled data must be free of rejections."""
    files = sorted(root.rglob("*.toml"))
    if not files:
        raise DocumentError(f"no catalogue documents under {root}", key="bundled")
    batch = merge(
        read_document(path.read_text(encoding="utf-8"), str(path.relative_to(root)))
        for path in files
    )
    if batch.rejected:
        problems = "\n".join(f"  {r.where}: {r.reason}" for r in batch.rejected)
        raise DocumentError(
            f"the bundled catalogue has invalid records:\n{problems}", key="bundled"
        )
    return batch


async def load_bundled_into(db: Database, *, only_if_empty: bool = False) -> Plan | None:
    """Write the bundled catalogue through the one write path; `only_if_empty` for first starts."""
    if only_if_empty and await EditionRepository(db).venues():
        return None
    return await CatalogRepository(db).apply(load_bundled(), actor="bundled data", policy="update")


def main() -> None:
    """`python -m bot.catalog.bundled`: check the bundled data and print what it holds."""
    batch = load_bundled()
    print(f"{len(batch.venues)} venues, {len(batch.editions)} editions, {len(batch.awards)} awards")


if __name__ == "__main__":
    main()
