"""A database made by the previous release, curated, then upgraded: the curators' work stays.

The previous release (commit ccbed91: 33 seed papers, schema 4) is taken out of git and run
as it was, in a child process, to make the database and to apply a curator's edits through its
own write path. This release then opens it (schema 5) and brings in its bundled catalogue as
`laurel db migrate` and a start do.
"""

from __future__ import annotations

import io
import os
import shutil
import sqlite3
import subprocess
import sys
import tarfile
from contextlib import closing
from pathlib import Path

import pytest

from bot.catalog.bundled import load_bundled_into
from bot.catalog.parts import CatalogParts
from bot.cli import main
from bot.domain.clock import SystemClock
from tests.ops.dockerfile_replay import ROOT
from tests.support.backends import open_sqlite

PREVIOUS = "ccbed91"
CURATOR = "curator:1001"

# Run by the previous release's code: the bundled catalogue, then a curator's edits.
_PREVIOUS_RELEASE = f"""
import asyncio, sys
from pathlib import Path
import bot
assert bot.__file__.startswith(sys.argv[2]), bot.__file__
from bot.catalog.bundled import load_bundled_into
from bot.domain.models import CatalogBatch, Edition
from bot.store.catalog import CatalogRepository
from bot.store.database import Database
from bot.store.papers import PaperRepository

async def main():
    async with await Database.open(Path(sys.argv[1])) as db:
        await load_bundled_into(db)
        papers, catalog = PaperRepository(db), CatalogRepository(db)
        def one(found, start):
            (paper,) = [p for p in found if p.paper.title.startswith(start)]
            return paper
        sam = one(await papers.awarded_at("iclr", 2025), "SAM 2")
        renamed = sam.paper.model_copy(update={{"title": "SAM 2, as our curator titles it",
                                                "summaries": {{}}}})
        await catalog.replace_paper(sam.id, renamed, actor="{CURATOR}")
        morl = one(await papers.awarded_at("ijcai", 2025), "Combining MORL")
        await catalog.remove("paper", morl.id, actor="{CURATOR}")
        rcnn = one(await papers.awarded_at("neurips", 2025), "Faster R-CNN")
        (award_id,) = [r[0] for r in await db.fetchall(
            "SELECT id FROM awards WHERE paper_id = ?", (rcnn.id,))]
        await catalog.remove("award", award_id, actor="{CURATOR}")
        city = Edition(venue="icml", year=2019, city="Long Beach, California")
        await catalog.apply(CatalogBatch(editions=(city,)), actor="{CURATOR}", policy="update")

asyncio.run(main())
"""


@pytest.fixture(scope="module")
def previous_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database of the previous release, with a curator's edits made by that release."""
    root = tmp_path_factory.mktemp("previous")
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", "--format=tar", PREVIOUS, "bot", "data"],
        capture_output=True,
    )
    if archive.returncode != 0:
        pytest.skip(f"the previous release ({PREVIOUS}) is not in this checkout's git history")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(root / "release", filter="data")
    path = root / "laurel.db"
    made = subprocess.run(
        [sys.executable, "-c", _PREVIOUS_RELEASE, str(path), str(root / "release")],
        cwd=root / "release",
        env={**os.environ, "PYTHONPATH": str(root / "release")},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr[-3000:]
    return path


def _rows(path: Path, sql: str, *params: object) -> list[tuple[object, ...]]:
    with closing(sqlite3.connect(path)) as conn:
        return conn.execute(sql, params).fetchall()


@pytest.fixture
def upgraded(previous_db: Path, tmp_path: Path) -> tuple[Path, list[tuple[object, ...]]]:
    path = tmp_path / "laurel.db"
    shutil.copy(previous_db, path)
    audit = _rows(path, "SELECT * FROM audit ORDER BY id")
    return path, audit


async def test_the_upgrade_adds_the_catalogue_and_keeps_every_curators_edit(
    upgraded: tuple[Path, list[tuple[object, ...]]],
) -> None:
    path, audit = upgraded
    assert _rows(path, "PRAGMA user_version") == [(4,)]
    async with await open_sqlite(path) as db:  # migrates to this release's schema
        plan = await load_bundled_into(CatalogParts.over(db, SystemClock()), only_if_empty=True)
        assert plan is not None
        assert plan.rejected == []
        again = await load_bundled_into(CatalogParts.over(db, SystemClock()), only_if_empty=True)
    assert again is None  # the same bundled documents are not applied twice

    # The history is there...
    (venues, awards) = _rows(
        path, "SELECT (SELECT count(*) FROM venues), (SELECT count(*) FROM live_awards)"
    )[0]
    assert venues == 20
    assert isinstance(awards, int)
    assert awards >= 800
    # ... the audit only grew ...
    assert _rows(path, "SELECT * FROM audit ORDER BY id")[: len(audit)] == audit
    # ... the renamed paper kept its name and its cleared summaries, and was not added again ...
    sam = _rows(path, "SELECT title, summaries FROM papers WHERE title LIKE 'SAM 2%'")
    assert sam == [("SAM 2, as our curator titles it", "{}")]
    # ... the removed paper and the removed award stay removed ...
    morl = _rows(
        path, "SELECT removed_at IS NOT NULL FROM papers WHERE title LIKE 'Combining MORL%'"
    )
    assert morl == [(1,)]
    rcnn = _rows(
        path,
        """
        SELECT count(*) FROM live_awards AS a JOIN papers AS p ON p.id = a.paper_id
        WHERE p.title LIKE 'Faster R-CNN%'
        """,
    )
    assert rcnn == [(0,)]
    # ... and an edition keeps the curator's city while the bundle fills what they left empty.
    icml = _rows(path, "SELECT city, country FROM editions WHERE venue = 'icml' AND year = 2019")
    assert icml == [("Long Beach, California", "USA")]


def test_laurel_db_migrate_brings_the_bundled_records(
    upgraded: tuple[Path, list[tuple[object, ...]]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path, audit = upgraded
    monkeypatch.setenv("LAUREL_DATABASE__PATH", str(path))
    monkeypatch.chdir(path.parent)
    assert main(["db", "migrate"]) == 0
    out = capsys.readouterr().out
    assert "bundled catalogue brought up to date (add:" in out
    assert "rejected: 0" in out
    assert main(["db", "migrate"]) == 0
    assert "bundled catalogue" not in capsys.readouterr().out
    assert _rows(path, "SELECT * FROM audit ORDER BY id")[: len(audit)] == audit
