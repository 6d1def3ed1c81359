"""Localized text: response strings and command translations for en-US, zh-TW and zh-CN.

The words live in `locales/<language>/*.toml`, not in code, so a translator edits text, not
Python. `Strings` is built once by the composition root and handed to whoever renders; nothing
is loaded at import.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import discord
from discord import app_commands

from bot.domain.models import LANGUAGES, Language
from bot.render.mentions import CommandMentions

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
    # Commands named in a message (`{cmd:digest post-now}`) become Discord mentions once the
    # command sync has told the bot their ids (bot/render/mentions.py).
    mentions: CommandMentions = field(default_factory=CommandMentions, compare=False)

    @classmethod
    def load(cls) -> Strings:
        messages: dict[Language, dict[str, str]] = {}
        commands: dict[Language, dict[str, str]] = {}
        folder = resources.files("bot.render") / "locales"
        for language in LANGUAGES:
            messages[language], commands[language] = {}, {}
            # One file per feature (core.toml, paper.toml, …), so features don't share a file.
            files = sorted(
                (f for f in (folder / language).iterdir() if f.name.endswith(".toml")),
                key=lambda f: f.name,
            )
            for file in files:
                data: dict[str, Any] = tomllib.loads(file.read_text(encoding="utf-8"))
                _merge_new(messages[language], data.get("messages", {}), f"{language}/{file.name}")
                _merge_new(commands[language], data.get("commands", {}), f"{language}/{file.name}")
        return cls(messages, commands)

    def text(self, key: str, language: Language, /, **params: object) -> str:
        """The message `key` in `language` (English where it is missing), filled in."""
        template = self.messages[language].get(key) or self.messages["en"][key]
        return template.format(cmd=self.mentions, **params)

    def optional(self, key: str, language: Language, /) -> str | None:
        """The message `key` in `language` where that language has one (no English fallback,
        no parameters): names the locale files may or may not know."""
        return self.messages[language].get(key)

    def command_text(self, english: str, language: Language) -> str | None:
        """A command's name or description in `language`, or None to keep the English."""
        if language == "en":
            return None
        return self.commands[language].get(english)


def _merge_new(into: dict[str, str], new: dict[str, str], where: str) -> None:
    clash = sorted(set(into) & set(new))
    if clash:
        raise ValueError(f"{where} repeats keys defined in another file: {', '.join(clash)}")
    into.update(new)


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
