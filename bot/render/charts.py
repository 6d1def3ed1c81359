"""Charts as PNG bytes: data in, image out, nothing else.

Each chart is its own `matplotlib.figure.Figure` drawn on an explicit Agg canvas, so nothing
touches pyplot's global state or the process-wide backend, and charts can be drawn in a worker
thread. The words come in a `ChartLabels` (the reader's language where a CJK font is installed,
English elsewhere: bot/render/chart_labels.py); the charts only draw them.

matplotlib is imported when the first chart is drawn, not with this module: it is over half of
the bot's import time (benchmarks/startup.py), and most starts draw no chart for a long while.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from bot.render.chart_labels import ChartLabels

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from matplotlib.font_manager import FontProperties

WIDTH_IN, HEIGHT_IN, DPI = 8.0, 4.5, 100  # 800 × 450 pixels, whatever the data
SUBMITTED = "#c9d6e8"
ACCEPTED = "#3b6ea5"
RATE = "#c9a227"  # laurel gold, as the embeds


@dataclass(frozen=True, slots=True)
class TrendPoint:
    year: int
    submissions: int | None
    accepted: int | None

    @property
    def rate(self) -> float | None:
        if self.submissions and self.accepted is not None:
            return self.accepted / self.submissions
        return None


@dataclass(frozen=True, slots=True)
class VenueBar:
    venue: str
    submissions: int | None
    accepted: int | None


def trend_chart(
    labels: ChartLabels, points: Sequence[TrendPoint], highlight: int | None = None
) -> bytes:
    """Submissions (and accepted) as bars per year, the acceptance rate as a line.

    The year `highlight` (the edition being shown) is shaded.
    """
    from matplotlib.ticker import FuncFormatter, MaxNLocator

    figure = _figure()
    axes = figure.add_subplot()
    if highlight is not None:
        axes.axvspan(highlight - 0.5, highlight + 0.5, color="#000000", alpha=0.07, linewidth=0)
    years = [p.year for p in points]
    submitted = [(p.year, p.submissions) for p in points if p.submissions is not None]
    accepted = [(p.year, p.accepted) for p in points if p.accepted is not None]
    for counts, width, colour, label in (
        (submitted, 0.7, SUBMITTED, labels.submissions),
        (accepted, 0.45, ACCEPTED, labels.accepted),
    ):
        if counts:
            x = [year for year, _ in counts]
            heights = [count for _, count in counts]
            axes.bar(x, heights, width=width, color=colour, label=label)
    axes.set_ylabel(labels.papers, fontfamily=labels.families)
    axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _pos: f"{value:,.0f}"))
    axes.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=min(len(years), 14) or 1))
    if years:
        axes.set_xlim(min(years) - 0.6, max(years) + 0.6)
    handles, names = axes.get_legend_handles_labels()
    rates = [math.nan if p.rate is None else p.rate * 100 for p in points]
    if any(not math.isnan(r) for r in rates):
        line_axes = axes.twinx()
        # NaN breaks the line where a year has no rate, rather than joining across the gap.
        (line,) = line_axes.plot(years, rates, color=RATE, marker="o", linewidth=2)
        line_axes.set_ylabel(labels.rate_axis, fontfamily=labels.families)
        line_axes.set_ylim(0, max(r for r in rates if not math.isnan(r)) * 1.25)
        handles.append(line)
        names.append(labels.rate)
    if handles:
        axes.legend(handles, names, loc="upper left", frameon=False, prop=_legend_font(labels))
    axes.set_title(labels.title, fontfamily=labels.families)
    return _png(figure)


def compare_chart(labels: ChartLabels, bars: Sequence[VenueBar]) -> bytes:
    """Submissions and accepted side by side per venue, with each acceptance rate on top."""
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter

    figure = _figure()
    axes = figure.add_subplot()
    width = 0.38
    for index, bar in enumerate(bars):
        if bar.submissions is not None:
            axes.bar(index - width / 2, bar.submissions, width, color=SUBMITTED)
        if bar.accepted is not None:
            axes.bar(index + width / 2, bar.accepted, width, color=ACCEPTED)
        if bar.submissions and bar.accepted is not None:
            rate = f"{bar.accepted / bar.submissions * 100:.1f}%"
            axes.annotate(
                rate,
                (index, bar.submissions),
                xytext=(0, 4),
                textcoords="offset points",
                ha="center",
                fontsize="small",
                color="#555555",
            )
    axes.set_xticks(range(len(bars)), [b.venue for b in bars], fontfamily=labels.families)
    axes.set_ylabel(labels.papers, fontfamily=labels.families)
    axes.yaxis.set_major_formatter(FuncFormatter(lambda value, _pos: f"{value:,.0f}"))
    axes.margins(y=0.12)
    legend = [
        Patch(color=SUBMITTED, label=labels.submissions),
        Patch(color=ACCEPTED, label=labels.accepted),
    ]
    axes.legend(handles=legend, loc="upper right", frameon=False, prop=_legend_font(labels))
    axes.set_title(labels.title, fontfamily=labels.families)
    return _png(figure)


def _legend_font(labels: ChartLabels) -> FontProperties:
    from matplotlib.font_manager import FontProperties

    return FontProperties(family=labels.families, size="small")


def _figure() -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    # Fixed margins rather than a layout engine: the same look, at a fraction of the time.
    figure.subplots_adjust(left=0.1, right=0.9, top=0.9, bottom=0.1)
    FigureCanvasAgg(figure)  # the Agg backend, for this figure only
    return figure


def _png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    # No "Software" stamp and no timestamp: the same data always gives the same bytes.
    figure.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    return buffer.getvalue()
