"""The real ai-bestpapers file through the one write path, on top of the bundled catalogue."""

from __future__ import annotations

from pathlib import Path

from bot.catalog import formats
from bot.catalog.bundled import load_bundled
from bot.domain.clock import SystemClock
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.repository import CatalogRepository
from tests.support.backends import open_sqlite


async def test_all_574_awards_accounted_for_and_a_second_import_changes_nothing(
    tmp_path: Path, shared_dir: Path
) -> None:
    papers_yml = shared_dir / "datasets" / "ai-bestpapers" / "papers.yml"
    async with await open_sqlite(tmp_path / "laurel.db") as db:
        catalog = CatalogRepository(db, SystemClock())
        await catalog.apply(load_bundled(), actor="bundled", policy="update")
        known = await EditionRepository(db).venues()
        batch = formats.read(papers_yml, "ai-bestpapers", known)

        first = await catalog.apply(batch, actor="import", policy="fill")
        awards_in = first.count("add", "award") + first.count("change", "award")
        awards_in += first.count("unchanged", "award")
        assert awards_in + len(first.rejected) == 574
        # Every award's paper is either new or resolved to one already stored.
        papers = sum(first.count(a, "paper") for a in ("add", "merge", "unchanged"))
        assert papers + len(first.rejected) == 574
        assert first.count("merge", "paper") + first.count("unchanged", "paper") >= 4

        audit_rows = await db.fetchone("SELECT count(*) FROM audit WHERE actor = 'import'")
        assert audit_rows is not None
        written = sum(1 for c in first.changes if c.action != "unchanged")
        assert audit_rows[0] == written

        second = await catalog.apply(batch, actor="again", policy="fill")
        assert not second.changes_anything
        assert second.rejected == first.rejected
        again = await db.fetchone("SELECT count(*) FROM audit WHERE actor = 'again'")
        assert again is not None
        assert again[0] == 0
        assert await db.integrity_check() == []


def test_a_toml_file_saved_with_a_byte_order_mark_reads_as_without(tmp_path: Path) -> None:
    """Notepad's UTF-8 starts with a byte-order mark: laurel.toml and CSV files read past it,
    and an import's TOML said "not valid TOML: Invalid statement (at line 1, column 1)"
    (issue 22, item 11)."""
    text = (Path(__file__).parents[2] / "data" / "2025" / "iccv.toml").read_text("utf-8")
    plain, marked = tmp_path / "plain.toml", tmp_path / "marked.toml"
    plain.write_text(text, encoding="utf-8")
    marked.write_text(text, encoding="utf-8-sig")
    assert marked.read_bytes().startswith(b"\xef\xbb\xbf")
    read = formats.read(marked, "toml")
    assert read.awards
    assert read == formats.read(plain, "toml")
