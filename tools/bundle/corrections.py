"""Hand-kept corrections of the datasets' rows: `tools/bundle/corrections.toml`.

The datasets carry their own mistakes; the converter reads them again on every run, so a fix
made anywhere but here would come back. Each correction names the rows it applies to (venue,
year, award name or title, optionally the dataset), what is right, why, and the sources read:

- `rejected`: awards the venue never gave (contradicted by the venue or contemporary reports).
  The rows are dropped and listed in the converter's report with the reason; they never reach
  data/awards/, and a re-run cannot bring them back while the entry stands.
- `renamed`: the venue's own award name where a dataset uses another label; the dataset's label
  stays on the award as an alternative, and the kind follows the venue's name.
- `rows`: a row whose title, authors or links belong to another paper, set right field by field.
- `bylines`: a paper's author list as its proceedings (or the paper) publish it, where a dataset
  ran names together, lost a particle ("van", "de") or changed their order.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.domain.awards import classify_award
from bot.domain.models import Alternative, Paper, Source
from bot.domain.text import title_key
from tools.bundle.datasets import Record

FILE = "corrections.toml"


@dataclass(frozen=True)
class Correction:
    section: str
    venue: str
    year: int
    entry: dict[str, Any]

    def matches(self, record: Record) -> bool:
        award = record.award
        if (award.venue, award.year) != (self.venue, self.year):
            return False
        if "origin" in self.entry and record.origin != self.entry["origin"]:
            return False
        if "dataset_name" in self.entry and award.name != self.entry["dataset_name"]:
            return False
        titles = self.entry.get("titles") or (
            [self.entry["title"]] if "title" in self.entry else []
        )
        return not titles or record.key in {title_key(t) for t in titles}

    @property
    def sources(self) -> tuple[Source, ...]:
        return tuple(Source(url=u) for u in self.entry["sources"])

    @property
    def reason(self) -> str:
        return str(self.entry["reason"])


@dataclass
class Corrections:
    entries: list[Correction]

    def section(self, name: str) -> list[Correction]:
        return [c for c in self.entries if c.section == name]


def load(path: Path | None) -> Corrections:
    if path is None or not path.is_file():
        return Corrections([])
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    entries = []
    for section in ("rejected", "renamed", "rows", "bylines"):
        for entry in data.get(section, []):
            if not entry.get("sources") or not entry.get("reason"):
                raise ValueError(f"{FILE} [[{section}]] {entry}: needs sources and a reason")
            entries.append(Correction(section, str(entry["venue"]), int(entry["year"]), entry))
    return Corrections(entries)


def apply(records: list[Record], fixes: Corrections, notes: list[str]) -> list[Record]:
    """The records with every correction applied; the rejected ones are left out (and noted)."""
    kept = []
    used: set[int] = set()
    for record in records:
        rejected = next((c for c in fixes.section("rejected") if c.matches(record)), None)
        if rejected is not None:
            used.add(id(rejected))
            notes.append(
                f"rejected {record.where} ({record.origin}): {record.award.venue.upper()} "
                f"{record.award.year} “{record.award.name}” for “{record.award.paper.title}”: "
                f"{rejected.reason}"
            )
            continue
        for fix in fixes.entries:
            if fix.section != "rejected" and fix.matches(record):
                used.add(id(fix))
                _fix(record, fix)
        kept.append(record)
    for fix in fixes.entries:
        if id(fix) not in used:
            notes.append(f"{FILE}: [[{fix.section}]] {fix.venue} {fix.year} matched no row")
    return kept


def _fix(record: Record, fix: Correction) -> None:
    award = record.award
    if fix.section == "renamed":
        name = str(fix.entry["name"])
        kind, track = classify_award(name)
        alternative = Alternative(
            field="name", value=award.name, source=award.sources[0], reason=fix.reason
        )
        record.award = award.model_copy(
            update={
                "name": name,
                "kind": kind,
                "track": track,
                "sources": (*fix.sources, *award.sources),
                "alternatives": (*award.alternatives, alternative),
            }
        )
        return
    paper = award.paper.model_dump(exclude_none=True)
    before = {name: paper.get(name) for name in fix.entry.get("set", {})}
    if fix.section == "bylines":
        before = {"authors": paper.get("authors")}
        paper["authors"] = list(fix.entry["authors"])
        paper["authors_incomplete"] = bool(fix.entry.get("authors_incomplete", False))
    for name, value in fix.entry.get("set", {}).items():
        paper[name] = value
    for name in fix.entry.get("drop", []):
        before.setdefault(name, paper.get(name))
        paper.pop(name, None)
    alternatives = list(paper.get("alternatives", []))
    for name, value in before.items():
        if value not in (None, [], {}) and not isinstance(value, dict):
            alternatives.append(
                Alternative(
                    field=name,
                    value=list(value) if isinstance(value, list | tuple) else value,
                    source=award.paper.sources[0],
                    reason=f"{record.origin} gives this; {fix.reason}",
                )
            )
    covers = (*fix.entry.get("set", {}), *(["authors"] if "authors" in fix.entry else []))
    sources = [Source(url=s.url, covers=covers) for s in fix.sources]
    paper["sources"] = [*sources, *paper.get("sources", [])]
    paper["alternatives"] = alternatives
    record.award = award.model_copy(update={"paper": Paper.model_validate(paper)})
