"""Reading the two award datasets and the links table into records the merge can compare.

- clemense/ai-bestpapers `papers.yml` (MIT): read by the importer (`importers.ai_bestpapers`),
  which already splits authors, reads links into arXiv ids, DOIs and link slots, and classifies
  award names; its editions carry the place and dates.
- shunk031/awesome-ai-best-papers `papers.csv` (CC0): one row an award, with the official award
  page as `source_url` and a paper link for some; `paper_taxonomy.csv` gives each paper an area;
  `venues.csv` describes the venues.
- `tools/bundle/paper_links.toml`: hand-checked links for dataset papers given without one.
"""

from __future__ import annotations

import csv
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.catalog.importers import ai_bestpapers
from bot.domain.areas import RESEARCH_AREAS, RESEARCH_TASKS
from bot.domain.awards import classify_award
from bot.domain.identifiers import parse_arxiv_id
from bot.domain.models import Award, Edition, Paper, Source, Venue
from bot.domain.text import title_key

AI_BESTPAPERS = "ai-bestpapers"
AWESOME = "awesome-ai-best-papers"
# The commits the copies in ../shared were taken at (their ORIGIN.txt and SOURCE.md).
AI_BESTPAPERS_DOC = "clemense/ai-bestpapers _data/papers.yml (commit 4f98133, MIT)"
AWESOME_DOC = "shunk031/awesome-ai-best-papers data/papers.csv (commit 41de508, CC0)"
TAXONOMY_DOC = "shunk031/awesome-ai-best-papers data/paper_taxonomy.csv (commit fe11660, CC0)"
AI_BESTPAPERS_URL = "https://github.com/clemense/ai-bestpapers"
AWESOME_URL = "https://github.com/shunk031/awesome-ai-best-papers"
# ai-bestpapers lists the IJCAI-JAIR Best Paper Prize as a venue of its own; it is given at IJCAI.
VENUE_RENAMES = {"ijcai-jair": ("ijcai", "IJCAI-JAIR Best Paper Prize")}


@dataclass
class Record:
    """One award as one dataset gives it."""

    origin: str
    award: Award
    where: str  # e.g. "papers.csv line 12"
    notes: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return title_key(self.award.paper.title)


@dataclass(frozen=True)
class LinkEntry:
    venue: str
    year: int
    title: str
    arxiv: str | None
    url: str | None
    doi: str | None
    source: str
    checked: str
    note: str | None


@dataclass
class Datasets:
    records: list[Record]
    editions: list[Edition]  # ai-bestpapers' editions: place and dates
    venues: list[Venue]  # the venues the datasets name that the hand-written data lacks
    taxonomy: dict[tuple[str, int, str], str]  # (venue key, year, title key) -> area
    venue_index: dict[str, str]  # any name a dataset gives a venue (casefolded) -> its key
    links: list[LinkEntry]
    unresolved_links: int
    notes: list[str]
    tasks: dict[tuple[str, int, str], str] = field(default_factory=dict)  # the same -> task


def read(root: Path, known: Sequence[Venue], links_file: Path | None) -> Datasets:
    """Read both datasets under `root` (../shared/datasets) against the `known` venues."""
    notes: list[str] = []
    venues = _venue_records(root, known)
    index = {label.casefold(): v.key for v in [*known, *venues] for label in _labels(v)}
    records, editions = _ai_bestpapers(root / "ai-bestpapers" / "papers.yml", [*known, *venues])
    records += _awesome(root / "awesome-ai-best-papers" / "papers.csv", index)
    tasks: dict[tuple[str, int, str], str] = {}
    taxonomy_csv = root / "awesome-ai-best-papers" / "paper_taxonomy.csv"
    taxonomy = _taxonomy(taxonomy_csv, index, notes, tasks)
    links, unresolved = _links(links_file)
    return Datasets(records, editions, venues, taxonomy, index, links, unresolved, notes, tasks)


def _labels(venue: Venue) -> list[str]:
    return [venue.key, venue.name, *venue.aliases]


def _ai_bestpapers(path: Path, venues: list[Venue]) -> tuple[list[Record], list[Edition]]:
    batch = ai_bestpapers.parse(path, venues)
    surprises = [v.key for v in batch.venues if v.key not in VENUE_RENAMES]
    if batch.rejected or surprises:
        problems = [f"{r.where}: {r.reason}" for r in batch.rejected]
        problems += [f"unexpected new venue {key}" for key in surprises]
        raise ValueError("ai-bestpapers: " + "; ".join(problems))
    records = []
    for index, award in enumerate(batch.awards):
        venue, year = award.venue, award.year
        if venue in VENUE_RENAMES:
            venue, name = VENUE_RENAMES[venue]
            award = award.model_copy(update={"venue": venue, "name": name, "track": None})
        paper = award.paper.model_copy(update={"sources": (_ai_source(award),)})
        record = Record(
            origin=AI_BESTPAPERS,
            award=award.model_copy(update={"paper": paper, "sources": _ai_award_sources(award)}),
            where=f"papers.yml {award.venue} {year} award #{index}",
        )
        records.append(record)
    editions = [
        e.model_copy(update={"venue": VENUE_RENAMES.get(e.venue, (e.venue, ""))[0]})
        for e in batch.editions
    ]
    return records, editions


def _ai_source(award: Award) -> Source:
    covers = ["title", "authors"]
    if award.paper.arxiv:
        covers.append("arxiv")
    if award.paper.doi:
        covers.append("doi")
    if award.paper.links != award.paper.links.__class__():
        covers.append("links")
    return Source(url=AI_BESTPAPERS_URL, document=AI_BESTPAPERS_DOC, covers=tuple(covers))


