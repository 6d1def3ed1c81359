from __future__ import annotations

import string

import discord
import pytest

from bot.domain.models import LANGUAGES
from bot.render.i18n import Strings, language_of

STRINGS = Strings.load()


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


@pytest.mark.parametrize("language", ["zh-TW", "zh-CN"])
def test_every_message_is_translated_with_the_same_placeholders(language: str) -> None:
    english = STRINGS.messages["en"]
    other = STRINGS.messages[language]  # type: ignore[index]
    assert set(other) == set(english)
    for key, template in english.items():
        assert _placeholders(other[key]) == _placeholders(template), key


@pytest.mark.parametrize("language", ["zh-TW", "zh-CN"])
def test_simplified_and_traditional_are_not_the_same_text(language: str) -> None:
    assert STRINGS.messages["zh-TW"] != STRINGS.messages["zh-CN"]
    assert STRINGS.commands["zh-TW"] != STRINGS.commands["zh-CN"]
    assert set(STRINGS.commands["zh-TW"]) == set(STRINGS.commands["zh-CN"])
    assert language in LANGUAGES


@pytest.mark.parametrize(
    ("locale", "language"),
    [
        (discord.Locale.taiwan_chinese, "zh-TW"),
        (discord.Locale.chinese, "zh-CN"),
        (discord.Locale.american_english, "en"),
        (discord.Locale.japanese, "en"),
        ("zh-TW", "zh-TW"),
        (None, "en"),
    ],
)
def test_language_of_locale(locale: discord.Locale | str | None, language: str) -> None:
    assert language_of(locale) == language


def test_missing_translation_falls_back_to_english() -> None:
    partial = Strings(
        messages={"en": {"k": "hello {name}"}, "zh-TW": {}, "zh-CN": {"k": "你好 {name}"}},
        commands={"en": {}, "zh-TW": {}, "zh-CN": {}},
    )
    assert partial.text("k", "zh-TW", name="Ada") == "hello Ada"
    assert partial.text("k", "zh-CN", name="Ada") == "你好 Ada"
