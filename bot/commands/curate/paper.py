"""/curate paper add | edit | remove: one paper at a time, previewed, audited, undoable."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import locale_str as _

from bot.catalog.arxiv.client import paper_from_arxiv
from bot.catalog.curation import TitleTaken, refusal
from bot.commands.curate.access import Curation, CuratorGroup, actor
from bot.commands.curate.inputs import (
    AwardOptions,
    aliases_of,
    arxiv_id_of,
    format_links,
    paper_from_form,
)
from bot.commands.curate.summary import (
    summary_form_values,
    with_aliases,
    with_area,
    with_summary,
)
from bot.commands.curate.views import ConfirmView, PaperForm, send_preview
from bot.commands.options import (
    AUTOCOMPLETE_LIMIT,
    LANGUAGE_CHOICES,
    AreaOption,
    VenueOption,
    Year,
    award_options,
)
from bot.commands.resolve import resolve_paper
from bot.commands.writes import answer, before_write
from bot.domain.identifiers import parse_arxiv_id
from bot.domain.models import (
    LANGUAGES,
    Award,
    AwardKind,
    Language,
    Paper,
    StoredPaper,
)
from bot.errors import UserError
from bot.render.curate import entry_embed, paper_preview, plan_embed
from bot.render.i18n import language_of
from bot.render.markdown import esc

CHOICE_NAME = 100
_LANGUAGE: dict[str, Language] = {language: language for language in LANGUAGES}


async def stored_paper(curation: Curation, given: str) -> StoredPaper:
    """The paper `given` names, read as every command reads one (bot/commands/resolve.py)."""
    return await resolve_paper(curation.papers, given, missing="curate-no-paper")


async def paper_choices(curation: Curation, current: str) -> list[app_commands.Choice[str]]:
    found = await curation.papers.titles(current, limit=AUTOCOMPLETE_LIMIT)
    return [
        app_commands.Choice(name=f"#{p.id} {p.title}"[:CHOICE_NAME], value=str(p.id)) for p in found
    ]


def form_values(paper: Paper | None, *, with_doi: bool) -> dict[str, str]:
    """The form's fields, filled from `paper`; five at most, as Discord's forms allow."""
    values = {
        "title": paper.title if paper else "",
        "authors": "\n".join(paper.authors) if paper else "",
    }
    if with_doi:
        values["doi"] = (paper.doi or "") if paper else ""
    else:
        values["affiliations"] = "\n".join(paper.affiliations) if paper else ""
    values["links"] = format_links(paper.links) if paper else ""
    values["abstract"] = (paper.abstract or "") if paper else ""
    return values


class PaperCuration(CuratorGroup):
    def __init__(self, curation: Curation) -> None:
        super().__init__(
            curation,
            name=_("paper"),
            description=_("Add, correct or remove an awarded paper"),
        )

    @app_commands.command(
        name=_("add"), description=_("Add an awarded paper: from arXiv, or through a form")
    )
    @app_commands.describe(arxiv=_("arXiv id or link; leave out to fill in a form instead"))
    @app_commands.rename(arxiv=_("arxiv"))
    @award_options
    async def add(
        self,
        interaction: discord.Interaction,
        venue: VenueOption,
        year: Year,
        award: app_commands.Choice[str],
        arxiv: app_commands.Range[str, 1, 200] | None = None,
        track: app_commands.Range[str, 1, 200] | None = None,
        name: app_commands.Range[str, 1, 200] | None = None,
        source: app_commands.Range[str, 1, 2048] | None = None,
    ) -> None:
        curation, language = self.curation, language_of(interaction.locale)
        options = AwardOptions(venue.key, year, AwardKind(award.value), track, name, source)
        options.check()  # before arXiv is asked or a form opened: a refusal, not wasted work
        await curation.check_year(venue.key, venue.name, year)
        if arxiv is None:
            await self._open_form(interaction, options, language)
            return
        arxiv_id = arxiv_id_of(arxiv)
        found = await curation.papers.holder(arxiv=arxiv_id)
        if found is not None:
            key = "curate-duplicate-removed" if found[1] else "curate-duplicate"
            raise UserError(key, id=found[0], value=arxiv_id)
        if curation.arxiv is None:
            raise UserError("curate-no-arxiv")
        await interaction.response.defer(ephemeral=True, thinking=True)
        wanted = parse_arxiv_id(arxiv_id)
        entry = (await curation.arxiv.fetch([wanted])).entry(wanted)
        # The paper's own year: an award's unless it honours older work (test of time), where
        # arXiv's first version says when the paper came out; a curator can correct either.
        published = entry.published.year if entry.published else None
        honours_older = AwardKind(award.value) is AwardKind.TEST_OF_TIME and published
        paper = paper_from_arxiv(entry, year=published if honours_older else year)
        await self._preview(interaction, options.award(paper), language)

    async def _open_form(
        self, interaction: discord.Interaction, options: AwardOptions, language: Language
    ) -> None:
        async def submit(submitted: discord.Interaction, given: dict[str, str]) -> None:
            paper = paper_from_form(given)
            await self._preview(submitted, options.award(paper), language)

        form = PaperForm(
            self.curation,
            interaction.user.id,
            title=self.curation.strings.text("curate-form-add-title", language),
            values=form_values(None, with_doi=True),
            language=language,
            submit=submit,
        )
        await interaction.response.send_modal(form)

    async def _preview(
        self, interaction: discord.Interaction, award: Award, language: Language
    ) -> None:
        curation = self.curation
        await before_write(interaction)  # the dry run waits for the write lock as a write does
        try:
            batch = await curation.service.prepare_addition(award)
        except TitleTaken as taken:  # the title is shown as typed, not as markdown
            raise UserError("curate-duplicate-title", title=esc(taken.title)[:100]) from None
        who = actor(interaction)

        async def write() -> discord.Embed:
            plan = await curation.service.add(batch, actor=who)
            title = curation.strings.text("curate-added", language)
            return plan_embed(plan, curation.strings, language, title=title)

        strings = curation.strings
        heading = strings.text("curate-preview-add", language)
        venue = {v.key: v.name for v in await curation.editions.venues()}.get(award.venue)
        embed = paper_preview(
            award.paper, award, strings, language, heading=heading, venue_name=venue
        )
        view = ConfirmView(curation, interaction.user.id, write, language)
        await send_preview(interaction, view, embed)

    @app_commands.command(
        name=_("edit"),
        description=_("Correct a paper in a form, its summary in one language, area or aliases"),
    )
    @app_commands.describe(
        paper=_("Start typing a title and pick the paper"),
        summary=_("Edit the summary in this language instead (a form; leave it blank to clear)"),
        area=_("File the paper under this research area"),
        clear_area=_("File the paper under no research area"),
        aliases=_("The names people use for the paper (AlexNet), separated by semicolons"),
        clear_aliases=_("Remove the paper's aliases"),
    )
    @app_commands.rename(
        paper=_("paper"),
        summary=_("summary"),
        area=_("area"),
        clear_area=_("clear-area"),
        aliases=_("aliases"),
        clear_aliases=_("clear-aliases"),
    )
    @app_commands.choices(summary=LANGUAGE_CHOICES)
    async def edit(
        self,
        interaction: discord.Interaction,
        paper: str,
        summary: app_commands.Choice[str] | None = None,
        area: AreaOption | None = None,
        clear_area: bool = False,
        aliases: app_commands.Range[str, 1, 1000] | None = None,
        clear_aliases: bool = False,
    ) -> None:
        curation, language = self.curation, language_of(interaction.locale)
        if area is not None and clear_area:
            raise UserError("curate-area-and-clear")
        if aliases is not None and clear_aliases:
            raise UserError("curate-aliases-and-clear")
        named = None if aliases is None and not clear_aliases else aliases_of(aliases)
        stored = await stored_paper(curation, paper)
        filed = area is not None or clear_area
        base = with_area(stored.paper, area) if filed else stored.paper
        base = base if named is None else with_aliases(base, named)
        if summary is None and (filed or named is not None):
            await self._save(interaction, stored.id, base, language)
            return
        values: dict[str, str] = form_values(stored.paper, with_doi=False)
        labels: dict[str, str] = {}
        written = _LANGUAGE[summary.value] if summary is not None else language
        if summary is not None:
            values = summary_form_values(stored.paper, written)
            text = curation.strings.text
            labels = {
                "summary": text("curate-form-summary", language, language_name=summary.name),
                "source": text("curate-form-summary-source", language),
            }

        async def submit(submitted: discord.Interaction, given: dict[str, str]) -> None:
            if summary is None:
                edited = paper_from_form(given, base=base)
            else:
                edited = with_summary(base, written, dict(given))
            await self._save(submitted, stored.id, edited, language)

        form = PaperForm(
            curation,
            interaction.user.id,
            title=curation.strings.text("curate-form-edit-title", language, id=stored.id),
            values=values,
            language=language,
            submit=submit,
            labels=labels,
        )
        await interaction.response.send_modal(form)

    async def _save(
        self, interaction: discord.Interaction, paper_id: int, edited: Paper, language: Language
    ) -> None:
        """Write `edited` over the stored paper (audited) and answer with the change."""
        curation = self.curation
        await before_write(interaction)
        plan = await curation.catalog.replace_paper(paper_id, edited, actor=actor(interaction))
        if plan.rejected:
            raise refusal(plan.rejected[0])
        if not plan.changes_anything:
            raise UserError("curate-unchanged")
        entries, _ = await curation.audit.history(paper_id=paper_id, limit=1)
        title = curation.strings.text("curate-edited", language, id=entries[0].id)
        embed = entry_embed(entries[0], curation.strings, language, title=title, paper=edited)
        await answer(interaction, embed=embed)

    @app_commands.command(name=_("remove"), description=_("Remove a paper and its awards"))
    @app_commands.describe(paper=_("Start typing a title and pick the paper"))
    @app_commands.rename(paper=_("paper"))
    async def remove(self, interaction: discord.Interaction, paper: str) -> None:
        curation, language = self.curation, language_of(interaction.locale)
        stored = await stored_paper(curation, paper)
        who = actor(interaction)

        async def write() -> discord.Embed:
            plan = await curation.catalog.remove("paper", stored.id, actor=who)
            if plan.rejected:
                raise refusal(plan.rejected[0])
            title = curation.strings.text("curate-removed", language)
            return plan_embed(plan, curation.strings, language, title=title)

        heading = curation.strings.text("curate-preview-remove", language, id=stored.id)
        embed = paper_preview(
            stored.paper, None, curation.strings, language, heading=heading, flag_missing_link=False
        )
        view = ConfirmView(
            curation, interaction.user.id, write, language, confirm_key="curate-confirm-remove"
        )
        await send_preview(interaction, view, embed)

    @edit.autocomplete("paper")
    @remove.autocomplete("paper")
    async def _papers(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await paper_choices(self.curation, current)