def _ai_award_sources(award: Award) -> tuple[Source, ...]:
    # The importer gives the award page first, then the paper link; the award keeps the page.
    pages = [s for s in award.sources if s.url and s.url not in _paper_urls(award.paper)]
    cited = tuple(Source(url=s.url, document=AI_BESTPAPERS_DOC) for s in pages[:1])
    return cited or (Source(url=AI_BESTPAPERS_URL, document=AI_BESTPAPERS_DOC),)


def _paper_urls(paper: Paper) -> set[str]:
    links = paper.links.model_dump(exclude_none=True).values()
    return {str(u) for u in links} | ({f"https://arxiv.org/abs/{paper.arxiv}"})


def _awesome(path: Path, index: dict[str, str]) -> list[Record]:
    records = []
    with path.open(encoding="utf-8", newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            venue = index[row["venue"].casefold()]
            kind, track = classify_award(row["award"])
            paper: dict[str, Any] = {"title": _title(row["title"]), "year": int(row["year"])}
            link = (row.get("paper_url") or "").strip()
            covers = ["title"]
            if link:
                paper |= ai_bestpapers.identify_link(link)
                covers.append("links")
            paper["sources"] = [
                Source(url=link or AWESOME_URL, document=AWESOME_DOC, covers=tuple(covers))
            ]
            checked = f"checked {row['checked_at']}" if row.get("checked_at") else None
            award = Award(
                venue=venue,
                year=int(row["year"]),
                name=row["award"].strip(),
                kind=kind,
                track=track,
                paper=Paper.model_validate(paper),
                sources=(Source(url=row["source_url"], document=AWESOME_DOC, note=checked),),
            )
            notes = [row["notes"]] if row.get("notes") else []
            records.append(Record(AWESOME, award, f"papers.csv line {line}", notes))
    return records


def _title(text: str) -> str:
    """A title without the full stop that bibliographies (dblp) end every title with: "Deep
    Learning." is "Deep Learning" (an ellipsis stays; the key that joins titles ignores it)."""
    title = text.strip()
    return title[:-1] if title.endswith(".") and not title.endswith("..") else title


def _taxonomy(
    path: Path, index: dict[str, str], notes: list[str], tasks: dict[tuple[str, int, str], str]
) -> dict[tuple[str, int, str], str]:
    """Each paper's area; its task (one of the taxonomy's names) goes into `tasks`."""
    areas = {}
    with path.open(encoding="utf-8", newline="") as handle:
        for line, row in enumerate(csv.DictReader(handle), start=2):
            area = row["area"].strip()
            if area not in RESEARCH_AREAS:
                notes.append(f"paper_taxonomy.csv line {line}: unknown area {area!r}, not taken")
                continue
            key = (index[row["venue"].casefold()], int(row["year"]), title_key(row["title"]))
            areas[key] = area
            task = (row.get("task") or "").strip()
            if task in RESEARCH_TASKS:
                tasks[key] = task
            elif task:
                notes.append(f"paper_taxonomy.csv line {line}: unknown task {task!r}, not taken")
    return areas


def _venue_records(root: Path, known: Sequence[Venue]) -> list[Venue]:
    """Venue records for every venue a dataset names that `known` lacks, from both venue files."""
    taken = {label.casefold() for v in known for label in _labels(v)}
    from bot.catalog.yaml_reader import load_yaml  # PyYAML: on use only

    described: dict[str, dict[str, Any]] = {}
    venues_yml = root / "ai-bestpapers" / "venues.yml"
    for item in load_yaml(venues_yml.read_text("utf-8"), venues_yml.name):
        described.setdefault(str(item["name"]).casefold(), {}).update(
            name=str(item["name"]),
            full_name=item.get("long"),
            url=_https(item.get("link")),
            aliases=[str(a) for a in item.get("source") or []],
        )
    with (root / "awesome-ai-best-papers" / "venues.csv").open(encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            entry = described.setdefault(row["venue"].casefold(), {"name": row["venue"]})
            # The CSV names each venue's own site; its full names are the venues' current ones.
            aliases = [*entry.get("aliases", []), *filter(None, [entry.get("full_name")])]
            entry.update(full_name=row["full_name"], url=row["official_url"], aliases=aliases)
    venues = []
    for label, entry in sorted(described.items()):
        if label in taken or ai_bestpapers.slug(entry["name"]) in VENUE_RENAMES:
            continue
        name = entry["name"]
        # Like the hand-written venues, the full name is an alias: importers map it here.
        named = [*entry.get("aliases", []), *filter(None, [entry.get("full_name")])]
        aliases = [a for a in named if a.casefold() != name.casefold()]
        venues.append(
            Venue(
                key=ai_bestpapers.slug(name),
                name=name,
                full_name=entry.get("full_name"),
                url=entry.get("url"),
                aliases=tuple(dict.fromkeys(aliases)),
            )
        )
    return venues


def _https(link: object) -> str | None:
    if not isinstance(link, str) or not link:
        return None
    return link if "://" in link else f"https://{link}"


def _links(path: Path | None) -> tuple[list[LinkEntry], int]:
    if path is None or not path.is_file():
        return [], 0
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    entries = []
    for item in data.get("papers", []):
        arxiv = item.get("arxiv")
        entries.append(
            LinkEntry(
                venue=str(item["venue"]),
                year=int(item["year"]),
                title=str(item["title"]),
                arxiv=str(parse_arxiv_id(arxiv).id) if arxiv else None,
                url=item.get("url"),
                doi=item.get("doi"),
                source=str(item["source"]),
                checked=str(item.get("checked", "title")),
                note=item.get("note"),
            )
        )
    return entries, len(data.get("unresolved", []))
