"""Reading the arXiv API's Atom feeds into `ArxivEntry` models.

A feed uses three namespaces: Atom for the entry itself, `arxiv:` for DOI, journal reference,
primary category and comment, and OpenSearch for the result counts. arXiv reports a query it
cannot run (a malformed id, a bad parameter) not with an HTTP error alone but as a feed whose
one entry is titled "Error", with an id under /api/errors: that is raised, never taken as a paper.
"""

from __future__ import annotations

import datetime as dt
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from bot.catalog.arxiv.errors import ArxivBadResponseError, ArxivQueryError
from bot.domain.identifiers import ArxivId, IdentifierError, normalize_doi, parse_arxiv_id
from bot.domain.text import clean_text

ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
# Bounds as in the catalogue's models (bot.domain.models), so an entry always makes a Paper.
_TITLE_MAX, _NAME_MAX, _ABSTRACT_MAX, _SHORT_MAX = 500, 300, 10_000, 200


class ArxivEntry(BaseModel):
    """One paper as arXiv describes it: `id` names the paper, `version` its revision."""

    model_config = ConfigDict(frozen=True, defer_build=True)  # built when arXiv first answers

    id: ArxivId
    version: int | None
    title: str
    authors: tuple[str, ...]
    abstract: str
    published: dt.datetime | None = None
    updated: dt.datetime | None = None
    abs_url: str
    pdf_url: str | None = None
    doi: str | None = None
    journal_ref: str | None = None
    primary_category: str | None = None
    categories: tuple[str, ...] = ()
    comment: str | None = None

    @property
    def versioned_id(self) -> ArxivId:
        return ArxivId(self.id.id, self.version)


@dataclass(frozen=True, slots=True)
class Feed:
    entries: tuple[ArxivEntry, ...]
    total_results: int | None


def parse_feed(body: bytes | str) -> Feed:
    """The entries of an arXiv Atom feed; raises `ArxivQueryError` for arXiv's error entries."""
    if b"<!ENTITY" in (body.encode() if isinstance(body, str) else body):
        raise ArxivBadResponseError("the reply declares XML entities, which a feed never does")
    try:
        root = ET.fromstring(body)
    except ET.ParseError as exc:
        raise ArxivBadResponseError(f"the reply is not XML ({exc})") from None
    if root.tag != f"{ATOM}feed":
        raise ArxivBadResponseError(f"the reply is not an Atom feed (it is <{root.tag}>)")
    entries = [
        entry for element in root.iterfind(f"{ATOM}entry") if (entry := _entry(element)) is not None
    ]
    total = _text(root, f"{OPENSEARCH}totalResults")
    return Feed(tuple(entries), int(total) if total and total.isdigit() else None)


def _entry(element: ET.Element) -> ArxivEntry | None:
    """The paper an entry describes; None for an entry without a title, which is no paper."""
    raw_id = _text(element, f"{ATOM}id") or ""
    title = _clean(_text(element, f"{ATOM}title"), _TITLE_MAX)
    if "/api/errors" in raw_id or title == "Error":
        message = _clean(_text(element, f"{ATOM}summary"), _SHORT_MAX)
        raise ArxivQueryError(message or raw_id.rsplit("#", 1)[-1].replace("_", " "))
    if not title:
        return None
    try:
        versioned = parse_arxiv_id(raw_id)
    except IdentifierError:
        raise ArxivBadResponseError(f"an entry has no arXiv id ({raw_id[:80]!r})") from None
    links = element.findall(f"{ATOM}link")
    alternate = next((link.get("href") for link in links if link.get("rel") == "alternate"), None)
    pdf = next((link.get("href") for link in links if link.get("title") == "pdf"), None)
    primary = element.find(f"{ARXIV}primary_category")
    return ArxivEntry(
        id=ArxivId(versioned.id),
        version=versioned.version,
        title=title,
        authors=tuple(
            name
            for author in element.iterfind(f"{ATOM}author")
            if (name := _clean(_text(author, f"{ATOM}name"), _NAME_MAX))
        ),
        abstract=_clean(_text(element, f"{ATOM}summary"), _ABSTRACT_MAX),
        published=_date(_text(element, f"{ATOM}published")),
        updated=_date(_text(element, f"{ATOM}updated")),
        abs_url=alternate or versioned.abs_url,
        pdf_url=pdf,
        doi=_doi(element),
        journal_ref=_clean(_text(element, f"{ARXIV}journal_ref"), _TITLE_MAX) or None,
        primary_category=None if primary is None else primary.get("term"),
        categories=tuple(
            term for c in element.iterfind(f"{ATOM}category") if (term := c.get("term"))
        ),
        comment=_clean(_text(element, f"{ARXIV}comment"), _ABSTRACT_MAX) or None,
    )


def _text(element: ET.Element, tag: str) -> str | None:
    found = element.find(tag)
    return None if found is None else "".join(found.itertext())


def _clean(value: str | None, max_length: int) -> str:
    # arXiv wraps titles and abstracts at ~80 columns with indented continuation lines.
    return clean_text(value or "", max_length=max_length)


def _date(value: str | None) -> dt.datetime | None:
    if not value:
        return None
    try:
        return dt.datetime.fromisoformat(value.strip())
    except ValueError:
        return None


def _doi(element: ET.Element) -> str | None:
    text = _text(element, f"{ARXIV}doi")
    # Some entries list several DOIs, separated by spaces: the first is the paper's.
    first = (text or "").split()
    try:
        return normalize_doi(first[0]) if first else None
    except IdentifierError:
        return None
