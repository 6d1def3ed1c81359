"""The one paper resolver of every command that takes a paper (issue 25, item 11).

`/paper show`, `/curate paper edit | remove`, `/curate award add` and `/curate history` all
read their paper option the same way: the id an autocomplete pick carries, else an arXiv id,
else the best match for the words typed. `/curate paper edit paper:Heat-bath` found nothing
where `/paper show` found the paper: now they find the same one.
"""

from __future__ import annotations

from bot.domain.identifiers import IdentifierError, parse_arxiv_id
from bot.domain.models import StoredPaper
from bot.errors import UserError
from bot.render.markdown import esc
from bot.store.catalog.papers import PaperRepository

_LONGEST_ID = 18  # a row id typed as digits; longer digit runs are words (or years)


async def resolve_paper(papers: PaperRepository, given: str, *, missing: str) -> StoredPaper:
    """The paper `given` names; a UserError `missing` (with `query`) when none does, or
    "paper-not-found" when a picked id is no longer in the catalogue."""
    text = given.strip()
    if text.isdigit() and len(text) <= _LONGEST_ID:
        stored = await papers.get(int(text))
        if stored is None:
            raise UserError("paper-not-found", id=int(text))
        return stored
    try:
        arxiv = parse_arxiv_id(text)
    except IdentifierError:
        arxiv = None
    if arxiv is not None:
        by_arxiv = await papers.by_arxiv(str(arxiv))
        if by_arxiv is not None:
            return by_arxiv
    # Every word, as typed or within a typo: naming a paper never falls back to some words.
    found = await papers.search(text, limit=1, every_word=True) if text else []
    if not found:
        raise UserError(missing, query=esc(text)[:100])
    return found[0]
