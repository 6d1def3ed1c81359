"""CurationService: a curator's addition checked (duplicates, a dry run) and written through
the one write path, apart from Discord (issue 26, item 1)."""

from __future__ import annotations

import datetime as dt

import pytest

from bot.catalog.curation import CurationService, TitleTaken
from bot.domain.models import Award, AwardKind, Paper, Source
from bot.errors import UserError
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.clock import ManualClock

TITLE = "A *made-up* paper on [links](https://example.org)"


def addition(paper: Paper) -> Award:
    return Award(
        venue="icml",
        year=2019,
        name="Best Paper",
        kind=AwardKind.BEST,
        paper=paper,
        sources=(Source(url="https://example.org/awards"),),
    )


async def test_an_addition_is_prepared_written_once_and_refused_after(db: Database) -> None:
    clock = ManualClock(dt.datetime(2026, 12, 1, tzinfo=dt.UTC))
    service = CurationService(PaperRepository(db), CatalogRepository(db, clock))
    award = addition(Paper(title=TITLE, arxiv="2501.00001"))
    batch = await service.prepare_addition(award)
    plan = await service.add(batch, actor="discord:1")
    assert plan.count("add", "paper") == 1
    with pytest.raises(UserError) as again:  # the same arXiv id: not new any more
        await service.prepare_addition(award)
    assert again.value.key == "curate-duplicate"
    with pytest.raises(UserError):  # a second confirm of the same preview writes nothing
        await service.add(batch, actor="discord:2")
    with pytest.raises(TitleTaken) as taken:  # no id at all: the edition holds the title
        await service.prepare_addition(addition(Paper(title=TITLE)))
    assert taken.value.title == TITLE  # as typed: the cog escapes it for Discord
