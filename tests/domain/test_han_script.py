"""Telling a source title's Chinese script (issue 25), on titles the bundled catalogue cites,
and the generated table checked against OpenCC (a test dependency)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import opencc
import pytest

from bot.domain.han_script import foreign_to, han_script

TABLE = Path(__file__).resolve().parents[2] / "bot" / "domain" / "han_scripts.toml"


@pytest.mark.parametrize(
    ("title", "script"),
    [
        ('"2025 AI 頂會導讀：機器學習篇" (2026-08-24)', "traditional"),
        ("量子位, 賈揚清共一論文獲ICML時間檢驗獎 (sina.com.hk repost, 2024-07-24)", "traditional"),
        ("機器之心, ICML2025杰出論文出爐 (2025-07-16)", "traditional"),  # 杰: both scripts
        ("新智元, NeurIPS 2024最佳论文开奖 (repost)", "simplified"),
        ("AI科技评论 (蒋宝尚), AAAI 2020正式开幕 (2020-02)", "simplified"),
        ("机器之心 (2024-05-10), repost in imjeson/byteai", "simplified"),
        ("台北 2024 年會議", "traditional"),
        ("台北", "chinese"),  # 台 and 北 are written in both: the script cannot be told
        ("ICML 2024 Fact Sheet", None),
        ("機械学習の最前線", None),  # kana: Japanese, not Chinese
    ],
)
def test_a_titles_script(title: str, script: str | None) -> None:
    assert han_script(title) == script


def test_who_is_told_a_titles_script() -> None:
    traditional, simplified = "2025 AI 頂會導讀：機器學習篇", "NeurIPS 2024最佳论文开奖"
    assert foreign_to(traditional, "en")
    assert foreign_to(simplified, "en")
    assert foreign_to(traditional, "zh-CN")
    assert not foreign_to(simplified, "zh-CN")
    assert foreign_to(simplified, "zh-TW")
    assert not foreign_to(traditional, "zh-TW")
    assert not any(foreign_to("ICML 2024 Fact Sheet", lang) for lang in ("en", "zh-TW", "zh-CN"))
    assert not any(foreign_to("台北", lang) for lang in ("zh-TW", "zh-CN"))


def test_the_table_agrees_with_opencc() -> None:
    """Every character in the table is one OpenCC converts (the generator's rule); the whole
    table is regenerated with `python -m tools.han_scripts --check` (minutes)."""
    table = tomllib.loads(TABLE.read_text("utf-8"))
    simplified, traditional = "".join(table["simplified_only"]), "".join(table["traditional_only"])
    t2s, s2t = opencc.OpenCC("t2s"), opencc.OpenCC("s2t")
    assert not set(simplified) & set(traditional)
    assert [c for c in simplified if s2t.convert(c) == c] == []
    assert [c for c in traditional if t2s.convert(c) == c] == []
    assert {"这", "个", "论", "开"} <= set(simplified)
    assert {"頂", "會", "論", "讀"} <= set(traditional)
    assert not {"台", "后", "里", "杰", "乾", "著"} & (set(simplified) | set(traditional))
