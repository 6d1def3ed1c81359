"""Merging the two datasets: one paper per real paper, one award per award, conflicts kept.

Within an edition, records are the same paper when they share an arXiv id, a DOI, or a
normalized title (or titles that differ only by a few characters, across the datasets). Across
editions, papers are the same when they share an arXiv id or DOI (a test-of-time award and the
paper's original award). Two datasets' awards of one paper in one edition are the same award
when their kinds agree, or when each dataset gives that paper exactly one award there.

Which value is kept: awesome-ai-best-papers cites the venue's own award page for every row, so
its award names and title spellings are preferred; ai-bestpapers gives the authors and most
links. Every value the other dataset gives differently is kept as an alternative with why.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bot.catalog.importers import ai_bestpapers
from bot.domain.models import Alternative, Award, AwardKind, Paper, Source
from bot.domain.text import title_key
from tools.bundle.datasets import (
    AI_BESTPAPERS,
    AWESOME,
    AWESOME_URL,
    TAXONOMY_DOC,
    Datasets,
    LinkEntry,
    Record,
)

_ORDER = (AWESOME, AI_BESTPAPERS)  # preference for award names and titles
_CUT_SHORT = {"et al", "et al.", "等", "等人", "...", "…", "and others", "others"}
SIMILAR = 0.92  # titles this alike (difflib ratio of their keys) in one edition are one paper


@dataclass
class Report:
    lines: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    links_used: int = 0  # entries of the links table that gave a paper its link

    def conflict(self, where: str, text: str) -> None:
        self.conflicts.append(f"{where}: {text}")


@dataclass
class Cluster:
    """One paper in one edition, as the datasets give it, with its awards."""

    venue: str
    year: int
    records: list[Record]
    paper: dict[str, Any] = field(default_factory=dict)  # the merged paper, as a model dump
    awards: list[Award] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.venue} {self.year} “{self.records[0].award.paper.title[:70]}”"

    def origins(self) -> set[str]:
        return {r.origin for r in self.records}


def clusters(data: Datasets, report: Report) -> list[Cluster]:
    """Group the records into papers per edition and merge each into one paper and its awards."""
    by_edition: dict[tuple[str, int], list[Record]] = defaultdict(list)
    for record in data.records:
        by_edition[(record.award.venue, record.award.year)].append(record)
    found: list[Cluster] = []
    for (venue, year), records in sorted(by_edition.items()):
        found += [Cluster(venue, year, group) for group in _group(records, report)]
    found = _across_years(found, report)
    for cluster in found:
        cluster.paper = _merge_paper(cluster, data, report)
        cluster.awards = _merge_awards(cluster, report)
    _one_paper_across_editions(found, report)
    _drop_shared_links(found, report)
    return found


def _group(records: list[Record], report: Report) -> list[list[Record]]:
    parent = list(range(len(records)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    seen: dict[tuple[str, str], int] = {}
    for i, record in enumerate(records):
        paper = record.award.paper
        for name, value in (("arxiv", paper.arxiv), ("doi", paper.doi), ("title", record.key)):
            if value:
                j = seen.setdefault((name, value), i)
                parent[find(i)] = find(j)
    for i, a in enumerate(records):
        for j in range(i):
            b = records[j]
            if a.origin == b.origin or find(i) == find(j):
                continue
            if difflib.SequenceMatcher(None, a.key, b.key).ratio() >= SIMILAR:
                parent[find(i)] = find(j)
    groups: dict[int, list[Record]] = defaultdict(list)
    for i, record in enumerate(records):
        groups[find(i)].append(record)
    return list(groups.values())


def _across_years(found: list[Cluster], report: Report) -> list[Cluster]:
    """A paper one dataset puts a year off from the other: one award, the year an alternative."""
    by_title: dict[tuple[str, str], list[Cluster]] = defaultdict(list)
    for cluster in found:
        for key in {r.key for r in cluster.records}:
            by_title[(cluster.venue, key)].append(cluster)
    gone: set[int] = set()
    for group in by_title.values():
        kept = [c for c in group if c.origins() == {AWESOME}]
        moved = [c for c in group if c.origins() == {AI_BESTPAPERS}]
        for target in kept:
            for other in moved:
                if id(other) in gone or abs(other.year - target.year) != 1:
                    continue
                gone.add(id(other))
                for record in other.records:
                    award = record.award
                    alternative = Alternative(
                        field="year",
                        value=award.year,
                        source=award.sources[0],
                        reason=f"ai-bestpapers lists this award under {award.year}; "
                        f"awesome-ai-best-papers, citing the venue's award page, under "
                        f"{target.year}",
                    )
                    record.award = award.model_copy(
                        update={"year": target.year, "alternatives": (alternative,)}
                    )
                    target.records.append(record)
                report.conflict(
                    target.label, f"year {target.year} kept, ai-bestpapers says {other.year}"
                )
    return [c for c in found if id(c) not in gone]


def _ordered(records: list[Record]) -> list[Record]:
    return sorted(records, key=lambda r: _ORDER.index(r.origin))


def _merge_paper(cluster: Cluster, data: Datasets, report: Report) -> dict[str, Any]:
    records = _ordered(cluster.records)
    papers = [(r, r.award.paper) for r in records]
    first = papers[0][1]
    merged: dict[str, Any] = {"title": first.title, "sources": [], "alternatives": []}
    for record, paper in papers:
        _add(merged["sources"], paper.sources)
        _add(merged["alternatives"], paper.alternatives)  # a correction's replaced values
        if paper.title != merged["title"]:
            why = (
                f"{record.origin} spells the title this way; the kept spelling is that of "
                f"{records[0].origin}, which cites the venue's award page"
            )
            _alternative(merged, "title", paper.title, paper.sources[0], why)
            report.conflict(
                cluster.label,
                f"title “{merged['title']}” kept, {record.origin} spells it “{paper.title}”",
            )
    # Authors, ids, year and links: ai-bestpapers is the one that gives them, so it goes first.
    for record, paper in sorted(papers, key=lambda rp: rp[0].origin != AI_BESTPAPERS):
        authors, cut = _authors(paper)
        _fill(merged, "authors", authors, paper.sources[0], record, cluster, report)
        if authors and merged["authors"] == authors:
            merged["authors_incomplete"] = cut or paper.authors_incomplete
        for name in ("arxiv", "doi", "year"):
            _fill(merged, name, getattr(paper, name), paper.sources[0], record, cluster, report)
        links = paper.links.model_dump(exclude_none=True)
        for slot, url in links.items():
            slots = merged.setdefault("links", {})
            if slot not in slots:
                slots[slot] = url
            elif slots[slot] != url:
                why = f"{record.origin} links the paper here; the kept link is the other dataset's"
                _alternative(merged, f"links.{slot}", url, paper.sources[0], why)
    area = _area(cluster, data.taxonomy)
    if area:
        merged["area"] = area
        task = _area(cluster, data.tasks)
        if task:
            merged["task"] = task
        _add(merged["sources"], [_taxonomy_source(("area", "task") if task else ("area",))])
    if not (merged.get("arxiv") or merged.get("doi") or merged.get("links")):
        _link_from_table(merged, cluster, data, report)
    return merged


def _authors(paper: Paper) -> tuple[list[str], bool]:
    """The names without a trailing "et al." / "等", and whether the list was cut short."""
    names = list(paper.authors)
    cut = False
    while names and names[-1].strip().casefold() in _CUT_SHORT:
        names.pop()
        cut = True
    if names:
        for marker in (" et al.", " et al", "等人", "等"):
            if names[-1].endswith(marker):
                names[-1] = names[-1].removesuffix(marker).strip()
                cut = True
    return names, cut


def _fill(
    merged: dict[str, Any],
    name: str,
    value: Any,
    source: Source,
    record: Record,
    cluster: Cluster,
    report: Report,
) -> None:
    if value in (None, [], ()):
        return
    if merged.get(name) in (None, []):
        merged[name] = value
    elif merged[name] != value:
        _alternative(merged, name, value, source, f"{record.origin} gives this {name}")
        report.conflict(cluster.label, f"{name}: {record.origin} also gives {value!r}")


def _alternative(merged: dict[str, Any], name: str, value: Any, source: Source, why: str) -> None:
    value = list(value) if isinstance(value, tuple | list) else value
    if any(a.field == name and a.value == value for a in merged["alternatives"]):
        return
    merged["alternatives"].append(Alternative(field=name, value=value, source=source, reason=why))


def _add(sources: list[Source], more: Any) -> None:
    for source in more:
        if source not in sources:
            sources.append(source)


def _taxonomy_source(covers: tuple[str, ...]) -> Source:
    return Source(url=AWESOME_URL, document=TAXONOMY_DOC, covers=covers)


def _area(cluster: Cluster, table: dict[tuple[str, int, str], str]) -> str | None:
    """The cluster's value in a taxonomy column (area or task), by its title or a near one.

    A title set right by tools/bundle/corrections.toml keeps the dataset's as an alternative; the
    taxonomy row is keyed by the dataset's title, so that one is tried too."""
    keys = [r.key for r in cluster.records]
    keys += [
        title_key(a.value)
        for r in cluster.records
        for a in r.award.paper.alternatives
        if a.field == "title" and isinstance(a.value, str)
    ]
    for key in keys:
        if (cluster.venue, cluster.year, key) in table:
            return table[(cluster.venue, cluster.year, key)]
    best, area = 0.0, None
    for (venue, year, key), value in sorted(table.items()):
        if venue == cluster.venue and year == cluster.year:
            ratio = max(difflib.SequenceMatcher(None, key, k).ratio() for k in keys)
            if ratio > best:
                best, area = ratio, value
    return area if best >= SIMILAR else None


