"""CSV export, then import of that file into the same catalogue, over the bundled catalogue
(issue 22): nothing changes — no award gains a second copy of its source, no byline flips
between complete and cut short."""

from __future__ import annotations

from pathlib import Path

from bot.catalog import formats
from bot.catalog.bundled import load_bundled_into
from bot.catalog.importers import csv_format
from bot.catalog.parts import CatalogParts
from bot.domain.clock import SystemClock
from bot.domain.models import CatalogBatch
from bot.store.catalog.repository import CatalogRepository
from tests.support.backends import open_sqlite


async def test_exporting_and_importing_the_bundled_catalogue_changes_nothing(
    tmp_path: Path,
) -> None:
    async with await open_sqlite(tmp_path / "laurel.db") as db:
        await load_bundled_into(CatalogParts.over(db, SystemClock()))
        catalog = CatalogRepository(db, SystemClock())
        before = await catalog.export()
        if not any(a.paper.authors_incomplete for a in before.awards):
            # Issue 24 sourced the last bylines the bundle had cut short; one is cut short here
            # so that the case stays covered.
            award = before.awards[0]
            cut = award.model_copy(
                update={"paper": award.paper.model_copy(update={"authors_incomplete": True})}
            )
            await catalog.apply(CatalogBatch(awards=(cut,)), actor="test", policy="update")
            before = await catalog.export()
        assert any(a.paper.authors_incomplete for a in before.awards)  # the case is covered
        file = tmp_path / "awards.csv"
        file.write_text(csv_format.write(before), encoding="utf-8")
        assert formats.POLICY["csv"] == "fill"  # as `laurel import` and /curate import apply it
        plan = await catalog.apply(csv_format.parse(file), actor="import awards.csv", policy="fill")
        after = await catalog.export()
    assert plan.rejected == []
    changed = [c for c in plan.changes if c.action != "unchanged"]
    assert [(c.entity, c.label, c.fields) for c in changed][:5] == []
    by_award = {(a.venue, a.year, a.kind, a.track, a.name, a.paper.title): a for a in after.awards}
    for award in before.awards:
        again = by_award[
            (award.venue, award.year, award.kind, award.track, award.name, award.paper.title)
        ]
        assert again.sources == award.sources
        assert again.paper.authors_incomplete == award.paper.authors_incomplete
    assert after == before
