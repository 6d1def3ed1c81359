"""Meeting the hand-written catalogue: it wins, the datasets fill what it lacks.

A dataset paper is a hand-written one when they share an arXiv id or a DOI, or their titles are
the same (or nearly: a spelling difference) within the award's edition. Then the generated
record carries the hand-written identity (its title, ids, award name and kind), the values the
hand-written record lacks, the datasets' sources, and, as alternatives with a reason, the
values where the datasets differ; identical values are dropped. Loaded after the hand-written
documents, such a record can only add to them.
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from bot.domain.models import Alternative, Award, CatalogBatch, Edition, Paper, Source
from bot.domain.text import title_key
from tools.bundle.datasets import AI_BESTPAPERS_DOC, AI_BESTPAPERS_URL
from tools.bundle.merge import SIMILAR, Cluster, Report, pair_awards

_KEEP = "the hand-written catalogue's value is kept"
_SKIP = frozenset({"sources", "alternatives"})


@dataclass
class _Hand:
    paper: Paper
    awards: list[Award]  # every hand-written award of this paper


class HandWritten:
    def __init__(self, batch: CatalogBatch) -> None:
        self.editions = {(e.venue, e.year): e for e in batch.editions}
        self._papers: list[_Hand] = []
        self._by_id: dict[tuple[str, str], _Hand] = {}
        self._by_edition: dict[tuple[str, int], list[_Hand]] = defaultdict(list)
        for award in batch.awards:
            hand = self._find_id(award.paper) or self._find_title(award, award.paper.title)
            if hand is None:
                hand = _Hand(award.paper, [])
                self._papers.append(hand)
            hand.awards.append(award)
            for key in _ids(award.paper):
                self._by_id.setdefault(key, hand)
            if hand not in self._by_edition[(award.venue, award.year)]:
                self._by_edition[(award.venue, award.year)].append(hand)

    def _find_id(self, paper: Paper | dict[str, Any]) -> _Hand | None:
        return next((self._by_id[k] for k in _ids(paper) if k in self._by_id), None)

    def _find_title(self, award: Award, title: str, *, near: bool = False) -> _Hand | None:
        key = title_key(title)
        for hand in self._by_edition[(award.venue, award.year)]:
            other = title_key(hand.paper.title)
            if other == key or (
                near and difflib.SequenceMatcher(None, other, key).ratio() >= SIMILAR
            ):
                return hand
        return None

    def match(self, cluster: Cluster) -> _Hand | None:
        found = self._find_id(cluster.paper)
        for record in cluster.records:
            found = found or self._find_title(record.award, record.award.paper.title, near=True)
        return found


def _ids(paper: Paper | dict[str, Any]) -> list[tuple[str, str]]:
    get = paper.get if isinstance(paper, dict) else lambda name: getattr(paper, name)
    return [(name, str(get(name))) for name in ("arxiv", "doi") if get(name)]


def generated(clusters: list[Cluster], hand: HandWritten, report: Report) -> list[Award]:
    """The awards to write: each cluster's, made to add to the hand-written data only."""
    out: list[Award] = []
    matched = 0
    shown: set[int] = set()
    for cluster in clusters:
        found = hand.match(cluster)
        if found is None:
            paper = Paper.model_validate(cluster.paper)
            out += [a.model_copy(update={"paper": paper}) for a in cluster.awards]
            continue
        matched += 1
        paper = _paper_addition(found.paper, cluster, report, quiet=id(cluster.paper) in shown)
        shown.add(id(cluster.paper))
        in_edition = [a for a in found.awards if (a.venue, a.year) == (cluster.venue, cluster.year)]
        for ours, theirs in pair_awards(in_edition, cluster.awards):
            if theirs is None and ours in in_edition:
                continue  # a hand-written award the datasets do not list
            if theirs is None:
                out.append(ours.model_copy(update={"paper": paper}))
                report.lines.append(f"  added to hand-written {cluster.label}: “{ours.name}”")
                continue
            out.append(_award_addition(ours, theirs, paper, cluster, report))
    report.lines.append(f"{matched} dataset papers are hand-written ones: they only add to them")
    return out


