"""The console's command-line grammar: slash commands typed as in Discord, checked against the
commands the bot registered with the stand-in.

    /stats venue:NeurIPS year:2025
    /paper search query:masked diffusion year:2025   a value runs to the next option's name:
    /paper search query:"masked diffusion"           or is quoted, and ends with the quote
    /awards history venue:icml                       subcommand (and group) names are plain words
    /link url:https://example.org/a:b                the value is everything after the first colon

A bare value runs, spaces and all, up to the next `name:` that names an option of the command
(as in Discord's own box; a word like `models:` that names none is part of the value). A value
that opens with a quote, "…" (where \\" and \\\\ are escapes) or '…', ends with it. `name:`
standing alone takes what follows as its value, as Discord's client shows a picked option.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.errors import LaurelError

CHAT_INPUT = 1
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
TYPE_NAMES = {
    STRING: "text",
    INTEGER: "whole number",
    BOOLEAN: "true|false",
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "user or role",
    NUMBER: "number",
    ATTACHMENT: "file path",
}
_TRUE, _FALSE = {"true", "yes", "on", "1"}, {"false", "no", "off", "0"}
_OPTION = re.compile(r"([^\s:\"']+):")


class CommandLineError(LaurelError):
    """A line the console cannot run: its message is one line, fit to show as it is."""


# -- tokens ------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Token:
    text: str  # quotes removed, escapes applied
    raw: str  # as typed
    start: int  # offset in the line
    open_quote: str | None = None  # set only by partial tokenizing: a quote not yet closed

    @property
    def option(self) -> tuple[str, str] | None:
        """(name, value) when the token is written name:value."""
        match = _OPTION.match(self.raw)
        if match is None:
            return None
        name = match.group(1)
        return name, self.text[len(name) + 1 :]

    @property
    def has_value(self) -> bool:
        """Whether anything, even empty quotes, follows the colon of name:value."""
        match = _OPTION.match(self.raw)
        return match is not None and len(self.raw) > match.end()


def tokenize(line: str, *, partial: bool = False) -> list[Token]:
    """Split `line` at whitespace, honouring quotes that open a token or a value.

    With `partial` (for completion), an unclosed quote ends the last token instead of failing.
    """
    tokens: list[Token] = []
    i, n = 0, len(line)
    while i < n:
        if line[i].isspace():
            i += 1
            continue
        start = i
        text: list[str] = []
        open_quote: str | None = None
        while i < n and not line[i].isspace():
            char = line[i]
            opens = char in "\"'" and (i == start or _OPTION.fullmatch(line[start:i]) is not None)
            if opens:
                i, quoted, closed = _quoted(line, i)
                text.append(quoted)
                if not closed:
                    if not partial:
                        raise CommandLineError(
                            f"unbalanced {char}: a value that opens with {char} must close "
                            f"with {char}"
                        )
                    open_quote = char
                continue
            text.append(char)
            i += 1
        tokens.append(Token("".join(text), line[start:i], start, open_quote))
    return tokens


def _quoted(line: str, i: int) -> tuple[int, str, bool]:
    """From the quote at `i`: (index after the closing quote, the text inside, closed?)."""
    quote, i = line[i], i + 1
    text: list[str] = []
    while i < len(line):
        char = line[i]
        if char == quote:
            return i + 1, "".join(text), True
        if quote == '"' and char == "\\" and i + 1 < len(line) and line[i + 1] in '"\\':
            char, i = line[i + 1], i + 1
        text.append(char)
        i += 1
    return i, "".join(text), False


def quote(value: str) -> str:
    """`value` as it must be typed: bare when it can be, else in double quotes."""
    if value and not any(c.isspace() or c in "\"'" for c in value):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


# -- the registered commands -------------------------------------------------------------------
def _names(definition: Mapping[str, Any]) -> list[str]:
    """The name of a command or option and its localizations, casefolded."""
    localized = definition.get("name_localizations") or {}
    return [definition["name"].casefold(), *(n.casefold() for n in localized.values())]


def localized(definition: Mapping[str, Any], key: str, locale: str) -> str:
    """`key` ("name" or "description") in `locale` where the bot translated it."""
    translations = definition.get(f"{key}_localizations") or {}
    return str(translations.get(locale) or definition.get(key) or "")


def is_group(options: Sequence[Mapping[str, Any]]) -> bool:
    return any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in options)


def find_named(definitions: Iterable[Mapping[str, Any]], name: str) -> Mapping[str, Any] | None:
    wanted = name.casefold()
    return next((d for d in definitions if wanted in _names(d)), None)


@dataclass(frozen=True)
class CommandCatalog:
    """The chat-input commands a member of the guild sees: guild commands shadow global ones."""

    commands: tuple[Mapping[str, Any], ...]

    @classmethod
    def of(cls, *scopes: Sequence[Mapping[str, Any]]) -> CommandCatalog:
        """From the registry's lists, most specific scope (the guild's) first."""
        seen: set[str] = set()
        kept = []
        for scope in scopes:
            for command in scope:
                if command.get("type", CHAT_INPUT) == CHAT_INPUT and command["name"] not in seen:
                    seen.add(command["name"])
                    kept.append(command)
        return cls(tuple(sorted(kept, key=lambda c: str(c["name"]))))

    @property
    def names(self) -> list[str]:
        return [str(c["name"]) for c in self.commands]

    def find(self, name: str) -> Mapping[str, Any] | None:
        return find_named(self.commands, name)

    def unknown(self, name: str) -> CommandLineError:
        listed = ", ".join(f"/{n}" for n in self.names) or "none yet"
        return CommandLineError(f"unknown command /{name}; the bot registered: {listed}")


# -- invocations -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Invocation:
    name: str
    path: tuple[str, ...] = ()
    options: dict[str, object] = field(default_factory=dict)

    @property
    def display(self) -> str:
        return "/" + " ".join([self.name, *self.path])


@dataclass
class Walk:
    """Where the tokens after the command name lead: the subcommand path and the leaf."""

    command: Mapping[str, Any]
    path: list[str]
    options: Sequence[Mapping[str, Any]]
    rest: list[Token]  # the tokens after the path


def walk_options(command: Mapping[str, Any], tokens: list[Token]) -> Walk:
    level: Sequence[Mapping[str, Any]] = command.get("options") or []
    path: list[str] = []
    rest = list(tokens)
    while rest and is_group(level) and rest[0].option is None:
        found = find_named((o for o in level if o["type"] in (1, 2)), rest[0].text)
        if found is None:
            where = " ".join(["/" + command["name"], *path])
            subs = ", ".join(o["name"] for o in level if o["type"] in (1, 2))
            raise CommandLineError(f"{where} has no subcommand {rest[0].text!r}; it has: {subs}")
        path.append(found["name"])
        level = found.get("options") or []
        rest.pop(0)
    return Walk(command, path, level, rest)


def parse_slash(line: str, catalog: CommandCatalog) -> Invocation:
    """`/name [subcommand…] [option:value…]`, checked and typed against the registered command."""
    tokens = tokenize(line)
    if not tokens or not tokens[0].text.startswith("/"):
        raise CommandLineError("a slash command starts with /, e.g. /about")
    name = tokens[0].text[1:]
    if not name:
        raise CommandLineError("type the command's name right after the /, e.g. /about")
    command = catalog.find(name)
    if command is None:
        raise catalog.unknown(name)
    walk = walk_options(command, tokens[1:])
    where = " ".join(["/" + command["name"], *walk.path])
    if is_group(walk.options):
        subs = ", ".join(o["name"] for o in walk.options if o["type"] in (1, 2))
        raise CommandLineError(f"{where} needs a subcommand: {subs}")
    given = _options(where, walk.options, walk.rest, line)
    for definition in walk.options:
        if definition.get("required") and definition["name"] not in given:
            raise CommandLineError(f"{where} needs {definition['name']}: ({_hint(definition)})")
    return Invocation(command["name"], tuple(walk.path), given)


def _options(
    where: str, definitions: Sequence[Mapping[str, Any]], tokens: list[Token], line: str
) -> dict[str, object]:
    given: dict[str, object] = {}
    i = 0
    while i < len(tokens):
        token = tokens[i]
        pair = token.option
        if pair is None:
            raise CommandLineError(
                f"unexpected {token.raw!r}: options are written name:value, e.g. "
                "query:masked diffusion year:2025"
            )
        name, value = pair
        definition = find_named(definitions, name)
        if definition is None:
            names = ", ".join(f"{d['name']}:" for d in definitions)
            raise CommandLineError(
                f"{where} has no option {name}:"
                + (f"; its options are {names}" if names else "; it takes no options")
            )
        start = token.start + len(name) + 1  # where the value begins in the line
        if not token.has_value:  # `name: value`, as Discord's client shows a picked option
            following = tokens[i + 1] if i + 1 < len(tokens) else None
            if following is None or _names_option(following, definitions):
                raise CommandLineError(f"{definition['name']}: needs a value ({_hint(definition)})")
            value, i, start = following.text, i + 1, following.start
        if line[start : start + 1] not in ('"', "'"):  # a bare value runs to the next option
            last = i
            while last + 1 < len(tokens) and not _names_option(tokens[last + 1], definitions):
                last += 1
            if last > i:
                end = tokens[last].start + len(tokens[last].raw)
                value, i = line[start:end], last
        if definition["name"] in given:
            raise CommandLineError(f"{definition['name']}: is given twice")
        given[definition["name"]] = convert(definition, value)
        i += 1
    return given


def _names_option(token: Token, definitions: Sequence[Mapping[str, Any]]) -> bool:
    pair = token.option
    return pair is not None and find_named(definitions, pair[0]) is not None


def convert(definition: Mapping[str, Any], value: str) -> object:
    """The typed value for an option, as Discord's client would send it; users, channels and
    roles stay names for the stand-in to resolve."""
    name, kind = definition["name"], definition["type"]
    choices = definition.get("choices")
    if choices:
        wanted = value.casefold()
        for choice in choices:
            if wanted == str(choice["value"]).casefold() or wanted in _names(choice):
                return choice["value"]
        offered = ", ".join(str(c["value"]) for c in choices)
        raise CommandLineError(f"{name}: takes one of {offered}, not {value!r}")
    if kind == INTEGER:
        try:
            return int(value)
        except ValueError:
            raise CommandLineError(f"{name}: takes a whole number, not {value!r}") from None
    if kind == NUMBER:
        try:
            return float(value)
        except ValueError:
            raise CommandLineError(f"{name}: takes a number, not {value!r}") from None
    if kind == BOOLEAN:
        if value.casefold() in _TRUE | _FALSE:
            return value.casefold() in _TRUE
        raise CommandLineError(f"{name}: takes true or false, not {value!r}")
    if kind == ATTACHMENT:
        path = Path(value).expanduser()
        try:
            return path.name, path.read_bytes()
        except OSError as exc:
            raise CommandLineError(f"{name}: cannot read {value}: {exc.strerror}") from None
    return value


def _hint(definition: Mapping[str, Any]) -> str:
    choices = definition.get("choices")
    if choices:
        return "one of " + ", ".join(str(c["value"]) for c in choices)
    return TYPE_NAMES.get(definition["type"], "a value")


# -- usage -------------------------------------------------------------------------------------
def usage(command: Mapping[str, Any], locale: str = "en-US") -> list[tuple[str, str]]:
    """(usage line, description) for every leaf of `command`: `/paper search query:<text>`."""
    lines: list[tuple[str, str]] = []

    def visit(prefix: str, definition: Mapping[str, Any]) -> None:
        options: Sequence[Mapping[str, Any]] = definition.get("options") or []
        if is_group(options):
            for sub in options:
                visit(f"{prefix} {sub['name']}", sub)
            return
        parts = [prefix]
        for option in options:
            written = f"{option['name']}:<{_hint(option)}>"
            parts.append(written if option.get("required") else f"[{written}]")
        lines.append((" ".join(parts), localized(definition, "description", locale)))

    visit("/" + command["name"], command)
    return lines
