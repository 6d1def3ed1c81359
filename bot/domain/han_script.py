"""Which Chinese script a text is written in, for telling a reader that a source's title is
in a script not theirs (issue 25). A title is a name and is never converted; the reader is only
told what it is.

The characters each script alone uses are in `han_scripts.toml`, generated from OpenCC by
`python -m tools.han_scripts` (OpenCC is a test dependency; the table keeps it out of the
runtime). Characters both scripts write (台, 后, 里, 乾 …) say nothing either way.
"""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from typing import Literal

from bot.domain.models import Language

Script = Literal["simplified", "traditional", "chinese"]
_HAN = ((0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0x20000, 0x3134F))
# Kana and Hangul: a title holding them is Japanese or Korean, not Chinese.
_OTHER_CJK = ((0x3040, 0x30FF), (0x31F0, 0x31FF), (0xAC00, 0xD7AF), (0x1100, 0x11FF))


@cache
def _tables() -> tuple[frozenset[str], frozenset[str]]:
    text = resources.files("bot.domain").joinpath("han_scripts.toml").read_text("utf-8")
    data = tomllib.loads(text)
    return frozenset("".join(data["simplified_only"])), frozenset("".join(data["traditional_only"]))


def _within(char: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= ord(char) <= high for low, high in ranges)


def han_script(text: str) -> Script | None:
    """None when `text` is not Chinese (no Han character, or kana or Hangul beside them);
    "simplified" or "traditional" when it holds characters only that script uses and none only
    the other uses; otherwise "chinese" (the script cannot be told, or both are mixed)."""
    if not any(_within(c, _HAN) for c in text) or any(_within(c, _OTHER_CJK) for c in text):
        return None
    simplified_only, traditional_only = _tables()
    simplified = any(c in simplified_only for c in text)
    traditional = any(c in traditional_only for c in text)
    if simplified and not traditional:
        return "simplified"
    if traditional and not simplified:
        return "traditional"
    return "chinese"


def foreign_to(text: str, language: Language) -> bool:
    """Whether a reader of `language` should be told `text` is in another script: any Chinese
    for an English reader; traditional for a zh-CN reader; simplified for a zh-TW reader.
    Latin-script text is never foreign to a Chinese reader."""
    script = han_script(text)
    if language == "en":
        return script is not None
    if language == "zh-CN":
        return script == "traditional"
    return script == "simplified"
