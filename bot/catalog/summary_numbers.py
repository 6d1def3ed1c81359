"""The figures a summary states, as values, so that the three languages can be compared.

"1.4 billion", "1.4B" and "14 億" are one figure; so are "26,000", "2.6 萬" and "2.6 万",
"September 2025" and "2025 年 9 月", "the 1980s" and "20 世纪 80 年代". Small numbers written out
("nine tasks", "九項") are words, not figures, and approximations ("hundreds of thousands",
"數十萬") are not figures either: writers keep every figure in digits in all three languages.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from decimal import Decimal

from bot.domain.models import Language

_NUMBER = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
_SCALES = {
    "thousand": 3, "million": 6, "billion": 9, "trillion": 12, "k": 3, "m": 6, "b": 9, "t": 12,
    "千": 3, "萬": 4, "万": 4, "億": 8, "亿": 8, "萬億": 12, "万亿": 12, "兆": 12,
}  # fmt: skip
_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
          "eight": 8, "nine": 9, "ten": 10, "a": 1}  # fmt: skip
_ZH_DIGITS = {"一": 1, "二": 2, "兩": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
              "八": 8, "九": 9}  # fmt: skip
_ZH_TENS = {"十": 1, "百": 2, "千": 3}
# A magnitude, alone or compound: 萬, 百萬 (10^6), 千億 (10^11), 萬億 (10^12).
_ZH_SCALE = r"(?:[十百千]?(?:萬億|万亿|億|亿|萬|万)|兆|千)"
# "7B" (a model's size) and "100k" read the same in every language; English scale words too.
_SUFFIX = r"(?:(?P<unit>[KkMmBT])(?![A-Za-z])|\s*(?P<word>thousand|million|billion|trillion)\b)"
_EN = re.compile(
    rf"(?:(?P<n>{_NUMBER})|\b(?P<spelt>{'|'.join(_WORDS)})(?=\s+(?:thousand|million|billion|trillion)\b))"
    rf"{_SUFFIX}?",
    re.IGNORECASE,
)
_ZH = re.compile(
    rf"(?:(?P<n>{_NUMBER}){_SUFFIX}?|(?<![數数幾几])(?P<zh>[一二兩两三四五六七八九十][一二兩两三四五六七八九十百千]*))\s*"
    rf"(?:[多餘余]\s*)?(?P<scale>{_ZH_SCALE})?"
)
# "5 to 500 billion": the scale is the first figure's too.
_RANGE = re.compile(
    rf"(?P<first>{_NUMBER})(?=\s*(?:to|and|or|–|-)\s*(?:{_NUMBER})\s*"
    r"(?P<word>thousand|million|billion|trillion)\b)"
)
_CENTURY = re.compile(r"(?P<c>\d{2})\s*世[紀纪]\s*(?P<d>\d)0\s*年代")
_DECADE = re.compile(r"\b(?P<y>\d{3}0)s\b")
_MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
           "september", "october", "november", "december")  # fmt: skip
# A month is a figure where a date names it ("September 2025", "May 3, 2024"), not "may".
_MONTH = re.compile(
    rf"\b({'|'.join(m.capitalize() for m in _MONTHS)})(?=\s+(?:\d{{1,2}},\s+)?\d{{4}}\b)"
)


def figures(text: str, language: str) -> set[Decimal]:
    """The figures in `text` (a summary in `language`: "en", "zh-TW" or "zh-CN")."""
    text = unicodedata.normalize("NFKC", text)
    # "20 世纪 80 年代" is the 1980s; "the 1980s" is 1980.
    text = _CENTURY.sub(lambda m: f"{int(m['c']) - 1}{m['d']}0", text)
    text = _DECADE.sub(lambda m: m["y"], text)
    ranges = list(_RANGE.finditer(text))
    found = {_value(m["first"], _scale(m["word"])) for m in ranges}
    scaled = {m.start() for m in ranges}  # "5" of "5 to 500 billion" is 5 billion, not 5
    if language == "en":
        for match in _EN.finditer(text):
            if match.start() in scaled:
                continue
            number = match["n"] or str(_WORDS[match["spelt"].lower()])
            found.add(_value(number, _scale(match["unit"], match["word"])))
        found |= {Decimal(_MONTHS.index(m.lower()) + 1) for m in _MONTH.findall(text)}
        return found
    for match in _ZH.finditer(text):
        if match.start() in scaled:
            continue
        scale = _scale(match["unit"], match["word"]) + _scale(match["scale"])
        if match["n"] is not None:
            found.add(_value(match["n"], scale))
        elif match["scale"]:  # "十億" is a figure with its magnitude; "三種" is a word
            found.add(_value(str(_zh_number(match["zh"])), scale))
    return found


def _scale(*names: str | None) -> int:
    total = 0
    for name in names:
        name = (name or "").lower()
        if name[:1] in _ZH_TENS and len(name) > 1:  # 百萬: 10^2 times 萬
            total += _ZH_TENS[name[0]]
            name = name[1:]
        total += _SCALES.get(name, 0)
    return total


def _zh_number(numerals: str) -> int:
    """一百 = 100, 三十五 = 35, 十 = 10: a number in Chinese numerals below 10,000."""
    total, digit = 0, 0
    for numeral in numerals:
        if numeral in _ZH_TENS:
            total += max(digit, 1) * 10 ** _ZH_TENS[numeral]
            digit = 0
        else:
            digit = _ZH_DIGITS[numeral]
    return total + digit


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
