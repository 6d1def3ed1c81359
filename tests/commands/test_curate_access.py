"""Who may curate, at the unit level: what the stand-in cannot make (a user who is no member of
a server), and how long a curator's buttons and forms stay live. The end-to-end refusals are in
tests/e2e/test_curate.py; these are the survivors of mutation testing (docs/mutation.md)."""

from __future__ import annotations

from dataclasses import dataclass

import discord
import pytest

from bot.catalog.curation import CurationService
from bot.commands.curate.access import CONFIRM_TIMEOUT, Curation, CuratorModal, CuratorView
from bot.domain.clock import SystemClock
from bot.domain.models import CatalogBatch, Edition, Venue
from bot.errors import UserError
from bot.render.i18n import Strings
from bot.settings import CurationSettings
from bot.store.catalog.audit import AuditRepository
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from tests.support.clock import ManualClock

OWNER, CURATOR, STRANGER, ROLE = 1, 2, 3, 40


class Bot:
    """The one thing Curation asks of the bot: who owns it."""

    async def is_owner(self, user: object) -> bool:
        return getattr(user, "id", None) == OWNER


@dataclass
class Role:
    id: int


@dataclass
class Member:
    id: int
    roles: list[Role]


@dataclass
class Asking:
    """The two things `refusal` reads of an interaction."""

    user: object
    guild_id: int | None = 10


@pytest.fixture
def curation(db: Database) -> Curation:
    return Curation(
        bot=Bot(),  # type: ignore[arg-type]  # only is_owner is used
        settings=CurationSettings(user_ids=[CURATOR], role_ids=[ROLE]),
        strings=Strings.load(),
        catalog=CatalogRepository(db, SystemClock()),
        papers=PaperRepository(db),
        editions=EditionRepository(db),
        audit=AuditRepository(db),
        arxiv=None,
        clock=ManualClock(),
        service=CurationService(PaperRepository(db), CatalogRepository(db, SystemClock())),
    )


@pytest.mark.parametrize(
    ("user", "refusal"),
    [
        (discord.Object(id=OWNER), None),
        (discord.Object(id=CURATOR), None),
        (Member(STRANGER, [Role(ROLE)]), None),
        (Member(STRANGER, [Role(ROLE + 1)]), "curate-not-allowed"),
        # A user outside any server (a DM) has no roles at all: refused, not a crash.
        (discord.Object(id=STRANGER), "curate-not-allowed"),
    ],
    ids=["owner", "named-user", "named-role", "other-role", "no-member"],
)
async def test_who_may_curate(curation: Curation, user: object, refusal: str | None) -> None:
    assert await curation.refusal(Asking(user)) == refusal  # type: ignore[arg-type]


async def test_a_curators_buttons_keep_the_time_they_are_given_and_answer_in_their_strings(
    curation: Curation,
) -> None:
    view = CuratorView(curation, CURATOR, timeout=CONFIRM_TIMEOUT)
    assert view.timeout == CONFIRM_TIMEOUT
    assert view.strings is curation.strings


async def test_a_curators_form_expires_with_the_preview_and_its_title_fits_discord(
    curation: Curation,
) -> None:
    title = "A title longer than the forty-five characters Discord allows"
    form = CuratorModal(curation, CURATOR, title=title)
    assert form.timeout == CONFIRM_TIMEOUT
    assert form.title == title[:45]


async def _refusal(
    curation: Curation, year: int, venue: str = "icml"
) -> tuple[str, dict[str, object]] | None:
    try:
        await curation.check_year(venue, venue.upper(), year)
    except UserError as refused:
        return refused.key, refused.params
    return None


async def test_an_awards_year_runs_from_the_venues_first_edition_to_next_year(
    curation: Curation,
) -> None:
    """The manual clock stands in 2026: 2027 is the last year an award can have; ICML's first
    edition in the catalogue (2014, from the statistics the migrations load) the first. Each
    bound is tried on both sides, and an edition added earlier moves the first."""
    bounds = {"venue": "ICML", "first": 2014, "last": 2027}
    assert await _refusal(curation, 2014) is None
    assert await _refusal(curation, 2027) is None
    assert await _refusal(curation, 2020) is None
    assert await _refusal(curation, 2013) == ("curate-year-outside", {**bounds, "year": 2013})
    assert await _refusal(curation, 2028) == ("curate-year-outside", {**bounds, "year": 2028})
    older = CatalogBatch(editions=(Edition(venue="icml", year=2011),))
    await curation.catalog.apply(older, actor="test", policy="update")
    assert await _refusal(curation, 2011) is None
    assert await _refusal(curation, 2010) == (
        "curate-year-outside", {**bounds, "first": 2011, "year": 2010},
    )  # fmt: skip


async def test_a_venue_with_no_edition_takes_any_year_up_to_next_year(curation: Curation) -> None:
    new = CatalogBatch(venues=(Venue(key="tmlr", name="TMLR"),))
    await curation.catalog.apply(new, actor="test", policy="update")
    assert await _refusal(curation, 1950, venue="tmlr") is None
    assert await _refusal(curation, 2027, venue="tmlr") is None
    # With no first edition there is no range to name: only the year is too far ahead (the
    # message once read "from its first edition (2028) to next year (2027)").
    ahead = {"venue": "TMLR", "year": 2028, "last": 2027}
    assert await _refusal(curation, 2028, venue="tmlr") == ("curate-year-ahead", ahead)
