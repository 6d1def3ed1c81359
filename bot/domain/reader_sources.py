"""A paper's sources as a reader is shown them under the "Sources" button (issues 24 and 25).

The catalogue records each source with a `document`: sometimes the title a page was published
under ("ICLR 2024 Test of Time Award", 「2025 AI 頂會導讀」), often the catalogue's own note of
what was read ("The authors' code repository, README (commit fae8866)", "awesome-ai-best-papers
papers.csv (CC0), AAAI 2024 rows"). The notes are curators' bookkeeping, in English: a reader is
shown instead what each source is (the venue's page, the proceedings, the preprint, a
repository, another page, an article), by its published title where it has one, else by its
site's name, and the datasets the record was converted from by name, never by file or commit.
A note with no address to follow is the curators' alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import urlsplit

from bot.domain.models import Source
from bot.domain.provenance import domains, host, on_code_host, read_at_a_commit, refused, tier

Kind = Literal["venue", "proceedings", "preprint", "repository", "page", "article", "dataset"]
KINDS: tuple[Kind, ...] = (
    "venue", "proceedings", "preprint", "repository", "page", "article", "dataset",
)  # fmt: skip
_TIER_KINDS: tuple[Kind, ...] = ("venue", "proceedings", "preprint")
# arXiv's own HTML rendering: a reader is sent to the paper's arXiv page instead.
_AR5IV = re.compile(r"^/(?:html|abs)/(?P<id>[^/?#]+?)(?:v\d+)?/?$")
_AR5IV_HOSTS = ("ar5iv.labs.arxiv.org", "ar5iv.org")
# A title as published, inside quotation marks of either script.
_QUOTED = re.compile(r"[\"“「《『]([^\"”」》』]{3,})[\"”」》』]")
_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# A parenthesis at the end holding no Chinese and not only a date: a note ("repost").
_TRAILING_NOTE = re.compile(r"\s*[(（](?![\d\-–/ ]+[)）])[^\u3400-\u9fff()（）]*[)）]\s*$")


@dataclass(frozen=True)
class ReaderSource:
    kind: Kind
    label: str  # a published title, a site's name, or a dataset's name: never translated
    url: str | None


def for_reader(source: Source) -> ReaderSource | None:
    """What a reader is shown of `source`, or None when it is the curators' alone (a refused
    host, or a note with no address)."""
    document = source.document or ""
    url = source.url
    if url is not None and refused(url):
        url = _arxiv_page(url)
        if url is None:
            return None
    dataset = _dataset(url, document)
    if dataset is not None:
        return ReaderSource("dataset", dataset, None)
    title = published_title(document)
    if url is None:
        return ReaderSource("article", title, None) if title else None
    return ReaderSource(_kind(url), title or site_name(url), _shown_url(url))


def for_readers(sources: Iterable[Source]) -> list[ReaderSource]:
    """Each source once (by what the reader reads), the venue's pages first, datasets last."""
    seen: dict[tuple[Kind, str], ReaderSource] = {}
    for source in sources:
        shown = for_reader(source)
        if shown is not None:
            seen.setdefault((shown.kind, shown.label.casefold()), shown)
    return sorted(seen.values(), key=lambda s: KINDS.index(s.kind))


def published_title(document: str) -> str | None:
    """The title a source was published under, where its document gives one: a quoted title,
    or a document in Chinese (the seed articles' titles), less a trailing note."""
    quoted = _QUOTED.search(document)
    if quoted:
        return quoted.group(1).strip()
    if _HAN.search(document):
        return _TRAILING_NOTE.sub("", document).strip() or None
    return None


def site_name(url: str) -> str:
    """A page's site, as a reader recognises it: the host; for a code host, owner/repository."""
    name = host(url)
    if on_code_host(url):
        parts = [p for p in urlsplit(url).path.split("/") if p][:2]
        if parts:
            return "/".join([name, *parts])
    return name


def _kind(url: str) -> Kind:
    rank = tier(url)
    if rank < len(_TIER_KINDS):
        return _TIER_KINDS[rank]
    return "repository" if on_code_host(url) else "page"


def _shown_url(url: str) -> str:
    """A file of a repository read at a commit is shown as the repository itself."""
    if on_code_host(url) and read_at_a_commit(url):
        return f"https://{site_name(url)}"
    return url


def _arxiv_page(url: str) -> str | None:
    if host(url) not in _AR5IV_HOSTS:
        return None
    found = _AR5IV.match(urlsplit(url).path)
    return f"https://arxiv.org/abs/{found['id']}" if found else None


def _dataset(url: str | None, document: str) -> str | None:
    """The name of the dataset a source is (its repository, or a document naming it with no
    other address), else None."""
    for repository in domains().bookkeeping:
        name = repository.rsplit("/", 1)[-1]
        if url is not None:
            address = f"{host(url)}{urlsplit(url).path}".casefold()
            if address.startswith(repository.casefold()):
                return name
        elif name.casefold() in document.casefold():
            return name
    return None
