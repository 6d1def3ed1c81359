"""What a curator types, turned into catalogue models, or into one clear refusal.

The models (bot/domain/models.py) validate and clean; this module adds what a person typing
needs on top: text that the models would silently cut or clean (overlong, with control or bidi
characters) is refused instead, so that what is stored is what the curator saw, and a model's
ValidationError becomes one short message naming the fields. Nothing here does I/O.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot.domain.identifiers import IdentifierError, parse_arxiv_id
from bot.domain.models import MAX_ALIASES, Award, AwardKind, Links, Paper, Source
from bot.errors import UserError

M = TypeVar("M", bound=BaseModel)

# The longest text each form field takes (a Discord text input holds at most 4,000).
LIMITS = {
    "title": 500,
    "authors": 4000,
    "affiliations": 4000,
    "doi": 200,
    "links": 1500,
    "abstract": 4000,
    "summary": 2000,
    "track": 200,
    "name": 200,
    "source": 2048,
    "arxiv": 200,
    "aliases": 1000,
}
ALIAS_LIMIT = 200  # letters in one alias (the model's ShortText)
MULTILINE = frozenset({"authors", "affiliations", "links", "abstract", "summary"})
LINK_KINDS = tuple(Links.model_fields)
_NAME_SEPARATORS = re.compile(r"\s*[\n;]\s*")
_LINK_LINE = re.compile(r"^(?P<kind>[a-z]+)\s*[:=]?\s+(?P<url>\S+)$", re.IGNORECASE)

DEFAULT_AWARD_NAMES = {
    AwardKind.BEST: "Best Paper Award",
    AwardKind.OUTSTANDING: "Outstanding Paper Award",
    AwardKind.RUNNER_UP: "Best Paper Runner-Up",
    AwardKind.HONORABLE_MENTION: "Honorable Mention",
    AwardKind.TEST_OF_TIME: "Test of Time Award",
    AwardKind.POSITION: "Outstanding Position Paper Award",
    AwardKind.DATASETS_BENCHMARKS: "Datasets and Benchmarks Best Paper Award",
    AwardKind.CLASSIC: "Classic Paper Award",
    AwardKind.DISTINGUISHED: "Distinguished Paper Award",
    AwardKind.STUDENT: "Best Student Paper Award",
    AwardKind.OTHER: "Award",
}


def checked(field: str, value: str | None) -> str | None:
    """`value` as typed, or a refusal if it is too long or hides characters; blank is None."""
    if value is None or not value.strip():
        return None
    limit = LIMITS[field]
    if len(value) > limit:
        raise UserError("curate-too-long", field=field, limit=limit, length=len(value))
    allowed = "\n\r\t" if field in MULTILINE else ""
    for ch in value:
        # Cc: control characters; Cf: format characters (bidi overrides, zero-width spaces).
        if unicodedata.category(ch) in {"Cc", "Cf", "Cs", "Co"} and ch not in allowed:
            raise UserError("curate-bad-characters", field=field, code=f"U+{ord(ch):04X}")
    return value.strip()


def aliases_of(text: str | None) -> list[str]:
    """A paper's aliases as a curator types them, separated by semicolons (or lines), each
    once whatever its case; none for None. Refused: more than the model holds, or one longer."""
    found: dict[str, str] = {}
    for name in names(checked("aliases", text)):
        found.setdefault(name.casefold(), name)
    if len(found) > MAX_ALIASES:
        raise UserError("curate-too-many-aliases", limit=MAX_ALIASES, count=len(found))
    if (longest := max((len(name) for name in found.values()), default=0)) > ALIAS_LIMIT:
        raise UserError("curate-too-long", field="aliases", limit=ALIAS_LIMIT, length=longest)
    return list(found.values())


def names(text: str | None) -> list[str]:
    """Authors or affiliations: one a line (or separated by semicolons)."""
    if not text:
        return []
    return [n for n in _NAME_SEPARATORS.split(text.strip()) if n]


def parse_links(text: str | None) -> dict[str, str]:
    """`code https://…` a line (or `code: https://…`); the kinds are Links' fields."""
    links: dict[str, str] = {}
    for line in (text or "").splitlines():
        if not line.strip():
            continue
        match = _LINK_LINE.match(line.strip())
        kind = match["kind"].lower() if match else ""
        if match is None or kind not in LINK_KINDS:
            raise UserError(
                "curate-bad-link-line", line=line.strip()[:80], kinds=", ".join(LINK_KINDS)
            )
        links[kind] = match["url"]
    return links


def format_links(links: Links) -> str:
    return "\n".join(f"{kind} {url}" for kind, url in links.model_dump(exclude_none=True).items())


def arxiv_id_of(text: str) -> str:
    """The arXiv id in what was typed (an id, `arXiv:…`, or an arxiv.org link), with version."""
    raw = checked("arxiv", text) or ""
    try:
        return str(parse_arxiv_id(raw))
    except IdentifierError:
        raise UserError("curate-bad-arxiv", value=raw[:80]) from None


def validated(model: type[M], data: Mapping[str, Any]) -> M:
    """`model` built from `data`, or one refusal naming every field that is wrong."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise UserError("curate-invalid", fields=", ".join(error_fields(exc))) from None


def error_fields(exc: ValidationError) -> list[str]:
    """`links.code`, `title`: where each problem is, without list positions or `paper.`."""
    found: dict[str, None] = {}
    for error in exc.errors(include_url=False):
        parts = [str(p) for p in error["loc"] if not isinstance(p, int)]
        if parts[:1] == ["paper"]:
            parts = parts[1:]
        found[".".join(parts) or "record"] = None
    return list(found)


def paper_from_form(form: Mapping[str, str | None], base: Paper | None = None) -> Paper:
    """A Paper from a form's fields over `base` (the stored paper, for an edit).

    A field the form shows but left blank is cleared; a field it does not show is kept.
    """
    data: dict[str, Any] = base.model_dump(mode="json", exclude_none=True) if base else {}
    for field in ("title", "doi", "abstract"):
        if field in form:
            value = checked(field, form[field])
            data.pop(field, None)
            if value is not None:
                data[field] = value
    for field in ("authors", "affiliations"):
        if field in form:
            data[field] = names(checked(field, form[field]))
    if "links" in form:
        data["links"] = parse_links(checked("links", form["links"]))
    return validated(Paper, data)


@dataclass(frozen=True, slots=True)
class AwardOptions:
    """An award as the slash options give it, before the paper it goes to is known."""

    venue: str
    year: int
    kind: AwardKind
    track: str | None = None
    name: str | None = None
    source: str | None = None

    def check(self) -> None:
        """Refuse bad options early (before arXiv is asked, or a form is opened)."""
        checked("track", self.track)
        checked("name", self.name)
        self.sources()

    def sources(self) -> list[Source]:
        url = checked("source", self.source)
        return [] if url is None else [validated(Source, {"url": url})]

    def award(self, paper: Paper) -> Award:
        data: dict[str, Any] = {
            "venue": self.venue,
            "year": self.year,
            "kind": self.kind,
            "name": checked("name", self.name) or DEFAULT_AWARD_NAMES[self.kind],
            "paper": paper,
            "sources": self.sources(),
        }
        if (track := checked("track", self.track)) is not None:
            data["track"] = track
        return validated(Award, data)
