"""How much of the catalogue carries each kind of fact: the coverage `laurel stats` prints and
the checks on the bundled catalogue (tests/catalog/test_catalogue_goals.py) hold to their goals.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from bot.domain.models import LANGUAGES, Language, Paper


@dataclass
class FieldCoverage:
    """Counts of papers, each with the fact named; `share` turns one into a fraction."""

    papers: int = 0
    summaries: dict[Language, int] = field(default_factory=lambda: dict.fromkeys(LANGUAGES, 0))
    # summaries in that language whose source (covering `summaries.<language>`) is recorded
    summary_sources: dict[Language, int] = field(
        default_factory=lambda: dict.fromkeys(LANGUAGES, 0)
    )
    all_summaries: int = 0  # papers with a summary in all three languages
    area: int = 0
    area_ours: int = 0  # of `area`: our classification, not the taxonomy's
    task: int = 0
    code: int = 0
    authors: int = 0  # an author list, whole or cut short
    authors_cut_short: int = 0
    affiliations: int = 0

    def share(self, count: int) -> float:
        """`count` over the papers (1.0 for no papers: nothing is missing)."""
        return count / self.papers if self.papers else 1.0

    def lines(self) -> list[str]:
        """One line a field: the count, of how many, and the share."""
        rows: list[tuple[str, int]] = [
            *((f"summary ({lang})", self.summaries[lang]) for lang in LANGUAGES),
            ("summary in all three", self.all_summaries),
            *((f"summary source ({lang})", self.summary_sources[lang]) for lang in LANGUAGES),
            ("research area", self.area),
            ("  of which our classification", self.area_ours),
            ("task", self.task),
            ("code link", self.code),
            ("authors known", self.authors),
            ("  of which cut short", self.authors_cut_short),
            ("affiliations", self.affiliations),
        ]
        return [
            f"  {name:<30} {n:>5} of {self.papers:<5} {self.share(n):>7.1%}" for name, n in rows
        ]


def measure(papers: Iterable[Paper]) -> FieldCoverage:
    found = FieldCoverage()
    for paper in papers:
        found.papers += 1
        for language in paper.summaries:
            found.summaries[language] += 1
            if paper.summary_source(language) is not None:
                found.summary_sources[language] += 1
        found.all_summaries += all(lang in paper.summaries for lang in LANGUAGES)
        found.area += paper.area is not None
        found.area_ours += paper.area is not None and paper.classified_by_us("area")
        found.task += paper.task is not None
        found.code += paper.links.code is not None
        found.authors += bool(paper.authors)
        found.authors_cut_short += bool(paper.authors) and paper.authors_incomplete
        found.affiliations += bool(paper.affiliations)
    return found
