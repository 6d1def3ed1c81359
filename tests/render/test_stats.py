from __future__ import annotations

import discord
import pytest

from bot.domain.models import Alternative, Edition, Source, Venue
from bot.render.i18n import Strings
from bot.render.stats import (
    change_between,
    compare_embed,
    edition_embed,
    format_count,
    format_rate,
    format_signed,
    previous_with_statistics,
    trend_points,
)
from bot.render.years import year_spans

NEURIPS = Venue(key="neurips", name="NeurIPS", url="https://neurips.cc/")
ICML = Venue(key="icml", name="ICML")


@pytest.fixture(scope="module")
def strings() -> Strings:
    return Strings.load()


def edition(year: int, submissions: int | None, accepted: int | None, **more: object) -> Edition:
    return Edition.model_validate(
        {"venue": "neurips", "year": year, "submissions": submissions, "accepted": accepted, **more}
    )


def fields(embed: discord.Embed) -> dict[str, str]:
    return {str(f.name): str(f.value) for f in embed.fields}


@pytest.mark.parametrize(
    ("rate", "shown"),
    [(5290 / 21575, "24.5%"), (3260 / 12107, "26.9%"), (1.0, "100.0%"), (0.0, "0.0%"), (None, "—")],
)
def test_rates_have_one_decimal(rate: float | None, shown: str) -> None:
    assert format_rate(rate) == shown


def test_counts_have_thousands_separators() -> None:
    assert (format_count(21575), format_count(7), format_count(None)) == ("21,575", "7", "—")


def test_signed_changes_use_a_true_minus_and_say_when_nothing_changed() -> None:
    assert (format_signed(37.68), format_signed(-1.24), format_signed(0.04)) == (
        "+37.7",
        "−1.2",
        "±0.0",
    )


def test_change_from_the_previous_edition() -> None:
    change = change_between(edition(2025, 21575, 5290), edition(2024, 15671, 4037))
    assert change is not None
    assert change.since == 2024
    assert round(change.submissions or 0, 1) == 37.7
    assert round(change.accepted or 0, 1) == 31.0
    assert round(change.rate_points or 0, 2) == -1.24


def test_change_leaves_out_what_one_side_lacks() -> None:
    change = change_between(edition(2023, 12343, 3218), edition(2022, 10411, None))
    assert change is not None
    assert (change.accepted, change.rate_points) == (None, None)
    assert change_between(edition(2014, 1678, 414), None) is None


def test_previous_is_the_latest_earlier_edition_with_numbers() -> None:
    editions = [edition(2013, 1, 1), edition(2014, None, None), edition(2015, 3, 1)]
    assert previous_with_statistics(editions, 2015) == editions[0]
    assert previous_with_statistics(editions, 2013) is None


def test_year_spans_join_consecutive_years() -> None:
    assert year_spans([2025, 2013, 2015, 2016, 2017, 2023]) == "2013, 2015–2017, 2023, 2025"
    assert year_spans([]) == ""


def test_trend_points_skip_editions_without_numbers() -> None:
    points = trend_points([edition(2015, 3, 1), edition(2014, None, None)])
    assert [(p.year, p.rate) for p in points] == [(2015, 1 / 3)]


def test_edition_embed_shows_changes_alternatives_sources_and_the_chart(strings: Strings) -> None:
    current = edition(
        2025,
        21575,
        5290,
        reviewers=20518,
        city="San Diego",
        country="United States",
        month=12,
        sources=[Source(url="https://example.org/a_b", document="Report [draft]")],
        alternatives=[
            Alternative(
                field="submissions",
                value=21600,
                source=Source(document="A *bold* claim"),
                reason="disagrees",
            )
        ],
    )
    embed = edition_embed(
        NEURIPS, current, edition(2024, 15671, 4037), strings, "en", image="trend.png"
    )
    shown = fields(embed)
    assert embed.title == "NeurIPS 2025 in numbers"
    assert shown["Submissions"] == "**21,575**\n+37.7% vs 2024"
    assert shown["Acceptance rate"] == "**24.5%**\n−1.2 pts vs 2024"
    assert shown["Reviewing"] == "Reviewers 20,518"
    # A member sees one link, named by its site: no other figures, no document names (issue 24).
    assert "Also reported" not in shown
    assert shown["Source"] == "[example.org](https://example.org/a_b)"
    assert embed.description == "San Diego, United States · December 2025"
    assert embed.image.url == "attachment://trend.png"
    assert "Presentations" not in shown


def test_edition_embed_in_simplified_chinese_without_a_previous_year(strings: Strings) -> None:
    embed = edition_embed(NEURIPS, edition(2014, 1678, 414), None, strings, "zh-CN")
    assert fields(embed)["录用率"] == "**24.7%**"
    assert embed.image.url is None


def test_compare_embed_lists_venues_and_those_without_numbers(strings: Strings) -> None:
    rows = [(NEURIPS, edition(2025, 21575, 5290)), (ICML, edition(2025, 12107, None))]
    embed = compare_embed(2025, rows, [Venue(key="x", name="X")], strings, "zh-TW")
    assert embed.title == "2025 年各會議對照"
    assert fields(embed)["ICML"] == "投稿數：**12,107**\n錄取數：**—**\n錄取率：**—**"
    assert embed.footer.text == "2025 年沒有統計：X"
