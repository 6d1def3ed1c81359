"""`laurel enrich`/`import` run in-process against a copy of the bundled catalogue: the
settings, the awards imported, and what the catalogue and its audit hold afterwards."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from bot.cli import parse
from bot.domain.clock import SystemClock
from bot.domain.models import Paper
from bot.settings import Settings
from bot.store.catalog.papers import PaperRepository
from tests.support.backends import open_sqlite


@pytest.fixture(autouse=True)
def no_outside_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.startswith("LAUREL_"):
            monkeypatch.delenv(name)


def settings_for(db_path: Path, url: str, **arxiv: object) -> Settings:
    # No waiting between requests here: the interval is tested on a fake clock below.
    options = {"base_url": url, "min_interval_seconds": 0, "backoff_seconds": 0, **arxiv}
    return Settings.model_validate({"database": {"path": db_path}, "arxiv": options})


async def laurel(settings: Settings, *argv: str) -> int:
    args = parse(list(argv), SystemClock())
    code: int = await args.handler(settings, args)
    return code


async def with_awards(template_db: Path, tmp_path: Path, document: str) -> Path:
    """A copy of the bundled catalogue with the awards of `document` imported into it."""
    path = tmp_path / "laurel.db"
    shutil.copyfile(template_db, path)
    awards = tmp_path / "awards.toml"
    awards.write_text(document, encoding="utf-8")
    assert await laurel(settings_for(path, "http://unused"), "import", str(awards)) == 0
    return path


async def paper(db_path: Path, arxiv_id: str) -> Paper:
    async with await open_sqlite(db_path, create=False) as db:
        found = await PaperRepository(db).by_arxiv(arxiv_id)
    assert found is not None
    return found.paper


async def audit_rows(db_path: Path) -> list[tuple[str, str, str]]:
    async with await open_sqlite(db_path, create=False) as db:
        found = await db.fetchall("SELECT actor, action, entity FROM audit ORDER BY id")
    return [(r[0], r[1], r[2]) for r in found]