def _link_from_table(
    merged: dict[str, Any], cluster: Cluster, data: Datasets, report: Report
) -> None:
    keys = {r.key for r in cluster.records}
    entry = next((e for e in data.links if _joins(e, cluster, keys, data)), None)
    if entry is None:
        return
    report.links_used += 1
    covers = []
    if entry.arxiv:
        merged["arxiv"] = entry.arxiv
        merged.setdefault("links", {})["arxiv"] = f"https://arxiv.org/abs/{entry.arxiv}"
        covers.append("arxiv")
    if entry.url:
        found = ai_bestpapers.identify_link(entry.url).get("links")
        for slot, url in (found.model_dump(exclude_none=True) if found else {}).items():
            merged.setdefault("links", {}).setdefault(slot, url)
        covers.append("links")
    if entry.doi:
        merged["doi"] = entry.doi
        covers.append("doi")
    note = f"found by looking the paper up; checked against its {entry.checked}"
    if entry.note:
        note = f"{note}. {entry.note}"[:1000]
    _add(merged["sources"], [Source(url=entry.source, covers=tuple(covers), note=note)])


def _joins(entry: LinkEntry, cluster: Cluster, keys: set[str], data: Datasets) -> bool:
    venue = data.venue_index.get(entry.venue.casefold())
    return venue == cluster.venue and entry.year == cluster.year and title_key(entry.title) in keys


