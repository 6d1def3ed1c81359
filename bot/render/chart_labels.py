"""The words on a chart, in the reader's language where a font can draw them."""

from __future__ import annotations

from dataclasses import dataclass

from bot.domain.models import Language
from bot.render.i18n import Strings


@dataclass(frozen=True, slots=True)
class ChartLabels:
    """Every text a chart draws. `font` is a family that has the glyphs (None: the default)."""

    title: str
    submissions: str = "Submissions"
    accepted: str = "Accepted"
    papers: str = "Papers"
    rate_axis: str = "Acceptance rate (%)"
    rate: str = "Acceptance rate"
    font: str | None = None

    @property
    def families(self) -> list[str]:
        """The font list for matplotlib: the CJK family first, the default for what it lacks."""
        return [self.font, "DejaVu Sans"] if self.font else ["DejaVu Sans"]


def chart_labels(
    strings: Strings,
    language: Language,
    cjk_family: str | None,
    title_key: str,
    **params: object,
) -> ChartLabels:
    """Labels in `language`, or in English where no installed font can draw Chinese."""
    if language != "en" and cjk_family is None:
        language = "en"

    def text(key: str, **values: object) -> str:
        return strings.text(key, language, **values)

    return ChartLabels(
        title=text(title_key, **params),
        submissions=text("chart-submissions"),
        accepted=text("chart-accepted"),
        papers=text("chart-papers"),
        rate_axis=text("chart-rate-axis"),
        rate=text("chart-rate"),
        font=cjk_family if language != "en" else None,
    )
