"""The figures a summary states, as values, so that the three languages can be compared.

"1.4 billion", "1.4B" and "14 億" are one figure; so are "26,000", "2.6 萬" and "2.6 万", and
"September 2025" and "2025 年 9 月". Figures written out in words ("nine tasks", "九項") are
not figures here: the writers keep every figure in digits in all three languages.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from decimal import Decimal

from bot.domain.models import Language

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_EN_SCALES = {
    "thousand": 3, "million": 6, "billion": 9, "trillion": 12, "k": 3, "m": 6, "b": 9, "t": 12,
}  # fmt: skip
_ZH_SCALES = {"千": 3, "萬": 4, "万": 4, "億": 8, "亿": 8, "萬億": 12, "万亿": 12, "兆": 12}
_ZH_DIGITS = {"一": 1, "二": 2, "兩": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
              "八": 8, "九": 9, "十": 10}  # fmt: skip
# "7B" (a model's size) reads the same in every language.
_UNIT = r"(?P<unit>[KMBT])(?![A-Za-z])"
_EN = re.compile(rf"(?P<n>{_NUMBER})(?:{_UNIT}|\s+(?P<word>thousand|million|billion|trillion)\b)?")
_ZH = re.compile(
    rf"(?:(?P<n>{_NUMBER})(?:{_UNIT})?|(?P<zh>[一二兩两三四五六七八九十]))\s*"
    r"(?P<scale>萬億|万亿|兆|億|亿|萬|万|千)?"
)
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")  # fmt: skip
# A month is a figure where a date names it ("September 2025", "May 3, 2024"), not "may".
_MONTH = re.compile(
    rf"\b({'|'.join(m.capitalize() for m in _MONTHS)})(?=\s+(?:\d{{1,2}},\s+)?\d{{4}}\b)"
)


def figures(text: str, language: str) -> set[Decimal]:
    """The figures in `text` (a summary in `language`: "en", "zh-TW" or "zh-CN")."""
    text = unicodedata.normalize("NFKC", text)
    found: set[Decimal] = set()
    if language == "en":
        for match in _EN.finditer(text):
            scale = _EN_SCALES.get((match["unit"] or match["word"] or "").lower(), 0)
            found.add(_value(match["n"], scale))
        found |= {Decimal(_MONTHS.index(m.lower()) + 1) for m in _MONTH.findall(text)}
        return found
    for match in _ZH.finditer(text):
        scale = _ZH_SCALES.get(match["scale"] or "", 0) + _EN_SCALES.get(
            (match["unit"] or "").lower(), 0
        )
        if match["n"] is not None:
            found.add(_value(match["n"], scale))
        elif scale:  # "一萬": a figure only with its magnitude; "三種" is a word
            found.add(_value(str(_ZH_DIGITS[match["zh"]]), scale))
    return found


def _value(number: str, scale: int) -> Decimal:
    return (Decimal(number.replace(",", "")) * Decimal(10) ** scale).normalize()


def mismatched(summaries: Mapping[Language, str] | Mapping[str, str]) -> dict[str, list[str]]:
    """For each language, the figures another language states and this one lacks."""
    values = {language: figures(text, language) for language, text in summaries.items()}
    every = set().union(*values.values()) if values else set()
    return {
        language: sorted(f"{v:f}" for v in every - mine)
        for language, mine in values.items()
        if every - mine
    }
