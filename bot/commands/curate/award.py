"""/curate award add | remove and /curate stats set: awards of stored papers, and numbers."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.catalog.curation import refusal
from bot.commands.curate.access import Curation, CuratorGroup, actor
from bot.commands.curate.inputs import AwardOptions, checked, validated
from bot.commands.curate.paper import paper_choices, stored_paper
from bot.commands.curate.views import ConfirmView, send_preview
from bot.commands.options import AUTOCOMPLETE_LIMIT, VenueOption, Year, award_options
from bot.commands.writes import answer, before_write
from bot.domain.models import AwardKind, CatalogBatch, Edition, Language, Source
from bot.domain.plan import Plan
from bot.errors import UserError
from bot.render.curate import entry_embed, paper_preview
from bot.render.i18n import language_of
from bot.render.markdown import esc

CHOICE_NAME = 100
STAT_FIELDS = (
    "submissions", "accepted", "orals", "spotlights", "posters", "reviewers", "area_chairs",
    "senior_area_chairs",
)  # fmt: skip
STAT_CHOICES = [app_commands.Choice(name=_(f.replace("_", " ")), value=f) for f in STAT_FIELDS]


async def show_write(
    interaction: discord.Interaction, curation: Curation, plan: Plan, title_key: str
) -> None:
    """Answer with what a write changed (its first audit row), or why nothing was written."""
    language: Language = language_of(interaction.locale)
    await answer(interaction, embed=await written(curation, plan, title_key, language))


async def written(
    curation: Curation, plan: Plan, title_key: str, language: Language
) -> discord.Embed:
    """What a write changed (the audit row of the record asked for), or a refusal."""
    if plan.rejected:
        raise refusal(plan.rejected[0])
    if not plan.changes_anything:
        raise UserError("curate-unchanged")
    entries = await curation.audit.in_batch(plan.batch)
    main = entries[-1]  # the record asked for; an edition made on the way comes first
    title = curation.strings.text(title_key, language, id=main.id)
    edition = (main.after or main.before or {}).get("edition_id")
    if main.entity == "edition" and main.entity_id.isdigit():  # /curate stats set
        edition = int(main.entity_id)  # named as the history names it: ICML 2024, not #3
    editions = await curation.editions.labels([edition] if isinstance(edition, int) else [])
    return entry_embed(main, curation.strings, language, title=title, editions=editions)


def _adds_the_award(plan: Plan, paper_id: int) -> Plan:
    if not plan.rejected and plan.count("add", "award") == 0:
        raise UserError("curate-award-exists", id=paper_id)
    return plan


class AwardCuration(CuratorGroup):
    def __init__(self, curation: Curation) -> None:
        super().__init__(
            curation, name=_("award"), description=_("Give a stored paper an award, or take it")
        )

    @app_commands.command(name=_("add"), description=_("Give a stored paper another award"))
    @app_commands.describe(paper=_("Start typing a title and pick the paper"))
    @app_commands.rename(paper=_("paper"))
    @award_options
    async def add(
        self,
        interaction: discord.Interaction,
        paper: str,
        venue: VenueOption,
        year: Year,
        award: app_commands.Choice[str],
        track: app_commands.Range[str, 1, 200] | None = None,
        name: app_commands.Range[str, 1, 200] | None = None,
        source: app_commands.Range[str, 1, 2048] | None = None,
    ) -> None:
        curation, language = self.curation, language_of(interaction.locale)
        options = AwardOptions(venue.key, year, AwardKind(award.value), track, name, source)
        options.check()
        await curation.check_year(venue.key, venue.name, year)
        stored = await stored_paper(curation, paper)
        given, who = options.award(stored.paper), actor(interaction)
        await before_write(interaction)  # the dry run waits for the write lock as a write does
        rehearsed = await curation.catalog.add_award(stored.id, given, actor=who, dry_run=True)
        if rehearsed.rejected:
            raise refusal(rehearsed.rejected[0])
        _adds_the_award(rehearsed, stored.id)

        async def write() -> discord.Embed:
            plan = await curation.catalog.add_award(stored.id, given, actor=who)
            return await written(
                curation, _adds_the_award(plan, stored.id), "curate-award-added", language
            )

        heading = curation.strings.text("curate-preview-award", language, id=stored.id)
        venue_name = {v.key: v.name for v in await curation.editions.venues()}.get(given.venue)
        embed = paper_preview(
            stored.paper, given, curation.strings, language, heading=heading, venue_name=venue_name
        )
        view = ConfirmView(curation, interaction.user.id, write, language)
        await send_preview(interaction, view, embed)

    @add.autocomplete("paper")
    async def _papers(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await paper_choices(self.curation, current)

    @app_commands.command(name=_("remove"), description=_("Take an award from a paper"))
    @app_commands.describe(award=_("Start typing the paper's title and pick the award"))
    @app_commands.rename(award=_("award"))
    async def remove(self, interaction: discord.Interaction, award: str) -> None:
        text = award.strip()
        if not text.isdigit() or len(text) > 18:
            raise UserError("curate-no-award", query=esc(text)[:100])
        await before_write(interaction)
        plan = await self.curation.catalog.remove("award", int(text), actor=actor(interaction))
        if plan.rejected:
            raise UserError("curate-no-award", query=text)
        await show_write(interaction, self.curation, plan, "curate-award-removed")

    @remove.autocomplete("award")
    async def _awards(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        papers = await self.curation.papers.titles(current, limit=10)
        titles = {p.id: p.title for p in papers}
        found = await self.curation.papers.awards_of(list(titles))
        return [
            app_commands.Choice(
                name=f"{ref.venue_name} {ref.year} {ref.kind.value} — {titles[paper_id]}"[
                    :CHOICE_NAME
                ],
                value=str(award_id),
            )
            for award_id, paper_id, ref in found[:AUTOCOMPLETE_LIMIT]
        ]


class StatsCuration(CuratorGroup):
    def __init__(self, curation: Curation) -> None:
        super().__init__(curation, name=_("stats"), description=_("Correct a conference's numbers"))

    @app_commands.command(name=_("set"), description=_("Set one number of one edition"))
    @app_commands.describe(
        venue=_("The conference, e.g. ICML or NeurIPS"),
        year=_("The year of the conference"),
        field=_("Which number"),
        value=_("The number"),
        source=_("Link to where the number was published"),
    )
    @app_commands.rename(
        venue=_("venue"), year=_("year"), field=_("field"), value=_("value"), source=_("source")
    )
    @app_commands.choices(field=STAT_CHOICES)
    async def set(
        self,
        interaction: discord.Interaction,
        venue: VenueOption,
        year: Year,
        field: app_commands.Choice[str],
        value: app_commands.Range[int, 0, 10_000_000],
        source: app_commands.Range[str, 1, 2048],
    ) -> None:
        url = checked("source", source)
        sources = (validated(Source, {"url": url}),)
        # The whole edition is checked with the new number (accepted ≤ submissions and so on).
        current = await self.curation.editions.edition(venue.key, year)
        whole: dict[str, Any] = (
            current.model_dump(exclude_none=True) if current else {"venue": venue.key, "year": year}
        )
        validated(Edition, {**whole, field.value: value})
        edition = validated(
            Edition,
            {"venue": venue.key, "year": year, field.value: value, "sources": sources},
        )
        await before_write(interaction)
        plan = await self.curation.catalog.apply(
            CatalogBatch(editions=(edition,)), actor=actor(interaction), policy="update"
        )
        await show_write(interaction, self.curation, plan, "curate-stats-set")
