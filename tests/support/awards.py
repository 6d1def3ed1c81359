"""A small catalogue for the store tests: two venues, and awards made in one line."""

from __future__ import annotations

from bot.domain.models import Award, AwardKind, CatalogBatch, Paper, Venue

VENUES = (Venue(key="icml", name="ICML"), Venue(key="neurips", name="NeurIPS"))


def award(title: str, *, venue: str = "icml", year: int = 2025, **paper: object) -> Award:
    return Award(
        venue=venue,
        year=year,
        name="Outstanding Paper",
        kind=AwardKind.OUTSTANDING,
        paper=Paper.model_validate({"title": title, **paper}),
    )


def batch(*awards: Award) -> CatalogBatch:
    return CatalogBatch(awards=awards)