def _paper_addition(mine: Paper, cluster: Cluster, report: Report, *, quiet: bool) -> Paper:
    theirs = cluster.paper
    stored = mine.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
    out: dict[str, Any] = {"title": mine.title}
    out |= {k: stored[k] for k in ("arxiv", "doi") if k in stored}
    alternatives = [a for a in theirs.get("alternatives", []) if a.value != stored.get(a.field)]
    source = theirs["sources"][0]
    for name, value in theirs.items():
        if name in _SKIP or name == "title":
            continue
        plain = _plain(value)
        if name == "links":
            for slot, url in plain.items():
                have = stored.get("links", {}).get(slot)
                if have is None:
                    out.setdefault("links", {})[slot] = url
                elif have != url:
                    alternatives.append(_alt(f"links.{slot}", url, source))
        elif name == "authors_incomplete":
            continue  # follows the authors, below
        elif stored.get(name) in (None, [], {}):
            out[name] = value
            if name == "authors":
                out["authors_incomplete"] = theirs.get("authors_incomplete", False)
        elif stored[name] != plain and name != "year":
            alternatives.append(_alt(name, value, source))
            if not quiet:
                report.conflict(cluster.label, f"{name} differs from the hand-written value")
    if theirs["title"] != mine.title:
        alternatives.append(_alt("title", theirs["title"], source))
    out["sources"] = theirs["sources"]
    out["alternatives"] = _unique(alternatives)
    return Paper.model_validate(out)


def _award_addition(
    ours: Award, theirs: Award, paper: Paper, cluster: Cluster, report: Report
) -> Award:
    alternatives = list(theirs.alternatives)
    source = theirs.sources[0]
    if theirs.name != ours.name:
        alternatives.append(_alt("name", theirs.name, source))
    if theirs.kind != ours.kind:
        alternatives.append(_alt("kind", theirs.kind.value, source))
        report.conflict(cluster.label, f"kind {theirs.kind.value}; hand-written {ours.kind.value}")
    alternatives = [a for a in alternatives if a.value != getattr(ours, a.field, None)]
    return Award(
        venue=ours.venue,
        year=ours.year,
        name=ours.name,
        kind=ours.kind,
        track=ours.track,
        paper=paper,
        sources=theirs.sources,
        alternatives=tuple(_unique(alternatives)),
    )


def _alt(name: str, value: Any, source: Source) -> Alternative:
    value = list(value) if isinstance(value, tuple) else value
    dataset = source.document.split(" ")[0] if source.document else "a dataset"
    why = f"{dataset} gives this {name}; {_KEEP}"
    return Alternative(field=name, value=_plain(value), source=source, reason=why)


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _unique(alternatives: list[Alternative]) -> list[Alternative]:
    seen: list[Alternative] = []
    for alternative in alternatives:
        if not any(a.field == alternative.field and a.value == alternative.value for a in seen):
            seen.append(alternative)
    return seen


def editions(found: list[Edition], hand: HandWritten, report: Report) -> list[Edition]:
    """ai-bestpapers' place and dates for each edition, filling the hand-written ones."""
    out = []
    for edition in found:
        given = edition.model_dump(
            exclude_none=True, exclude={"venue", "year", "sources", "alternatives"}
        )
        if not given:
            continue
        source = Source(url=AI_BESTPAPERS_URL, document=AI_BESTPAPERS_DOC, covers=tuple(given))
        mine = hand.editions.get((edition.venue, edition.year))
        if mine is None:
            out.append(edition.model_copy(update={"sources": (source,)}))
            continue
        stored = mine.model_dump(exclude_none=True)
        fills = {k: v for k, v in given.items() if k not in stored}
        differing = [
            Alternative(
                field=k, value=v, source=source, reason=f"ai-bestpapers gives this; {_KEEP}"
            )
            for k, v in given.items()
            if k in stored and stored[k] != v and k != "month"
        ]
        if differing:
            report.conflict(
                f"{edition.venue} {edition.year}",
                "edition " + ", ".join(a.field for a in differing) + " differ from hand-written",
            )
        if fills or differing:
            out.append(
                Edition.model_validate(
                    {
                        "venue": edition.venue,
                        "year": edition.year,
                        **fills,
                        "sources": [source],
                        "alternatives": differing,
                    }
                )
            )
    return out
