"""Merging the per-paper facts (`facts.read_facts`) into the converted awards.

Each entry is joined to the awards of `data/awards/<venue>.toml` by year and exact title, and
what it gives goes into that paper wherever it appears (a test-of-time award of another edition
carries the same paper). Every fact arrives with its source, whose `covers` names it:

- summaries: a source at `read` covering `summaries.<language>` for each language given;
- area and task: a source at `read` named `OUR_CLASSIFICATION`, so curators tell our reading
  from the taxonomy's; refused where the taxonomy already gives one;
- authors and affiliations: they replace the datasets' (kept as an alternative) with their
  source, each institution once (normalised through `bot/domain/institutions.toml`, the first
  spelling kept); the code repository is a link of kind `code` (never the paper's main link).

A fact the hand-written catalogue already gives is refused: it is written there.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from bot.domain.areas import OUR_CLASSIFICATION
from bot.domain.institutions import load_institutions
from bot.domain.models import Alternative, Award, CatalogBatch, Paper, Source
from bot.domain.text import title_key
from tools.bundle.facts import Entry, FactsError, PaperFacts
from tools.bundle.merge import Report

_Key = tuple[str, int, str]


def merge_facts(
    awards: list[Award], entries: Iterable[Entry], hand: CatalogBatch, report: Report
) -> list[Award]:
    """`awards` with every entry's facts in its paper; a `FactsError` for an entry that fails."""
    out = list(awards)
    hand_papers = {(a.venue, a.year, title_key(a.paper.title)): a.paper for a in hand.awards}
    given: dict[int, str] = {}  # award index -> the entry that gave its paper facts
    counts: Counter[str] = Counter()
    for entry in entries:
        facts = entry.facts
        found = _find(out, entry, hand_papers)
        for index in found:
            if index in given:
                raise FactsError(f"{entry.where}: the same paper as {given[index]}; give it once")
        paper = out[found[0]].paper
        hand_paper = hand_papers.get((entry.venue, facts.year, title_key(facts.title)))
        updated = _with_facts(paper, facts, hand_paper, entry.where, counts)
        for index in _same_paper(out, paper):
            out[index] = out[index].model_copy(update={"paper": updated})
            given[index] = entry.where
    if counts["entries"]:
        report.lines.append(_counted(counts))
    return out


def _find(awards: list[Award], entry: Entry, hand: dict[_Key, Paper]) -> list[int]:
    facts = entry.facts
    found = [
        i
        for i, a in enumerate(awards)
        if (a.venue, a.year, a.paper.title) == (entry.venue, facts.year, facts.title)
    ]
    if found:
        return found
    key = title_key(facts.title)
    near = [
        a.paper.title
        for a in awards
        if (a.venue, a.year) == (entry.venue, facts.year) and title_key(a.paper.title) == key
    ]
    if near:
        raise FactsError(f"{entry.where}: the catalogue spells the title “{near[0]}”; use it")
    if (entry.venue, facts.year, key) in hand:
        raise FactsError(
            f"{entry.where}: this paper is only in the hand-written catalogue (data/"
            f"{facts.year}/…): write its facts there"
        )
    raise FactsError(
        f"{entry.where}: no paper of {facts.year} with this title in data/awards/{entry.venue}.toml"
    )


def _same_paper(awards: list[Award], paper: Paper) -> list[int]:
    """The awards that carry `paper`: the same record, or one with its arXiv id or DOI."""
    ids = {(n, getattr(paper, n)) for n in ("arxiv", "doi") if getattr(paper, n)}
    return [
        i
        for i, a in enumerate(awards)
        if a.paper == paper or ids & {(n, getattr(a.paper, n)) for n in ("arxiv", "doi")}
    ]


