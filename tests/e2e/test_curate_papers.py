"""Curators find papers as members do, and years stay where awards can be (issue 25, item 11).

`/curate paper edit paper:Heat-bath` said "No paper matches" where `/paper show` found it (one
resolver now); `year:2062` was accepted (bounded to the venue's first edition .. next year); a
test-of-time award added by arXiv id recorded the award's year as the paper's; and a paper's
edition emptied by a removal was still counted among the years a venue covers."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localarxiv.server import LocalArxiv
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import (
    FORM,
    ada,
    arxiv,
    button,
    curate,
    curator_bot,
    settings_for,
)
from tests.support.interactions import EPHEMERAL

__all__ = ["arxiv", "curator_bot"]
HEAT_BATH = "Heat-bath random walks with Markov bases"


@pytest.fixture
async def arxiv_bot(server: LocalDiscord, db: Database, arxiv: LocalArxiv) -> AsyncIterator[None]:
    async with laurel_on(server, db, settings_for(arxiv.url), clock=SystemClock()):
        yield


async def _add_from_arxiv(server: LocalDiscord, award: str, year: int) -> None:
    options = {"venue": "NeurIPS", "year": year, "award": award, "arxiv": "1605.08386"}
    preview = await (await curate(server, "paper add", options)).message()
    assert preview["embeds"][0]["title"] == HEAT_BATH
    done = await server.press(preview, button(preview, "curate:confirm"), user_id=ada(server))
    assert (await done.message())["embeds"][0]["title"] == "Added"


async def test_a_paper_is_found_the_same_way_by_every_command(
    arxiv_bot: None, server: LocalDiscord, db: Database
) -> None:
    await _add_from_arxiv(server, "best", 2016)
    shown = await (await server.slash("paper", {"paper": "Heat-bath"}, subcommand="show")).message()
    assert shown["embeds"][0]["title"] == HEAT_BATH
    opened = await curate(server, "paper edit", {"paper": "Heat-bath"})
    await opened.response()
    assert opened.modal is not None  # was: "No paper in the catalogue matches **Heat-bath**"
    titles = [c["components"][0].get("value") for c in opened.modal["components"]]
    assert HEAT_BATH in titles
    history = await (await curate(server, "history", {"paper": "Heat-bath"})).message()
    assert history["embeds"][0]["title"].startswith("History of paper #")
    nothing = await (await curate(server, "paper edit", {"paper": "zzqx nothing"})).message()
    assert nothing["flags"] & EPHEMERAL
    assert nothing["content"].startswith("No paper in the catalogue matches **zzqx nothing**")


async def test_a_test_of_time_award_keeps_the_papers_own_year(
    arxiv_bot: None, server: LocalDiscord, db: Database
) -> None:
    await _add_from_arxiv(server, "test-of-time", 2026)
    row = await db.fetchone(
        """SELECT p.year, e.year AS award_year FROM papers AS p
           JOIN awards AS a ON a.paper_id = p.id JOIN editions AS e ON e.id = a.edition_id
           WHERE p.arxiv = '1605.08386'"""
    )
    assert row is not None
    assert (row["year"], row["award_year"]) == (2016, 2026)  # arXiv's first version: May 2016


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("en-US", "NeurIPS 2062 is outside the years an award can have: from its first edition"),
        ("zh-TW", "NeurIPS 2062 不在獎項可用的年份內"),
        ("zh-CN", "NeurIPS 2062 不在奖项可用的年份内"),
    ],
)
async def test_an_award_year_beyond_next_year_or_before_the_venue_is_refused(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database, locale: str, said: str
) -> None:
    options = {"venue": "NeurIPS", "year": 2062, "award": "best"}
    refused = await (await curate(server, "paper add", options, locale=locale)).message()
    assert refused["flags"] & EPHEMERAL
    assert refused["content"].startswith(said)
    row = await db.fetchone("SELECT min(year) FROM editions WHERE venue = 'neurips'")
    assert row is not None
    before = {**options, "year": int(row[0]) - 1}
    too_early = await (await curate(server, "paper add", before, locale=locale)).message()
    assert too_early["content"].startswith(f"NeurIPS {int(row[0]) - 1} ")
    assert str(row[0]) in too_early["content"]
    award = {"paper": "token ordering", "venue": "NeurIPS", "year": 2062, "award": "best"}
    given = await (await curate(server, "award add", award, locale=locale)).message()
    assert given["content"].startswith(said)
    assert await db.fetchone("SELECT 1 FROM editions WHERE year = 2062") is None


async def test_an_edition_emptied_by_a_removal_is_not_counted_as_covered(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    row = await db.fetchone("SELECT max(year) FROM editions WHERE venue = 'icml'")
    assert row is not None
    latest = int(row[0])
    opened = await curate(server, "paper add", {"venue": "ICML", "year": 2027, "award": "best"})
    await opened.response()
    preview = await (await server.submit(opened, FORM)).message()
    done = await server.press(preview, button(preview, "curate:confirm"), user_id=ada(server))
    assert (await done.message())["embeds"][0]["title"] == "Added"
    removal = await (await curate(server, "paper remove", {"paper": FORM["title"]})).message()
    removed = await server.press(removal, button(removal, "curate:confirm"), user_id=ada(server))
    assert (await removed.message())["embeds"][0]["title"] == "Removed"

    asked = await server.slash("awards", {"venue": "icml", "year": 2030}, subcommand="edition")
    answer = (await asked.message())["content"]
    assert answer.startswith("The catalogue has nothing for ICML 2030; it covers ICML ")
    assert answer.endswith(f"{latest}.")  # not "–2027": that edition has nothing left
