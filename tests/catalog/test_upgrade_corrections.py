"""A release that corrects what an earlier one said keeps what curators removed (issue 22).

The earlier release is this one's bundled catalogue with a typo in a title and another kind for
an award; a curator removes that paper and that award; then this release's catalogue reaches
the database as a start and `laurel db migrate` bring it (`load_bundled_into`, policy bundle).
Neither comes back, and nothing else of the whole catalogue is taken for a new record.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bot.catalog import bundled
from bot.catalog.parts import CatalogParts
from bot.domain.clock import SystemClock
from bot.store.catalog.repository import CatalogRepository
from tests.support.backends import open_sqlite

TYPO = ("Online Boosting", "Online Bosting")
REKINDED = "A Nearly-Linear Time Framework for Graph-Structured Sparsity"


def _earlier_release(root: Path) -> Path:
    earlier = root / "earlier"
    shutil.copytree(bundled.DATA_DIR, earlier)
    icml = earlier / "awards" / "icml.toml"
    text = icml.read_text(encoding="utf-8")
    assert text.count(TYPO[0]) == 1
    text = text.replace(TYPO[0], TYPO[1])
    block = text.index(f'title = "{REKINDED}"')
    start = text.rindex('kind = "best"', 0, block)
    text = text[:start] + 'kind = "runner-up"' + text[start + len('kind = "best"') :]
    icml.write_text(text, encoding="utf-8")
    return earlier


async def test_a_corrected_title_or_kind_does_not_bring_back_what_a_curator_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents = bundled.documents
    earlier = _earlier_release(tmp_path)
    async with await open_sqlite(tmp_path / "laurel.db") as db:
        monkeypatch.setattr(bundled, "documents", lambda root=earlier: documents(earlier))
        await bundled.load_bundled_into(CatalogParts.over(db, SystemClock()), only_if_empty=True)
        catalog = CatalogRepository(db, SystemClock())
        typo = await db.fetchone("SELECT id FROM papers WHERE title LIKE '%Online Bosting'")
        assert typo is not None
        await catalog.remove("paper", int(typo[0]), actor="discord:1")
        award = await db.fetchone(
            "SELECT a.id FROM awards AS a JOIN papers AS p ON p.id = a.paper_id"
            " WHERE p.title = ? AND a.kind = 'runner-up'",
            (REKINDED,),
        )
        assert award is not None
        await catalog.remove("award", int(award[0]), actor="discord:1")

        monkeypatch.setattr(bundled, "documents", documents)  # this release
        plan = await bundled.load_bundled_into(
            CatalogParts.over(db, SystemClock()), only_if_empty=True
        )
        assert plan is not None
        assert plan.rejected == []
        assert (plan.count("add", "paper"), plan.count("add", "award")) == (0, 0)
        assert (
            await db.fetchall("SELECT id FROM live_papers WHERE title LIKE '%Online Boost%'") == []
        )
        live = await db.fetchall(
            "SELECT a.kind FROM live_awards AS a JOIN papers AS p ON p.id = a.paper_id"
            " WHERE p.title = ?",
            (REKINDED,),
        )
        assert live == []
