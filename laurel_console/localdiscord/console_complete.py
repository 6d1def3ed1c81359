"""Tab completion: command, subcommand and option names from the commands the bot registered;
option values from their choices, or from the bot itself for an option with autocomplete.

`complete` is pure (a line in, candidates out); `install_readline` binds it to the readline
module where Python has one. Completion runs in the thread that reads the line, so questions to
the bot are sent to the event loop and waited for there.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from laurel_console.localdiscord.console import LOCALES, SELECTS, Console
from laurel_console.localdiscord.console_parse import (
    BOOLEAN,
    CommandCatalog,
    CommandLineError,
    Invocation,
    Token,
    convert,
    find_named,
    is_group,
    localized,
    quote,
    tokenize,
    walk_options,
)

Ask = Callable[[Invocation, str, str], Sequence[Mapping[str, Any]]]


@dataclass(frozen=True)
class Completion:
    start: int  # where the text the candidates replace begins
    candidates: list[str]
    labels: dict[str, str] = field(default_factory=dict)  # candidate -> what it stands for


def _matching(start: int, typed: str, pairs: Sequence[tuple[str, str]]) -> Completion:
    wanted = typed.casefold()
    kept = [(c, label) for c, label in pairs if c.casefold().startswith(wanted)]
    return Completion(start, [c for c, _ in kept], {c: label for c, label in kept if label})


def complete(
    line: str,
    catalog: CommandCatalog,
    words: Mapping[str, Sequence[str]],
    ask: Ask | None = None,
    locale: str = "en-US",
) -> Completion:
    """Candidates for the word being typed at the end of `line`; `words` are the console's
    commands with the arguments each takes, `ask` asks the bot for autocomplete choices."""
    tokens = tokenize(line, partial=True)
    if not tokens or (line[-1].isspace() and tokens[-1].open_quote is None):
        current, before = Token("", "", len(line)), tokens
    else:
        current, before = tokens[-1], tokens[:-1]
    if not before:
        pairs = [(f"/{c['name']} ", localized(c, "description", locale)) for c in catalog.commands]
        pairs += [(f"{w} ", "") for w in words]
        return _matching(current.start, current.raw, pairs)
    first = before[0].text
    if not first.startswith("/"):
        arguments = words.get(first.casefold(), ()) if len(before) == 1 else ()
        return _matching(current.start, current.raw, [(quote(a) + " ", "") for a in arguments])
    command = catalog.find(first[1:])
    if command is None:
        return Completion(current.start, [])
    try:
        walk = walk_options(command, before[1:])
    except CommandLineError:
        return Completion(current.start, [])
    if is_group(walk.options) and not walk.rest:
        subs = [o for o in walk.options if o["type"] in (1, 2)]
        pairs = [(f"{o['name']} ", localized(o, "description", locale)) for o in subs]
        return _matching(current.start, current.raw, pairs)
    invocation = Invocation(command["name"], tuple(walk.path), _given(walk.options, walk.rest))
    if (pair := current.option) is not None:
        name, typed = pair
        prefix = current.raw[: len(name) + 1]
    elif walk.rest and (last := walk.rest[-1].option) and not walk.rest[-1].has_value:
        name, typed, prefix = last[0], current.text, ""  # `name: value`
    else:
        given = {t.option[0].casefold() for t in walk.rest if t.option}
        pairs = [
            (f"{o['name']}:", localized(o, "description", locale))
            for o in walk.options
            if o["name"].casefold() not in given
        ]
        return _matching(current.start, current.raw, pairs)
    definition = find_named(walk.options, name)
    if definition is None:
        return Completion(current.start, [])
    first = current.raw[len(prefix) : len(prefix) + 1]
    opened = first if first in ('"', "'") else None
    values = _values(definition, typed, invocation, ask)
    candidates = [(prefix + _quoted(v, opened) + " ", label) for v, label in values]
    return Completion(current.start, [c for c, _ in candidates], dict(candidates))


def _given(definitions: Sequence[Mapping[str, Any]], tokens: Sequence[Token]) -> dict[str, object]:
    """The options typed so far, typed where they can be (as Discord sends them with an
    autocomplete interaction); those that cannot be yet are left out."""
    given: dict[str, object] = {}
    for token in tokens:
        pair = token.option
        definition = find_named(definitions, pair[0]) if pair else None
        if pair is None or definition is None or not pair[1]:
            continue
        try:
            given[definition["name"]] = convert(definition, pair[1])
        except CommandLineError:
            continue
    return given


def _values(
    definition: Mapping[str, Any], typed: str, invocation: Invocation, ask: Ask | None
) -> list[tuple[str, str]]:
    """(value, what it stands for) for an option's value; the bot's answer is kept as it is
    (it may match loosely), fixed choices are matched by their start."""
    wanted = typed.casefold()
    if definition.get("choices"):
        return [
            (str(c["value"]), str(c["name"]))
            for c in definition["choices"]
            if str(c["value"]).casefold().startswith(wanted)
            or str(c["name"]).casefold().startswith(wanted)
        ]
    if definition.get("autocomplete") and ask is not None:
        options = {k: v for k, v in invocation.options.items() if k != definition["name"]}
        focused = Invocation(invocation.name, invocation.path, options)
        try:
            choices = ask(focused, definition["name"], typed)
        except Exception:  # a completion never fails loudly: the bot may be slow or down
            return []
        return [(str(c["value"]), str(c["name"])) for c in choices]
    if definition["type"] == BOOLEAN:
        return [(v, "") for v in ("true", "false") if v.startswith(wanted)]
    return []


def _quoted(value: str, opened: str | None) -> str:
    if opened in ('"', "'"):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"') if opened == '"' else value
        return f"{opened}{escaped}{opened}"
    return quote(value)


# -- the console's words and the bot's suggestions -------------------------------------------
def console_words(console: Console) -> dict[str, list[str]]:
    labels = [
        str(c.get("label") or c.get("custom_id"))
        for _, c in console.components((2,))
        if c.get("style") != 5 and (c.get("label") or c.get("custom_id"))
    ]
    menus = [
        str(c.get("placeholder") or c.get("custom_id")) for _, c in console.components(SELECTS)
    ]
    return {
        "help": [f"/{name}" for name in console.catalog.names],
        "locale": list(LOCALES),
        "json": ["on", "off"],
        "user": console.members(),
        "press": list(dict.fromkeys(labels)),
        "choose": list(dict.fromkeys(menus)),
        "quit": [],
    }


def console_completer(
    console: Console, loop: asyncio.AbstractEventLoop
) -> Callable[[str], Completion]:
    """Completion for `console`, called from the reading thread while `loop` runs the bot."""

    def ask(invocation: Invocation, focused: str, typed: str) -> Sequence[Mapping[str, Any]]:
        asking = console.autocomplete(invocation, focused, typed)
        return asyncio.run_coroutine_threadsafe(asking, loop).result(timeout=5)

    def completer(line: str) -> Completion:
        catalog = console.catalog
        return complete(line, catalog, console_words(console), ask, console.locale)

    return completer


def install_readline(completer: Callable[[str], Completion], prompt: str) -> bool:
    """Bind Tab to `completer`; False where Python was built without readline."""
    try:
        import readline
    except ImportError:
        return False
    shown: dict[str, str] = {}

    def complete_word(text: str, state: int) -> str | None:
        if state == 0:
            buffer = readline.get_line_buffer()
            begin, end = readline.get_begidx(), readline.get_endidx()
            try:
                found = completer(buffer[:end])
            except Exception:  # Tab must never break the line being typed
                found = Completion(end, [])
            typed = buffer[found.start : begin] if found.start <= begin else None
            shown.clear()
            for candidate in found.candidates:
                if typed is not None and candidate.startswith(typed):
                    shown[candidate[len(typed) :]] = found.labels.get(candidate, "")
        matches = list(shown)
        return matches[state] if state < len(matches) else None

    def list_matches(substitution: str, matches: Sequence[str], longest: int) -> None:
        width = max((len(m) for m in matches), default=0)
        sys.stdout.write("\n")
        for match in matches:
            label = shown.get(match, "")
            sys.stdout.write(f"  {match.ljust(width)}  {label}".rstrip() + "\n")
        sys.stdout.write(prompt + readline.get_line_buffer())
        sys.stdout.flush()

    readline.set_completer_delims(" \t\n")
    readline.set_completer(complete_word)
    readline.set_completion_display_matches_hook(list_matches)
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    return True
