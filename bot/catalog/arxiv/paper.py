"""From an arXiv entry to the catalogue's Paper, for /curate paper add and `laurel enrich` alike.

`paper_from_arxiv` makes the whole Paper arXiv describes; `missing_from` keeps of it only what a
stored paper lacks, so enriching fills gaps and never overrides what a curator wrote. The one
thing it replaces is an author list a source cut short ("et al."), and only with a list that
extends it: every name already stored is in arXiv's, in the same order.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from bot.catalog.arxiv.atom import ArxivEntry
from bot.domain.models import Links, Paper, Source

# The catalogue holds at most this many authors a paper (a few physics collaborations list more).
MAX_AUTHORS = 3_000  # as Paper.authors allows

ARXIV_API_DOCUMENT = "arXiv API"


def paper_from_arxiv(
    entry: ArxivEntry, *, year: int | None = None, title: str | None = None
) -> Paper:
    """The Paper arXiv describes: title, full author list, abstract, links, id, version, DOI.

    Links name the paper, not one revision (`/abs/2502.06768`), so they show its latest
    version; the revision fetched is kept in `arxiv_version`. `year` is left to the caller (an
    award's edition year, usually); `title` overrides arXiv's where the catalogue's differs.
    """
    return Paper(
        title=title or entry.title,
        authors=entry.authors[:MAX_AUTHORS],
        year=year,
        arxiv=entry.id.id,
        arxiv_version=entry.version,
        doi=entry.doi,
        links=Links(arxiv=entry.id.abs_url, pdf=entry.id.pdf_url),
        abstract=entry.abstract or None,
        sources=(arxiv_source(entry),),
    )


def arxiv_source(entry: ArxivEntry, covers: tuple[str, ...] = ()) -> Source:
    return Source(url=entry.id.abs_url, document=ARXIV_API_DOCUMENT, covers=covers)


def lacks(paper: Paper) -> tuple[str, ...]:
    """What `laurel enrich` can fill in for `paper`: abstract, authors and links it lacks."""
    gaps = []
    if not paper.abstract:
        gaps.append("abstract")
    if not paper.authors or paper.authors_incomplete:
        gaps.append("authors")
    if paper.links.arxiv is None:
        gaps.append("links.arxiv")
    if paper.links.pdf is None:
        gaps.append("links.pdf")
    return tuple(gaps)


def missing_from(stored: Paper, entry: ArxivEntry) -> tuple[Paper, tuple[str, ...]] | None:
    """A Paper carrying only what `stored` lacks and `entry` has, and the fields it fills.

    The stored title is kept (it identifies the paper to the writer and is not a gap); an author
    list is only given where none is stored, so a differing spelling is not an "alternative", or
    where a source cut the stored one short and arXiv's extends it (written with the "update"
    policy: see `completes`). None when `entry` has nothing the stored paper lacks.
    """
    full = paper_from_arxiv(entry)
    fills: dict[str, object] = {}
    if not stored.abstract and full.abstract:
        fills["abstract"] = full.abstract
    if (not stored.authors and full.authors) or completes(stored, full.authors):
        fills["authors"] = full.authors
    if stored.doi is None and full.doi is not None:
        fills["doi"] = full.doi
    links = {
        name: value
        for name, value in full.links.model_dump(exclude_none=True).items()
        if getattr(stored.links, name) is None
    }
    if links:
        fills["links"] = Links(**links)
    newer = entry.version is not None and (stored.arxiv_version or 0) < entry.version
    if not fills and not newer:
        return None
    filled = tuple(
        f"links.{name}" if field == "links" else field
        for field in fills
        for name in (links if field == "links" else [field])
    )
    paper = Paper(
        title=stored.title,
        arxiv=entry.id.id,
        arxiv_version=entry.version,
        sources=(arxiv_source(entry, covers=filled),) if filled else (),
        **fills,
    )
    return paper, filled


def completes(stored: Paper, authors: Sequence[str]) -> bool:
    """Whether `authors` is the whole list of which `stored` holds a cut-short beginning."""
    if not stored.authors_incomplete or len(authors) < len(stored.authors):
        return False
    return all(
        same_person(ours, theirs) for ours, theirs in zip(stored.authors, authors, strict=False)
    )


def same_person(ours: str, theirs: str) -> bool:
    """Two spellings of one author: the same words (case and accents aside), or the same last
    name and first initial ("D. Rezende" and "Danilo Jimenez Rezende")."""
    a, b = _name_words(ours), _name_words(theirs)
    if not a or not b:
        return False
    return a == b or (a[-1] == b[-1] and a[0][0] == b[0][0])


def _name_words(name: str) -> list[str]:
    text = unicodedata.normalize("NFKD", name.casefold())
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return "".join(ch if ch.isalnum() else " " for ch in text).split()
