"""Reading the per-paper facts files: `tools/bundle/papers/<venue key>.toml`.

Writers add to the datasets what they do not give: summaries in three languages (from the page
named by `read`), a research area and task where the taxonomy gives none (our classification),
the authors' code repository, the names people use for the paper (aliases), and bylines and
affiliations where the dataset's are missing, cut short or wrong. One `[[papers]]` table a
paper, joined to the catalogue by the venue (the file's name), `year` and `title` as they stand
in `data/awards/<venue>.toml`.

Reading is strict: an unknown key, an unknown venue, a fact without its source, an area or task
outside the taxonomy's names, or two tables for one paper stop the converter with a line naming
the file and the table (`merge_facts` then refuses a title the catalogue does not hold).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Self

from pydantic import Field, ValidationError, model_validator

from bot.catalog.document import describe_errors
from bot.domain.areas import ResearchArea, ResearchTask
from bot.domain.models import (
    MAX_ALIASES,
    Language,
    Model,
    Name,
    ShortText,
    Summary,
    Title,
    Url,
    Year,
)


class FactsError(ValueError):
    """A facts file the converter refuses: the message names the file and the table."""


# Footnote marks a PDF's byline ties names to affiliations with ("Google♡", "Ada Lovelace*"):
# copied along, they make a name of their own in every leaderboard.
_MARKS = frozenset("*†‡§¶‖♠♣♡♢♥♦⋆✝")


class PaperFacts(Model):
    """One `[[papers]]` table (the contract in HELPERS.md and tools/bundle/papers/README.md)."""

    year: Year
    title: Title
    read: Url | None = None
    # Where the page at `read` was read when it was not stored itself: a dataset's record of it
    # (papercopilot/paperlists keeps IEEE Xplore's abstracts). Said in the summary source's note.
    read_via: Url | None = None
    summaries: dict[Language, Summary] = Field(default_factory=dict)
    area: ResearchArea | None = None
    task: ResearchTask | None = None
    authors: tuple[Name, ...] = ()
    authors_source: Url | None = None
    authors_incomplete: bool = False
    affiliations: tuple[Name, ...] = ()
    affiliations_source: Url | None = None
    code: Url | None = None
    code_source: Url | None = None
    # The names people use for the paper that its title never says (AlexNet), each one the
    # page at `aliases_source` uses for it.
    aliases: tuple[ShortText, ...] = Field(default=(), max_length=MAX_ALIASES)
    aliases_source: Url | None = None
    # The year the paper was published (a test-of-time award's paper, years before the award),
    # as the page at `published_source` gives it; the year the datasets imply stays an alternative.
    published: Year | None = None
    published_source: Url | None = None

    @model_validator(mode="after")
    def _sourced(self) -> Self:
        if (self.summaries or self.area or self.task) and self.read is None:
            raise ValueError("`read` (the page the summaries and area were read from) is missing")
        for fact, source in (
            ("authors", self.authors_source),
            ("affiliations", self.affiliations_source),
            ("code", self.code_source),
            ("aliases", self.aliases_source),
            ("published", self.published_source),
        ):
            if getattr(self, fact) and source is None:
                raise ValueError(f"`{fact}` is given without `{fact}_source`")
            if source is not None and not getattr(self, fact):
                raise ValueError(f"`{fact}_source` is given without `{fact}`")
        if self.published is not None and self.published > self.year:
            raise ValueError(f"`published` {self.published} is after the award's year {self.year}")
        if self.read_via is not None and not self.summaries:
            raise ValueError("`read_via` is given without `summaries`")
        if self.authors_incomplete and not self.authors:
            raise ValueError("`authors_incomplete` is given without `authors`")
        for fact in ("authors", "affiliations"):
            marked = [n for n in getattr(self, fact) if _MARKS & set(n)]
            if marked:
                raise ValueError(f"`{fact}` keeps footnote marks: {', '.join(marked)}")
        return self


@dataclass(frozen=True)
class Entry:
    venue: str
    where: str  # "tools/bundle/papers/icml.toml, papers[3] (2019 “Title”)"
    facts: PaperFacts


def read_facts(folder: Path | None, venues: Iterable[str]) -> list[Entry]:
    """Every entry of every `*.toml` under `folder`; none when there is no such folder."""
    if folder is None or not folder.is_dir():
        return []
    known = set(venues)
    entries: list[Entry] = []
    for path in sorted(folder.glob("*.toml")):
        entries += _read_file(path, _shown(path), known)
    return entries


def _shown(path: Path) -> str:
    parts = path.parts
    return "/".join(parts[-4:]) if parts[-4:-1] == ("tools", "bundle", "papers") else str(path)


def _read_file(path: Path, shown: str, known: set[str]) -> list[Entry]:
    venue = path.stem
    if venue not in known:
        raise FactsError(f"{shown}: no venue {venue!r} in the catalogue (the file's name is a key)")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise FactsError(f"{shown}: not readable TOML: {exc}") from None
    unknown = sorted(set(data) - {"papers"})
    if unknown:
        raise FactsError(f"{shown}: unknown key(s) {', '.join(unknown)}; only [[papers]] tables")
    tables = data.get("papers", [])
    if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
        raise FactsError(f"{shown}: `papers` must be [[papers]] tables")
    entries: list[Entry] = []
    seen: dict[tuple[int, str], str] = {}
    for number, table in enumerate(tables, start=1):
        label = f"{table.get('year', '?')} “{str(table.get('title', '?'))[:70]}”"
        where = f"{shown}, papers[{number}] ({label})"
        try:
            facts = PaperFacts.model_validate(table)
        except ValidationError as exc:
            raise FactsError(f"{where}: {describe_errors(exc)}") from None
        key = (facts.year, facts.title)
        if key in seen:
            raise FactsError(f"{where}: the same paper as {seen[key]}; one table a paper")
        seen[key] = f"papers[{number}]"
        entries.append(Entry(venue, where, facts))
    return entries
