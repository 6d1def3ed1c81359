"""Parsing of paper identifiers: arXiv ids (new and old forms) and DOIs.

An arXiv id names a paper; its version names one revision of it. The catalogue keys papers by
the id alone and keeps the version beside it, so `2502.06768v2` and `2502.06768` are one paper.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Digits are spelled [0-9]: \d would also take full-width and other scripts' digits.
# New form (April 2007 on): YYMM.NNNN, five digits from January 2015 (1501.xxxxx).
_NEW = re.compile(r"(?P<yymm>[0-9]{4})\.(?P<num>[0-9]{4,5})(?:v(?P<version>[1-9][0-9]{0,3}))?")
# Old form: archive[.SUBJECT-CLASS]/YYMMNNN, e.g. hep-th/9901001, math.GT/0309136.
_OLD = re.compile(
    r"(?P<archive>[a-z]+(?:-[a-z]+)*)(?:\.(?P<subject>[A-Za-z]{2}))?/(?P<num>[0-9]{7})"
    r"(?:v(?P<version>[1-9][0-9]{0,3}))?"
)
_URL_PREFIX = re.compile(
    r"^(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/", re.IGNORECASE
)
_DOI = re.compile(r"^10\.[0-9]{4,9}/[^\s]+$")
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


class IdentifierError(ValueError):
    """A string that is not the identifier it was said to be."""


@dataclass(frozen=True, slots=True)
class ArxivId:
    """An arXiv identifier without its version, plus the version if one was given."""

    id: str
    version: int | None = None

    def __str__(self) -> str:
        return self.id if self.version is None else f"{self.id}v{self.version}"

    @property
    def abs_url(self) -> str:
        return f"https://arxiv.org/abs/{self}"

    @property
    def pdf_url(self) -> str:
        return f"https://arxiv.org/pdf/{self}"


def parse_arxiv_id(text: str) -> ArxivId:
    """Parse `2502.06768`, `2502.06768v2`, `arXiv:hep-th/9901001`, or an abs / pdf URL."""
    raw = text.strip()
    value = _URL_PREFIX.sub("", raw)
    if value.lower().startswith("arxiv:"):
        value = value[len("arxiv:") :]
    value = value.split("?", 1)[0].split("#", 1)[0].rstrip("/")
    if value.lower().endswith(".pdf"):
        value = value[:-4]
    new = _NEW.fullmatch(value)
    if new is not None:
        month = int(new["yymm"][2:])
        if not 1 <= month <= 12:
            raise IdentifierError(f"{raw!r} is not an arXiv id: month {month:02d} does not exist")
        if int(new["yymm"]) >= 1501 and len(new["num"]) != 5:
            raise IdentifierError(f"{raw!r} is not an arXiv id: ids since 2015 have 5 digits")
        if int(new["yymm"]) < 1501 and len(new["num"]) != 4:
            raise IdentifierError(f"{raw!r} is not an arXiv id: ids before 2015 have 4 digits")
        version = int(new["version"]) if new["version"] else None
        return ArxivId(f"{new['yymm']}.{new['num']}", version)
    old = _OLD.fullmatch(value)
    if old is not None:
        subject = f".{old['subject'].upper()}" if old["subject"] else ""
        version = int(old["version"]) if old["version"] else None
        return ArxivId(f"{old['archive']}{subject}/{old['num']}", version)
    raise IdentifierError(
        f"{raw[:80]!r} is not an arXiv id "
        "(expected e.g. 2502.06768, hep-th/9901001 or an arxiv.org link)"
    )


def normalize_doi(text: str) -> str:
    """Return the DOI in its canonical, lower-case form (DOIs are case-insensitive)."""
    raw = text.strip()
    value = _DOI_PREFIX.sub("", raw).strip()
    # Control and format characters (bidi overrides, zero-width spaces) would disguise it.
    if not _DOI.fullmatch(value) or any(unicodedata.category(ch)[0] == "C" for ch in value):
        raise IdentifierError(f"{raw[:80]!r} is not a DOI (expected e.g. 10.1145/3292500.3330701)")
    return value.lower()
