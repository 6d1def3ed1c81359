"""Checks on the bundled catalogue that fail when a goal slips (issue 23): how many papers have
a summary in each language, a source for each summary and a research area (the thresholds are
in catalogue_goals.toml, one line each); zh-TW written in traditional characters and zh-CN in
simplified ones (OpenCC, a test dependency); every figure stated in all three languages."""

from __future__ import annotations

import asyncio
import re
import tomllib
from pathlib import Path

import opencc
import pytest

from bot.catalog.bundled import load_bundled
from bot.catalog.summary_numbers import mismatched
from bot.domain.clock import SystemClock
from bot.domain.coverage import FieldCoverage
from bot.domain.models import LANGUAGES, Language, Paper
from bot.store.catalog.coverage import field_coverage
from bot.store.catalog.repository import CatalogRepository
from tests.support.backends import open_sqlite

S2TW, T2S = opencc.OpenCC("s2tw"), opencc.OpenCC("t2s")
GOALS = tomllib.loads((Path(__file__).parent / "catalogue_goals.toml").read_text("utf-8"))
BUNDLED = load_bundled()
# One paper a title and year (a paper holding several awards is summarised once).
PAPERS = list({(a.paper.title, a.paper.year): a.paper for a in BUNDLED.awards}.values())


@pytest.fixture(scope="module")
def coverage(tmp_path_factory: pytest.TempPathFactory) -> FieldCoverage:
    """The whole bundled catalogue in a database, measured as `laurel stats` measures it."""
    path = tmp_path_factory.mktemp("goals") / "laurel.db"

    async def measure() -> FieldCoverage:
        async with await open_sqlite(path) as db:
            plan = await CatalogRepository(db, SystemClock()).apply(
                BUNDLED, actor="bundled", policy="update"
            )
            assert plan.rejected == []
            return await field_coverage(db)

    return asyncio.run(measure())


def shares(found: FieldCoverage) -> dict[str, float]:
    measured = {f"summary.{lang}": found.share(found.summaries[lang]) for lang in LANGUAGES}
    measured["summary.all-three"] = found.share(found.all_summaries)
    for lang in LANGUAGES:
        written = found.summaries[lang]
        measured[f"sourced.{lang}"] = found.summary_sources[lang] / written if written else 1.0
    measured["area"] = found.share(found.area)
    return measured


def test_every_goal_is_measured() -> None:
    assert set(GOALS["at_least"]) == set(shares(FieldCoverage()))


@pytest.mark.parametrize("goal", sorted(GOALS["at_least"]))
def test_the_catalogue_keeps_its_goal(coverage: FieldCoverage, goal: str) -> None:
    measured = shares(coverage)[goal]
    assert measured >= GOALS["at_least"][goal], (
        f"{goal}: {measured:.3f} of the bundled catalogue, below its goal "
        f"{GOALS['at_least'][goal]} (catalogue_goals.toml)"
    )


def script_slips(text: str, language: str, allowed: list[str]) -> list[str]:
    """Characters of the other script in `text`, each with a little context.

    zh-CN: what OpenCC's t2s changes. zh-TW: what changes when the text goes to simplified and
    back with s2tw (converting it directly would miss phrases: 干擾 is not the phrase 干扰, and
    its 干 alone would become 幹). Only characters that change on their own count too (布 stays
    布: it is both, 分布 and 分佈). `allowed` phrases are skipped.
    """
    for phrase in allowed:
        text = text.replace(phrase, "\u3000" * len(phrase))
    if language == "zh-TW":
        whole = S2TW.convert(T2S.convert(text))
        alone = S2TW
    else:
        whole, alone = T2S.convert(text), T2S
    if len(whole) != len(text):
        return [f"the conversion changed the length: {text[:40]}…"]
    return [
        f"{text[max(0, i - 4) : i + 3]} ({ch}→{to})"
        for i, (ch, to) in enumerate(zip(text, whole, strict=True))
        if ch != to and alone.convert(ch) != ch
    ]


@pytest.mark.parametrize("language", ["zh-TW", "zh-CN"])
def test_each_chinese_summary_keeps_to_its_script(language: str) -> None:
    allowed = GOALS["script"][language]
    slips = {
        p.title: found
        for p in PAPERS
        if language in p.summaries
        and (found := script_slips(p.summaries[language], language, allowed))
    }
    assert slips == {}


