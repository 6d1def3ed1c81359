"""Charts speak the reader's language where a CJK font can draw it, and English elsewhere."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from functools import partial

import pytest

from bot.domain.models import Language
from bot.render.chart_fonts import ChartFonts, find_cjk_family
from bot.render.chart_labels import ChartLabels, chart_labels
from bot.render.charts import TrendPoint, VenueBar, compare_chart, trend_chart
from bot.render.i18n import Strings

POINTS = [TrendPoint(2024, 15671, 4037), TrendPoint(2025, 21575, 5290)]


@pytest.fixture(scope="module")
def strings() -> Strings:
    return Strings.load()


@pytest.mark.parametrize("language", ["zh-TW", "zh-CN"])
def test_chinese_labels_where_a_cjk_font_is_installed(strings: Strings, language: Language) -> None:
    labels = chart_labels(strings, language, "Noto Sans CJK TC", "chart-trend-title", venue="ICML")
    english = chart_labels(strings, "en", None, "chart-trend-title", venue="ICML")
    assert labels.font == "Noto Sans CJK TC"
    assert labels.families[0] == "Noto Sans CJK TC"
    assert "ICML" in labels.title
    for field in ("title", "submissions", "accepted", "papers", "rate_axis", "rate"):
        chinese = getattr(labels, field)
        assert chinese != getattr(english, field), field
        assert any("\u4e00" <= ch <= "\u9fff" for ch in chinese), field


def test_english_labels_where_no_font_can_draw_chinese(strings: Strings) -> None:
    labels = chart_labels(strings, "zh-TW", None, "chart-compare-title", year=2025)
    assert labels == chart_labels(strings, "en", None, "chart-compare-title", year=2025)
    assert labels.title == "2025: submissions and accepted papers"
    assert labels.font is None


def test_english_readers_never_get_the_cjk_font(strings: Strings) -> None:
    assert (
        chart_labels(strings, "en", "Noto Sans CJK TC", "chart-trend-title", venue="X").font is None
    )


def _missing_glyph_warnings(draw: Callable[[], bytes]) -> list[str]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        draw()
    return [str(w.message) for w in caught if "missing from font" in str(w.message)]


def test_the_english_fallback_draws_no_empty_boxes(strings: Strings) -> None:
    labels = chart_labels(strings, "zh-TW", None, "chart-trend-title", venue="NeurIPS")
    assert _missing_glyph_warnings(lambda: trend_chart(labels, POINTS, 2025)) == []


def test_chinese_text_without_a_cjk_font_would_draw_boxes() -> None:
    """The check above can fail: Chinese text in the default font is reported as missing."""
    labels = ChartLabels("投稿數與錄取率")
    assert _missing_glyph_warnings(lambda: trend_chart(labels, POINTS)) != []


def test_charts_drawn_in_chinese_with_an_installed_cjk_font(strings: Strings) -> None:
    family = find_cjk_family()
    if family is None:
        pytest.skip("no CJK font installed here (the Dockerfile installs fonts-noto-cjk)")
    languages: tuple[Language, ...] = ("zh-TW", "zh-CN")
    for language in languages:
        trend = chart_labels(strings, language, family, "chart-trend-title", venue="ICML")
        compare = chart_labels(strings, language, family, "chart-compare-title", year=2025)
        bars = [VenueBar("ICML", 12107, 3260), VenueBar("NeurIPS", 21575, 5290)]
        assert _missing_glyph_warnings(partial(trend_chart, trend, POINTS, 2025)) == []
        assert _missing_glyph_warnings(partial(compare_chart, compare, bars)) == []
    assert trend.font == family


async def test_the_font_is_looked_up_once() -> None:
    calls: list[int] = []

    def finder() -> str | None:
        calls.append(1)
        return "WenQuanYi Zen Hei"

    fonts = ChartFonts(finder)
    assert await fonts.cjk_family() == "WenQuanYi Zen Hei"
    assert await fonts.cjk_family() == "WenQuanYi Zen Hei"
    assert calls == [1]
