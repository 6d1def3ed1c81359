"""A digest theme is one module of bot/digests/themes plus its locale strings: the shipped ones
are whole, one lacking a part is refused, and a theme added here, in the tests alone, is
offered, scheduled, picked and posted by the engine with nothing else touched (issue 26)."""

from __future__ import annotations

import dataclasses
import datetime as dt
import pkgutil
from typing import Any

import discord
import pytest

from bot.digests import themes as themes_package
from bot.digests.engine import DigestEngine
from bot.digests.themes import ThemeContext, ThemeIncomplete, ThemeRegistry, ThemeSpec
from bot.domain.models import LANGUAGES
from bot.domain.subscriptions import DEFAULT_CADENCE, Cadence, DigestFilter, Subscription, Theme
from bot.errors import UserError
from bot.render.digest_posts import Frame, Post, framed
from bot.render.i18n import Strings
from bot.settings import DigestSettings
from bot.store.catalog.editions import EditionRepository
from bot.store.catalog.papers import PaperRepository
from bot.store.digest_content import DigestContentRepository
from bot.store.ledger import LedgerRepository
from tests.support.digests import START, Rig

SHIPPED = ThemeRegistry.shipped()
STRINGS = Strings.load()


def test_every_module_of_the_package_is_a_registered_theme() -> None:
    modules = {m.name.replace("_", "-") for m in pkgutil.iter_modules(themes_package.__path__)}
    assert {spec.name for spec in SHIPPED} == modules
    # The names the domain keeps (for tests, and the cadence a Subscription built without one
    # gets) are shipped themes', with their cadences; a new theme need not be among them.
    assert {t.value for t in Theme} <= modules
    assert {name: SHIPPED[name].cadence for name in DEFAULT_CADENCE} == DEFAULT_CADENCE


@pytest.mark.parametrize("spec", list(SHIPPED), ids=lambda s: s.name)
def test_a_shipped_theme_has_every_part(spec: ThemeSpec) -> None:
    assert spec.missing() == []
    for language in LANGUAGES:
        for key in spec.string_keys:
            assert STRINGS.messages[language].get(key), f"{language}: {key}"
        if language != "en":  # the /digest choice, translated
            assert STRINGS.command_text(spec.label, language), f"{language}: {spec.label!r}"


async def _render(ctx: ThemeContext, _: Subscription, content: dict[str, Any], f: Frame) -> Post:
    ref = await ctx.content.edition(int(content["edition"]))
    assert ref is not None
    return framed(f, ctx.strings, [discord.Embed(title=f"{ref.venue} {ref.year}")])


async def _editions(ctx: ThemeContext, filters: DigestFilter) -> list[int]:
    return await ctx.content.award_edition_ids(filters)


EDITION_ROLL = ThemeSpec(
    name="edition-roll",
    label="edition roll",
    cadence=Cadence.DAILY,
    key="edition",
    candidates=_editions,
    render=_render,
)


@pytest.mark.parametrize(
    ("change", "lacking"),
    [
        ({"candidates": None}, "exactly one picker"),
        ({"batch": _editions}, "exactly one picker"),
        ({"name": "Edition Roll"}, "a name"),
        ({"label": " "}, "a label"),
        ({"render": None}, "a renderer"),
        ({"key": "awards"}, "a content key"),
    ],
)
def test_a_theme_lacking_a_part_is_refused(change: dict[str, Any], lacking: str) -> None:
    with pytest.raises(ThemeIncomplete, match=lacking):
        SHIPPED.with_theme(dataclasses.replace(EDITION_ROLL, **change))


def test_a_theme_is_registered_once() -> None:
    with pytest.raises(ThemeIncomplete, match="twice"):
        SHIPPED.with_theme(dataclasses.replace(EDITION_ROLL, name="paper-of-the-day"))


def _with_strings(base: Strings) -> Strings:
    messages = {language: dict(texts) for language, texts in base.messages.items()}
    for language in LANGUAGES:
        messages[language]["digest-theme-edition-roll"] = "Edition roll"
        messages[language]["digests-theme-edition-roll"] = "Edition roll"
    return Strings(messages, base.commands)


def _refused(twin: Subscription) -> UserError:
    return UserError("digest-error-duplicate", heading=f"#{twin.id}")


async def test_a_theme_added_by_a_test_alone_is_posted(rig: Rig) -> None:
    registry = SHIPPED.with_theme(EDITION_ROLL)
    strings = _with_strings(STRINGS)
    rig.engine = DigestEngine.build(
        settings=DigestSettings(requests_per_second=None),
        ledger=LedgerRepository(rig.db),
        content=DigestContentRepository(rig.db),
        themes=registry,
        subscriptions=rig.subscriptions,
        papers=PaperRepository(rig.db),
        editions=EditionRepository(rig.db),
        strings=strings,
        deliverer=rig.deliverer,
        scheduler=None,
        clock=rig.clock,
        events=rig.metrics,
    )
    sub = Subscription(
        guild_id=1,
        channel_id=100,
        theme="edition-roll",
        cadence=Cadence.DAILY,
        days=frozenset(range(7)),
        time=dt.time(9),
        timezone="UTC",
        created_by=7,
        created_at=rig.clock.now(),
    )
    stored = await rig.engine.subscriptions.subscribe(sub, _refused)
    preview = await rig.engine.service.preview(stored)
    await rig.run_until(START + dt.timedelta(days=2), dt.timedelta(hours=1))
    names = [s.thread_name for s in rig.deliverer.sent]
    assert names == ["Edition roll · 2026-01-05", "Edition roll · 2026-01-06"]
    # Two different editions, each one the catalogue has, as the cycle promises.
    titles = [s.post.embeds[0].title for s in rig.deliverer.sent]
    assert len(set(titles)) == 2
    assert preview.embeds[0].title == titles[0]
    with pytest.raises(UserError):  # the same theme and filters twice in one channel
        await rig.engine.subscriptions.subscribe(sub, _refused)
