"""CurationService: what a curator's addition of a paper checks and writes, apart from Discord.

The /curate cogs parse the form and render the preview; this service says whether the paper is
new (a duplicate check, then a dry run through the one write path) and writes the batch the
curator confirmed, again through the catalogue writer, which refuses what another curator
added meanwhile.
"""

from __future__ import annotations

from bot.domain.models import Award, CatalogBatch, Rejection
from bot.domain.plan import Plan
from bot.errors import UserError
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository


def refusal(rejection: Rejection) -> UserError:
    """Why the store refused a curator's write, in the curator's language."""
    if rejection.key is None:  # a record the models refused: the form's checks came first
        return UserError("curate-rejected-other")
    return UserError(f"rejected-{rejection.key}", **rejection.params)


class TitleTaken(UserError):
    """The edition already holds the title (and the paper gives no arXiv id or DOI): the dry
    run would merge it, not add it. `title` is the paper's, as given: the cog escapes it."""

    def __init__(self, title: str) -> None:
        super().__init__("curate-duplicate-title", title=title[:100])
        self.title = title


class CurationService:
    def __init__(self, papers: PaperRepository, catalog: CatalogRepository) -> None:
        self._papers = papers
        self._catalog = catalog

    async def prepare_addition(self, award: Award) -> CatalogBatch:
        """The batch that adds `award` and its new paper, or a refusal if the paper is not new.

        A duplicate is another version of a stored arXiv id, a stored DOI in any case, or (with
        neither) a title the edition already holds (`TitleTaken`).
        """
        paper = award.paper
        for kind, value in (("arxiv", paper.arxiv), ("doi", paper.doi)):
            if value is None:
                continue
            found = await self._papers.holder(**{kind: value})
            if found is not None:
                paper_id, removed = found
                key = "curate-duplicate-removed" if removed else "curate-duplicate"
                raise UserError(key, id=paper_id, value=value)
        batch = CatalogBatch(awards=(award,))
        plan = await self._catalog.apply(batch, actor="preview", policy="update", dry_run=True)
        if plan.rejected:
            raise refusal(plan.rejected[0])
        if plan.count("add", "paper") != 1:
            raise TitleTaken(paper.title)
        return batch

    async def add(self, batch: CatalogBatch, *, actor: str) -> Plan:
        """Write what `prepare_addition` prepared, once confirmed: checked again as it is
        written (another curator may have added the paper meanwhile)."""
        plan = await self._catalog.apply(batch, actor=actor, policy="update", new_papers_only=True)
        if plan.rejected:
            raise refusal(plan.rejected[0])
        return plan
