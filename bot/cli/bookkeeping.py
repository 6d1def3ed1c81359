"""`laurel db check`'s report for curators: what is still unknown, and where sources disagree.

Members never see these (issue 24): a byline not yet in the catalogue reads "not yet in the
catalogue", and a member is shown one source. Curators get the lists here, in plain English.
"""

from __future__ import annotations

from bot.domain.models import Alternative, AuthorsState, CatalogBatch


def render_bookkeeping(batch: CatalogBatch, *, listed: int = 10) -> str:
    papers = {id(a.paper): a for a in batch.awards}
    unknown = [a for a in papers.values() if a.paper.authors_state is AuthorsState.UNKNOWN]
    cut = [a for a in papers.values() if a.paper.authors_state is AuthorsState.CUT_SHORT]
    lines = [
        f"authors: {len(papers) - len(unknown) - len(cut)} of {len(papers)} papers complete, "
        f"{len(unknown)} not yet known, {len(cut)} cut short by their source"
    ]
    for label, group in (("authors unknown", unknown), ("authors cut short", cut)):
        lines += [f"  {label}: {a.venue} {a.year} “{a.paper.title}”" for a in group[:listed]]
        if len(group) > listed:
            lines.append(f"  … and {len(group) - listed} more {label}")
    with_figures = [e for e in batch.editions if e.submissions or e.accepted]
    said = [e for e in with_figures if e.counts is not None]
    lines.append(
        f"statistics: {len(with_figures)} editions have figures, {len(said)} say what they count"
    )
    disagreeing = [(f"{e.venue} {e.year}", a) for e in batch.editions for a in e.alternatives] + [
        (f"{a.venue} {a.year} “{a.paper.title[:50]}”", x) for a in batch.awards for x in _all(a)
    ]
    lines.append(f"sources disagree: {len(disagreeing)} values kept as alternatives")
    lines += [f"  {where}: {_line(a)}" for where, a in disagreeing[:listed]]
    if len(disagreeing) > listed:
        lines.append(f"  … and {len(disagreeing) - listed} more (`laurel export` holds them all)")
    return "\n".join(lines)


def _all(award: object) -> list[Alternative]:
    alternatives = list(getattr(award, "alternatives", ()))
    paper = getattr(award, "paper", None)
    return alternatives + list(getattr(paper, "alternatives", ()))


def _line(alternative: Alternative) -> str:
    source = alternative.source.document or alternative.source.url or ""
    value = str(alternative.value)[:60]
    return f"{alternative.field} = {value!r} ({source[:60]}): {alternative.reason[:100]}"