def _with_facts(
    paper: Paper, facts: PaperFacts, hand: Paper | None, where: str, counts: Counter[str]
) -> Paper:
    data: dict[str, Any] = paper.model_dump(mode="json", exclude_none=True)
    sources: list[Source] = list(paper.sources)
    alternatives: list[Alternative] = list(paper.alternatives)
    _refuse_hand_written(hand, facts, where)
    counts["entries"] += 1
    if facts.summaries:
        data["summaries"] = {**data.get("summaries", {}), **facts.summaries}
        covers = tuple(f"summaries.{language}" for language in facts.summaries)
        read_via = (
            None
            if facts.read_via is None
            else f"The abstract was read in the record of this page that {facts.read_via} keeps;"
            " the page itself is not among the stored copies."
        )
        sources.append(Source(url=facts.read, covers=covers, note=read_via))
        counts.update(f"summary {language}" for language in facts.summaries)
    classified = []
    for name in ("area", "task"):
        value = getattr(facts, name)
        if value is None:
            continue
        if getattr(paper, name) is not None and not paper.classified_by_us(name):
            raise FactsError(
                f"{where}: the taxonomy gives this paper the {name} “{getattr(paper, name)}”; "
                f"`{name}` is for papers it gives none"
            )
        data[name] = value.value
        classified.append(name)
        counts[f"{name} (ours)"] += 1
    if classified:
        ours = Source(url=facts.read, document=OUR_CLASSIFICATION, covers=tuple(classified))
        sources.append(ours)
    for name in ("authors", "affiliations"):
        names = getattr(facts, name)
        if not names:
            continue
        if name == "affiliations":
            # One institution once, whatever spellings the source gave it (issue 24).
            names = load_institutions().unique(names)
        source = Source(url=getattr(facts, f"{name}_source"), covers=(name,))
        old = list(getattr(paper, name))
        if old and old != list(names):
            why = f"what the datasets give; replaced by the {name} read at {source.url}"
            alternatives.append(
                Alternative(field=name, value=old, source=_source_of(paper, name), reason=why)
            )
        data[name] = list(names)
        if name == "authors":
            data["authors_incomplete"] = facts.authors_incomplete
        sources.append(source)
        counts[name] += 1
    if facts.code is not None:
        old_code = paper.links.code
        if old_code is not None and old_code != facts.code:
            why = f"a code link the datasets give; the one named at {facts.code_source} is kept"
            alternatives.append(
                Alternative(
                    field="links.code",
                    value=old_code,
                    source=_source_of(paper, "links"),
                    reason=why,
                )
            )
        data.setdefault("links", {})["code"] = facts.code
        sources.append(Source(url=facts.code_source, covers=("links.code",)))
        counts["code"] += 1
    if facts.aliases:
        data["aliases"] = list(dict.fromkeys([*paper.aliases, *facts.aliases]))
        sources.append(Source(url=facts.aliases_source, covers=("aliases",)))
        counts["aliases"] += 1
    if facts.published is not None:
        if paper.year is not None and paper.year != facts.published:
            why = (
                f"the year the datasets imply; replaced by the one read at {facts.published_source}"
            )
            alternatives.append(
                Alternative(
                    field="year", value=paper.year, source=_source_of(paper, "year"), reason=why
                )
            )
        data["year"] = facts.published
        sources.append(Source(url=facts.published_source, covers=("year",)))
        counts["published"] += 1
    data["sources"] = _unique(sources)
    data["alternatives"] = alternatives
    return Paper.model_validate(data)


def _refuse_hand_written(hand: Paper | None, facts: PaperFacts, where: str) -> None:
    if hand is None:
        return
    clashes = [f"summaries.{lang}" for lang in facts.summaries if lang in hand.summaries]
    clashes += [n for n in ("area", "task") if getattr(facts, n) and getattr(hand, n)]
    clashes += [n for n in ("authors", "affiliations") if getattr(facts, n) and getattr(hand, n)]
    if facts.published is not None and hand.year is not None:
        clashes.append("published")
    if facts.code and hand.links.code:
        clashes.append("code")
    if facts.aliases and hand.aliases:
        clashes.append("aliases")
    if clashes:
        raise FactsError(
            f"{where}: the hand-written catalogue already gives {', '.join(clashes)} for this "
            "paper; change it there"
        )


def _source_of(paper: Paper, field: str) -> Source:
    covering = [s for s in paper.sources if not s.covers or field in s.covers]
    return next(iter(covering or paper.sources), Source(document="the award datasets"))


def _unique(sources: list[Source]) -> list[Source]:
    seen: list[Source] = []
    for source in sources:
        if source not in seen:
            seen.append(source)
    return seen


def _counted(counts: Counter[str]) -> str:
    parts = [f"{counts[k]} {k}" for k in sorted(counts) if k != "entries"]
    return f"per-paper facts: {counts['entries']} papers ({', '.join(parts) or 'nothing'})"
