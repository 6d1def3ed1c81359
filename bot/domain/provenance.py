"""What a member is shown of where a fact came from: one link, the best source (issue 24).

The catalogue keeps every source, each dataset's document and commit, and the values other
sources give (alternatives): that is curators' bookkeeping. A member's answer shows one link,
chosen by the tiers of `source_domains.toml` (the venue's own page first, then the proceedings,
then the preprint, then any other page), and never a refused host (content farms, mirrors).
Links are labelled by what they are: a paper, its proceedings, code, a project page, slides,
a video.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from urllib.parse import urlsplit

from bot.domain.models import Source

# Venue names a host may carry ("iros2019.org", "2024.emnlp.org"): the catalogue's venues.
_VENUE_WORDS = frozenset(
    {"iclr", "icml", "neurips", "nips", "aaai", "ijcai", "acl", "emnlp", "naacl", "cvpr", "iccv",
     "eccv", "iros", "icra", "corl", "rss", "humanoids", "3dv", "case", "siggraph", "wafr"}
)  # fmt: skip
_TIERS = ("venue", "proceedings", "preprint")
_CODE = ("github.com", "gitlab.com", "bitbucket.org", "huggingface.co")
_SLIDES = ("slideshare.net", "speakerdeck.com", "slides.com")
_VIDEO = ("youtube.com", "youtu.be", "vimeo.com", "videolectures.net", "slideslive.com")


@dataclass(frozen=True)
class Domains:
    tiers: tuple[tuple[str, ...], ...]
    refused: tuple[str, ...]
    bookkeeping: tuple[str, ...]


@cache
def domains() -> Domains:
    text = resources.files("bot.domain").joinpath("source_domains.toml").read_text("utf-8")
    data = tomllib.loads(text)
    tiers = tuple(tuple(data[t]) for t in _TIERS)
    return Domains(tiers, tuple(data["refused"]), tuple(data["bookkeeping"]))


def host(url: str) -> str:
    return (urlsplit(url).hostname or "").casefold().removeprefix("www.")


def _within(name: str, entries: Iterable[str]) -> bool:
    return any(name == e or name.endswith("." + e) for e in entries)


def on_code_host(url: str) -> bool:
    """Whether the link is on a code host (GitHub, GitLab, Bitbucket, Hugging Face)."""
    return _within(host(url), _CODE)


def refused(url: str) -> bool:
    """Whether a member must never be shown this link."""
    return _within(host(url), domains().refused)


_AT_A_COMMIT = re.compile(r"/(?:blob|tree)/[0-9a-f]{7,40}/")


def read_at_a_commit(url: str) -> bool:
    """Whether the link is a file or folder of a repository pinned to a commit."""
    return bool(_AT_A_COMMIT.search(urlsplit(url).path))


def bookkeeping(url: str) -> bool:
    """Whether the link is the catalogue's bookkeeping: a dataset's repository, or a file of a
    repository read at a commit. Curators see these; members do not."""
    address = f"{host(url)}{urlsplit(url).path}".casefold().rstrip("/")
    if read_at_a_commit(url):
        return True
    return any(
        address == p.casefold() or address.startswith(p.casefold() + "/")
        for p in domains().bookkeeping
    )


def _venue_named(name: str) -> bool:
    words = {re.sub(r"\d+", "", w) for w in re.split(r"[.\-]", name)}
    return bool(words & _VENUE_WORDS)


def tier(url: str) -> int:
    """0 for the venue's own pages, 1 proceedings, 2 the preprint, 3 any other page."""
    name = host(url)
    for rank, entries in enumerate(domains().tiers):
        if _within(name, entries):
            return rank
    if _venue_named(name) and not _within(name, _CODE):
        return 0
    return len(_TIERS)


def best_source(sources: Iterable[Source]) -> Source | None:
    """The one source a member is shown: a link, never a refused one, the best tier first."""
    linked = [s for s in sources if s.url and not refused(s.url) and not bookkeeping(s.url)]
    return min(linked, key=lambda s: tier(s.url or ""), default=None)


def link_kind(slot: str, url: str) -> str:
    """What a link of the paper is, for its label: arxiv, pdf, openreview, proceedings, code,
    slides, video or project (the catalogue's slot, unless the address says otherwise)."""
    name = host(url)
    if _within(name, _CODE):
        return "code"
    if _within(name, _VIDEO):
        return "video"
    if _within(name, _SLIDES):
        return "slides"
    if slot in ("project", "pdf") and tier(url) == 1 and not _within(name, ("openreview.net",)):
        return "proceedings"
    return slot
