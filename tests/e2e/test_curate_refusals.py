"""/curate paper add refusing bad input on the stand-in: each a clear private answer, and
nothing written."""

from __future__ import annotations

import pytest

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localarxiv.server import LocalArxiv
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import (
    FORM,
    MASKED_ARXIV,
    add_by_form,
    arxiv,
    audit_count,
    curate,
    curator_bot,
    settings_for,
)
from tests.support.interactions import EPHEMERAL

__all__ = ["arxiv", "curator_bot"]  # fixtures, shared with test_curate


@pytest.mark.parametrize(
    ("options", "answer"),
    [
        ({"arxiv": "2502.1"}, "**2502.1** is not an arXiv id"),
        ({"arxiv": "javascript:alert(1)"}, "is not an arXiv id"),
        ({"arxiv": f"{MASKED_ARXIV}v3"}, "already has that paper (2502.06768v3) as paper #"),
        ({"venue": "Nowhere Conference"}, "I don't know the venue **Nowhere Conference**"),
        (
            {"source": "https://user:secret@example.org/awards"},
            "These fields are not valid: **url**",
        ),
        ({"source": "data:text/html,hi"}, "These fields are not valid: **url**"),
        (
            {"track": "Main\u202eTrack"},
            "**track** contains an invisible control or direction character (U+202E)",
        ),
    ],
)
async def test_bad_options_are_refused_clearly_and_nothing_is_written(
    curator_bot: LaurelBot,
    server: LocalDiscord,
    db: Database,
    options: dict[str, object],
    answer: str,
) -> None:
    before = await audit_count(db)
    given = {"venue": "ICML", "year": 2025, "award": "best", "arxiv": "1605.08386", **options}
    refused = await curate(server, "paper add", given)
    message = await refused.message()
    assert message["flags"] & EPHEMERAL
    assert answer in message["content"]
    assert await audit_count(db) == before


@pytest.mark.parametrize(
    ("form", "answer"),
    [
        ({"links": "code javascript:alert(1)"}, "These fields are not valid: **links.code**"),
        ({"links": "project https://root:hunter2@example.org/"}, "**links.project**"),
        ({"links": "homepage https://example.org/"}, "is not a link line"),
        ({"title": "Curated\u202e Attention"}, "**title** contains an invisible control"),
        ({"authors": "Ada\x07 Lovelace"}, "**authors** contains an invisible control"),
        ({"doi": "not a doi"}, "These fields are not valid: **doi**"),
        ({"doi": "10.1145/3292500.3330701 "}, None),
    ],
)
async def test_bad_form_input_is_refused_clearly_and_nothing_is_written(
    curator_bot: LaurelBot,
    server: LocalDiscord,
    db: Database,
    form: dict[str, str],
    answer: str | None,
) -> None:
    before = await audit_count(db)
    opened = await curate(server, "paper add", {"venue": "ICML", "year": 2025, "award": "best"})
    await opened.response()
    submitted = await server.submit(opened, {**FORM, **form})
    message = await submitted.message()
    assert message["flags"] & EPHEMERAL
    if answer is None:  # a good form: a preview, and still nothing written until confirmed
        assert message["embeds"][0]["title"] == FORM["title"]
    else:
        assert answer in message["content"]
    assert await audit_count(db) == before


async def test_a_doi_in_another_case_is_a_duplicate(
    curator_bot: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    paper_id = await add_by_form(server, db, FORM)
    before = await audit_count(db)
    opened = await curate(
        server, "paper add", {"venue": "ICLR", "year": 2025, "award": "outstanding"}
    )
    await opened.response()
    again = {**FORM, "title": "Another Title", "doi": "https://doi.org/10.5555/CURATED.2025"}
    message = await (await server.submit(opened, again)).message()
    assert message["content"].startswith(
        f"The catalogue already has that paper (10.5555/curated.2025) as paper #{paper_id}"
    )
    assert await audit_count(db) == before


async def test_arxiv_not_knowing_the_id_or_not_answering_is_told_and_nothing_is_written(
    server: LocalDiscord, db: Database, arxiv: LocalArxiv
) -> None:
    before = await audit_count(db)
    async with laurel_on(server, db, settings_for(arxiv.url), clock=SystemClock()):
        options = {"venue": "ICML", "year": 2025, "award": "best", "arxiv": "2501.99999"}
        unknown = await (await curate(server, "paper add", options)).message()
        assert unknown["flags"] & EPHEMERAL
        assert unknown["content"].startswith("arXiv has no paper with the id **2501.99999**")
        arxiv.faults.fail(1, status=503)
        down = await (
            await curate(server, "paper add", {**options, "arxiv": "1605.08386"})
        ).message()
        assert down["content"].startswith("arXiv is not answering right now (HTTP 503")
    assert await audit_count(db) == before
