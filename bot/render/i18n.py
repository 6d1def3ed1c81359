"""Localized text: response strings and command translations for en-US, zh-TW and zh-CN.

The words live in `locales/*.toml`, not in code, so a translator edits one file. `Strings` is
built once by the composition root and handed to whoever renders; nothing is loaded at import.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any

import discord
from discord import app_commands

from bot.domain.models import LANGUAGES, Language

_BY_LOCALE: dict[str, Language] = {
    "zh-TW": "zh-TW",
    "zh-CN": "zh-CN",
}


def language_of(locale: discord.Locale | str | None) -> Language:
    """The catalogue language for a Discord locale: Chinese by script, English otherwise."""
    value = locale.value if isinstance(locale, discord.Locale) else (locale or "")
    return _BY_LOCALE.get(value, "en")


@dataclass(frozen=True, slots=True)
class Strings:
    messages: dict[Language, dict[str, str]]
    commands: dict[Language, dict[str, str]]

    @classmethod
    def load(cls) -> Strings:
        messages: dict[Language, dict[str, str]] = {}
        commands: dict[Language, dict[str, str]] = {}
        folder = resources.files("bot.render") / "locales"
        for language in LANGUAGES:
            data: dict[str, Any] = tomllib.loads(
                (folder / f"{language}.toml").read_text(encoding="utf-8")
            )
            messages[language] = dict(data.get("messages", {}))
            commands[language] = dict(data.get("commands", {}))
        return cls(messages, commands)

    def text(self, key: str, language: Language, /, **params: object) -> str:
        """The message `key` in `language` (English where it is missing), filled in."""
        template = self.messages[language].get(key) or self.messages["en"][key]
        return template.format(**params)

    def command_text(self, english: str, language: Language) -> str | None:
        """A command's name or description in `language`, or None to keep the English."""
        if language == "en":
            return None
        return self.commands[language].get(english)


class LaurelTranslator(app_commands.Translator):
    """Translates command and option names and descriptions for Discord's locales."""

    def __init__(self, strings: Strings) -> None:
        self._strings = strings

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale not in (discord.Locale.taiwan_chinese, discord.Locale.chinese):
            return None
        return self._strings.command_text(string.message, language_of(locale))
