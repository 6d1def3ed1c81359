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