def test_the_script_check_catches_the_other_script() -> None:
    assert script_slips("這個資料集受到干擾", "zh-TW", []) == []
    assert script_slips("这个資料集", "zh-TW", []) == ["这个資 (这→這)", "这个資料 (个→個)"]
    assert script_slips("分布在下游任務", "zh-TW", []) == []
    assert script_slips("一台電腦", "zh-TW", []) == ["一台電腦 (台→臺)"]
    assert script_slips("一台電腦", "zh-TW", ["台"]) == []
    assert script_slips("这个数据集", "zh-CN", []) == []
    assert script_slips("這个数据集", "zh-CN", []) == ["這个数 (這→这)"]


def test_zh_cn_is_written_for_its_readers_not_converted() -> None:
    conversions = (T2S, opencc.OpenCC("tw2sp"))
    converted = sorted(
        p.title
        for p in PAPERS
        if {"zh-TW", "zh-CN"} <= set(p.summaries)
        and any(c.convert(p.summaries["zh-TW"]) == p.summaries["zh-CN"] for c in conversions)
    )
    assert len(converted) <= GOALS["at_most"]["zh-CN converted from zh-TW"], converted


_ENGLISH_MAGNITUDE = re.compile(r"\d\s*(?:million|billion|thousand|trillion)\b", re.IGNORECASE)


@pytest.mark.parametrize("language", ["zh-TW", "zh-CN"])
def test_a_chinese_summary_counts_in_chinese(language: Language) -> None:
    """ "1.3 million 張" read as English inside a Chinese sentence (issue 25): large figures are
    written with 萬/億 (zh-TW) and 万/亿 (zh-CN), as a reader of each writes them."""
    english = [
        f"{p.year} {p.title}"
        for p in PAPERS
        if _ENGLISH_MAGNITUDE.search(p.summaries.get(language) or "")
    ]
    assert english == []


def test_every_figure_is_stated_in_all_three_languages() -> None:
    slips = {p.title: found for p in PAPERS if (found := mismatched(p.summaries))}
    assert slips == {}


@pytest.mark.parametrize(
    ("summaries", "expected"),
    [
        ({"en": "1.4 billion", "zh-TW": "14 億", "zh-CN": "14 亿"}, {}),
        ({"en": "26,000 queries", "zh-TW": "2.6 萬個", "zh-CN": "2.6 万个"}, {}),
        ({"en": "in September 2025", "zh-TW": "2025 年 9 月", "zh-CN": "2025 年 9 月"}, {}),
        ({"en": "11B parameters", "zh-TW": "110 億參數", "zh-CN": "11B 参数"}, {}),
        ({"en": "it may help", "zh-TW": "或許有幫助", "zh-CN": "或许有帮助"}, {}),
        ({"en": "a million-dimensional", "zh-TW": "一百萬維", "zh-CN": "一百多万维"}, {}),
        ({"en": "5 to 500 billion", "zh-TW": "50 億到 5000 億", "zh-CN": "50 亿到 5000 亿"}, {}),
        ({"en": "70 million", "zh-TW": "7 千萬", "zh-CN": "7000 万"}, {}),
        ({"en": "million-scale", "zh-TW": "百萬規模", "zh-CN": "数十万张"}, {}),
        ({"en": "in the 1980s", "zh-TW": "1980 年代", "zh-CN": "20 世纪 80 年代"}, {}),
        ({"en": "under one billion", "zh-TW": "不到十億", "zh-CN": "不足十亿"}, {}),
        ({"en": "twenty-six tasks", "zh-TW": "26 種任務", "zh-CN": "26 个任务"}, {}),
        ({"en": "up to 30 points", "zh-TW": "最多 3 分", "zh-CN": "最多 30 分"}, {"zh-TW": ["30"]}),
    ],
)
def test_figures_compare_across_languages(
    summaries: dict[str, str], expected: dict[str, list[str]]
) -> None:
    assert {k: v for k, v in mismatched(summaries).items() if k == "zh-TW"} == expected
    if "26" in summaries["zh-TW"]:  # a figure spelt out in one language only is a slip
        assert mismatched(summaries) == {"en": ["26"]}


def test_the_summaries_come_from_every_hand_written_and_bundled_file() -> None:
    written: list[Paper] = [p for p in PAPERS if p.summaries]
    assert len(written) >= 75  # the hand-written 2024 and 2025 awards, at least