def _merge_awards(cluster: Cluster, report: Report) -> list[Award]:
    preferred = [r.award for r in cluster.records if r.origin == AWESOME]
    others = [r.award for r in cluster.records if r.origin == AI_BESTPAPERS]
    pairs = pair_awards(preferred, others)
    return [_merge_award(a, b, cluster, report) for a, b in pairs]


def pair_awards(first: list[Award], second: list[Award]) -> list[tuple[Award, Award | None]]:
    """Pairs of the same award: same kind and track, then same kind, then the only ones left.

    Awards of `second` with no partner come back on their own, as (award, None).
    """
    left, right = list(first), list(second)
    pairs: list[tuple[Award, Award | None]] = []
    for same in (
        lambda a, b: (a.kind, a.track) == (b.kind, b.track),
        lambda a, b: a.kind == b.kind,
    ):
        for a in list(left):
            partner = next((b for b in right if same(a, b)), None)
            if partner is not None:
                pairs.append((a, partner))
                left.remove(a)
                right.remove(partner)
    if len(left) == 1 and len(right) == 1:
        pairs.append((left.pop(), right.pop()))
    return pairs + [(a, None) for a in left] + [(b, None) for b in right]


def _merge_award(award: Award, other: Award | None, cluster: Cluster, report: Report) -> Award:
    alternatives = list(award.alternatives)
    sources = list(award.sources)
    kind = award.kind
    if other is not None:
        _add(sources, other.sources)
        alternatives += [a for a in other.alternatives if a not in alternatives]
        if other.name != award.name:
            alternatives.append(
                Alternative(
                    field="name",
                    value=other.name,
                    source=other.sources[0],
                    reason="ai-bestpapers names the award this way; the kept name is "
                    "awesome-ai-best-papers', which cites the venue's award page",
                )
            )
            report.conflict(
                cluster.label, f"award name “{award.name}” kept, ai-bestpapers “{other.name}”"
            )
        if other.kind != award.kind:
            # A prize with a name of its own ("Marr Prize") reads as "other"; the kind the other
            # dataset's name gives ("Best Paper") says more.
            if kind is AwardKind.OTHER:
                kind, dropped = other.kind, award.kind
            else:
                dropped = other.kind
            alternatives.append(
                Alternative(
                    field="kind",
                    value=dropped.value,
                    source=other.sources[0],
                    reason=f"“{award.name}” and “{other.name}” read as different kinds; "
                    f"{kind.value} is kept",
                )
            )
            report.conflict(
                cluster.label, f"kind {kind.value} kept, {dropped.value} an alternative"
            )
    return award.model_copy(
        update={"kind": kind, "sources": tuple(sources), "alternatives": tuple(alternatives)}
    )


