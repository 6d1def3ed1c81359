from __future__ import annotations

import struct

import pytest

from bot.render.chart_labels import ChartLabels
from bot.render.charts import (
    DPI,
    HEIGHT_IN,
    WIDTH_IN,
    TrendPoint,
    VenueBar,
    compare_chart,
    trend_chart,
)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SIZE = (int(WIDTH_IN * DPI), int(HEIGHT_IN * DPI))

NEURIPS = [
    TrendPoint(2023, 12343, 3218),
    TrendPoint(2024, 15671, 4037),
    TrendPoint(2025, 21575, 5290),
]


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG_SIGNATURE)
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_trend_chart_is_a_png_of_a_fixed_size() -> None:
    assert png_size(trend_chart(ChartLabels("NeurIPS"), NEURIPS)) == SIZE


def test_the_same_data_gives_the_same_bytes() -> None:
    assert trend_chart(ChartLabels("NeurIPS"), NEURIPS) == trend_chart(
        ChartLabels("NeurIPS"), NEURIPS
    )
    assert trend_chart(ChartLabels("NeurIPS"), NEURIPS) != trend_chart(
        ChartLabels("NeurIPS"), NEURIPS[:2]
    )


@pytest.mark.parametrize(
    "points",
    [
        pytest.param([TrendPoint(2022, 10411, None)], id="only-submissions"),
        pytest.param([TrendPoint(2016, None, 322)], id="only-accepted"),
        pytest.param(
            [
                TrendPoint(2013, 1473, 413),
                TrendPoint(2015, 1996, None),
                TrendPoint(2025, 5806, 1023),
            ],
            id="gaps-and-missing-values",
        ),
        pytest.param([TrendPoint(2014, None, None)], id="nothing-known"),
        pytest.param([], id="no-years"),
    ],
)
def test_trend_chart_draws_whatever_is_known(points: list[TrendPoint]) -> None:
    assert png_size(trend_chart(ChartLabels("IJCAI"), points)) == SIZE


def test_compare_chart_handles_missing_counts() -> None:
    bars = [VenueBar("NeurIPS", 21575, 5290), VenueBar("IJCAI", 5806, None), VenueBar("X", None, 7)]
    assert png_size(compare_chart(ChartLabels("2025"), bars)) == SIZE
    assert png_size(compare_chart(ChartLabels("2025"), [])) == SIZE


def test_the_year_shown_is_shaded() -> None:
    plain = trend_chart(ChartLabels("NeurIPS"), NEURIPS)
    shaded = trend_chart(ChartLabels("NeurIPS"), NEURIPS, highlight=2024)
    assert png_size(shaded) == SIZE
    assert shaded != plain