def _one_paper_across_editions(found: list[Cluster], report: Report) -> None:
    """Clusters of one paper (same arXiv id or DOI) in several editions get one merged paper."""
    owner: dict[tuple[str, str], Cluster] = {}
    for cluster in sorted(found, key=lambda c: (c.year, c.venue)):
        paper = cluster.paper
        keys = [(n, paper[n]) for n in ("arxiv", "doi") if paper.get(n)]
        first = next((owner[k] for k in keys if k in owner), None)
        if first is not None and not _same_people(first.paper, paper):
            # One id on two papers by other people: a row carries another paper's link.
            report.conflict(cluster.label, f"shares an id with {first.label}, not its authors")
            continue
        if first is None:
            for k in keys:
                owner[k] = cluster
            continue
        for name, value in cluster.paper.items():
            if name in ("sources", "alternatives"):
                _add(first.paper[name], value)
            elif name == "links":
                for slot, url in value.items():
                    first.paper.setdefault("links", {}).setdefault(slot, url)
            elif first.paper.get(name) in (None, []):
                first.paper[name] = value
            elif first.paper[name] != value and name != "year":
                source = cluster.paper["sources"][0]
                why = f"given with the paper's award at {cluster.venue.upper()} {cluster.year}"
                _alternative(first.paper, name, value, source, why)
                report.conflict(first.label, f"{name} differs at {cluster.label}: {value!r}")
        for k in [(n, first.paper[n]) for n in ("arxiv", "doi") if first.paper.get(n)]:
            owner.setdefault(k, first)
        cluster.paper = first.paper


def _same_people(one: dict[str, Any], other: dict[str, Any]) -> bool:
    """Whether two author lists can be one paper's: one is unknown, or a family name is shared."""
    names = [
        {n.split()[-1].casefold() for n in p.get("authors") or [] if n.split()}
        for p in (one, other)
    ]
    return not names[0] or not names[1] or bool(names[0] & names[1])


def _drop_shared_links(found: list[Cluster], report: Report) -> None:
    """A link that two different papers carry points at neither for sure: it is dropped."""
    holders: dict[str, set[int]] = defaultdict(set)
    for cluster in found:
        for url in (cluster.paper.get("links") or {}).values():
            holders[url].add(id(cluster.paper))
    shared = {url for url, papers in holders.items() if len(papers) > 1}
    for cluster in found:
        links = cluster.paper.get("links") or {}
        for slot, url in list(links.items()):
            if url in shared:
                del links[slot]
                report.conflict(cluster.label, f"link {url} is given for several papers; dropped")
