"""The console's conversation: lines in, drawn answers out.

Input and output are parameters — `read` works like `input()` (a prompt in, a line out, EOFError
at the end) and the display writes to any text stream — so a test feeds lines through a function
and reads what was written, with no terminal involved.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from laurel_console.localdiscord.console import (
    TRANSLATED,
    Answer,
    AttachmentSaver,
    Console,
    canonical_locale,
)
from laurel_console.localdiscord.console_parse import TYPE_NAMES, CommandLineError, localized, usage
from laurel_console.localdiscord.console_render import (
    ModalField,
    Style,
    modal_fields,
    render_message,
    render_modal,
)
from laurel_console.localdiscord.console_text import text_width

log = logging.getLogger(__name__)

PROMPT = "laurel> "
Reader = Callable[[str], str]
CONSOLE_COMMANDS = {
    "press <label>": "press a button (its label, or custom_id)",
    "choose <menu> <value>[,<value>…]": "pick in a select menu (placeholder or id)",
    "locale [en-US|zh-TW|zh-CN]": "the Discord language you interact in",
    "user [name]": "the member you play: grace, or ada (owner)",
    "json [on|off]": "show the JSON the bot sent, not a drawing",
    "help [/command]": "this list, or one command's options",
    "quit": "leave (Ctrl-D does too)",
}


@dataclass
class Display:
    out: TextIO
    err: TextIO
    width: int = 80
    colour: bool = False
    json: bool = False
    saver: AttachmentSaver | None = None

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def note(self, text: str) -> None:
        """A remark about the session; on stderr in JSON mode, where stdout is only JSON."""
        if self.json:
            self.err.write(text + "\n")
            self.err.flush()
        else:
            self.say(Style(self.colour).dim(text))

    def error(self, text: str) -> None:
        self.say(f"error: {text}")

    def warn(self, text: str) -> None:
        self.err.write(f"stand-in: {text}\n")
        self.err.flush()

    def answer(self, answer: Answer) -> None:
        saved = [self.saver.save(m) if self.saver else {} for m in answer.messages]
        if self.json:
            for payload in answer.messages or [answer.callback]:
                self.say(json.dumps(payload, indent=2, ensure_ascii=False))
            for path in (p for files in saved for p in files.values()):
                self.err.write(f"attachment saved to {path}\n")
        else:
            blocks = [
                render_message(m, width=self.width, saved=s, colour=self.colour)
                for m, s in zip(answer.messages, saved, strict=True)
            ]
            if answer.modal is not None:
                blocks.append(render_modal(answer.modal, width=self.width, colour=self.colour))
            if blocks:
                self.say("\n\n".join(blocks))
        if answer.note:
            self.note(answer.note)


async def read_in_thread(read: Reader, prompt: str) -> str:
    """`read(prompt)` in a daemon thread, so the bot keeps running while the person types, and
    a read still waiting when the console is interrupted does not keep the process alive (the
    default executor would be joined at exit)."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[str] = loop.create_future()

    def deliver(settle: Callable[[], None]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody is waiting
            loop.call_soon_threadsafe(lambda: None if future.done() else settle())

    def work() -> None:
        try:
            line = read(prompt)
        except Exception as exc:  # EOFError above all; handed to the waiting coroutine
            error = exc
            deliver(lambda: future.set_exception(error))
        else:
            deliver(lambda: future.set_result(line))

    threading.Thread(target=work, name="laurel-console-input", daemon=True).start()
    return await future


class Repl:
    """Runs console lines; `read` is None in one-shot mode, where a modal is only shown."""

    def __init__(self, console: Console, display: Display, read: Reader | None = None) -> None:
        self.console = console
        self.display = display
        self.read = read
        self._commands: Mapping[str, Callable[[str], Awaitable[bool]]] = {
            "help": self._help,
            "locale": self._locale,
            "json": self._json,
            "user": self._user,
            "press": self._press,
            "choose": self._choose,
            "quit": self._quit,
            "exit": self._quit,
        }

    async def run(self) -> int:
        """Read and run lines until quit or the end of input; a mistake costs one line."""
        assert self.read is not None
        while True:
            try:
                line = await read_in_thread(self.read, PROMPT)
            except EOFError:
                self.display.say("")
                return 0
            try:
                if not await self.execute(line):
                    return 0
            except CommandLineError as exc:
                self.display.error(str(exc))
            except Exception as exc:  # a bug in the console: say so, keep the session
                log.info("the console failed on %r", line, exc_info=True)
                self.display.error(f"the console failed: {exc!r} (-v shows the traceback)")

    async def execute(self, line: str) -> bool:
        """Run one line; False when it asks to quit. Mistakes raise CommandLineError."""
        try:
            return await self._execute(line.strip())
        except (LookupError, ValueError, TimeoutError) as exc:  # refused by the stand-in
            raise CommandLineError(str(exc).splitlines()[0] if str(exc) else repr(exc)) from None
        finally:
            for problem in self.console.problems():
                self.display.warn(problem)

    async def _execute(self, line: str) -> bool:
        if not line:
            return True
        if line.startswith("/"):
            await self._show(await self.console.slash(line))
            return True
        word, _, rest = line.partition(" ")
        handler = self._commands.get(word.casefold())
        if handler is None:
            raise CommandLineError(
                f"unknown {word!r}: type a slash command such as /about, or help for the list"
            )
        return await handler(rest.strip())

    async def _show(self, answer: Answer) -> None:
        self.display.answer(answer)
        if answer.modal is None:
            return
        if self.read is None:
            self.display.note("(the bot opened a form; fill it in in the interactive console)")
            return
        self.display.note(
            "Fill in the form; an empty line skips an optional field, Ctrl-D "
            "closes it without sending."
        )
        values: dict[str, str | list[str]] = {}
        for field in modal_fields(answer.modal):
            value = await self._ask(field)
            if value is None:
                self.display.note("The form was closed; nothing was sent.")
                return
            if value:
                values[field.custom_id] = value
        await self._show(await self.console.submit(answer.interaction, values))

    async def _ask(self, field: ModalField) -> str | list[str] | None:
        assert self.read is not None
        while True:
            try:
                text = await read_in_thread(self.read, f"  {field.label}: ")
            except EOFError:
                return None
            text = text.strip().replace("\\n", "\n") if field.paragraph else text.strip()
            text = text or (field.value or "")
            problem = _field_problem(field, text)
            if problem is None:
                return _field_value(field, text)
            self.display.error(problem)

    # -- console commands --------------------------------------------------------------------
    async def _help(self, rest: str) -> bool:
        if rest:
            command = self.console.catalog.find(rest.removeprefix("/"))
            if command is None:
                raise self.console.catalog.unknown(rest.removeprefix("/"))
            self.display.say("\n".join(command_help(command, self.console.locale)))
        else:
            self.display.say("\n".join(help_lines(self.console)))
        return True

    async def _locale(self, rest: str) -> bool:
        if rest:
            self.console.locale = canonical_locale(rest)
        speaks = "" if self.console.locale in TRANSLATED else " (Laurel answers it in English)"
        self.display.say(f"locale: {self.console.locale}{speaks}")
        return True

    async def _json(self, rest: str) -> bool:
        if rest.casefold() not in ("", "on", "off"):
            raise CommandLineError("json on, or json off")
        if rest:
            self.display.json = rest.casefold() == "on"
        self.display.say(f"json: {'on' if self.display.json else 'off'}")
        return True

    async def _user(self, rest: str) -> bool:
        if rest:
            self.console.use(rest.lstrip("@"))
        members = ", ".join(self.console.members())
        self.display.say(f"you are {self.console.user} (members: {members})")
        return True

    async def _press(self, rest: str) -> bool:
        if not rest:
            raise CommandLineError("press <label or custom_id>")
        await self._show(await self.console.press(rest))
        return True

    async def _choose(self, rest: str) -> bool:
        await self._show(await self.console.choose(rest))
        return True

    async def _quit(self, rest: str) -> bool:
        return False


async def run_lines(console: Console, display: Display, lines: Sequence[str]) -> int:
    """One-shot mode: run `lines` in order; a line the console cannot run raises
    CommandLineError, which the command line reports before exiting 1."""
    repl = Repl(console, display)
    for line in lines:
        if not await repl.execute(line):
            break
    return 0


def _field_problem(field: ModalField, text: str) -> str | None:
    if not text:
        return f"{field.label} is required" if field.required else None
    if field.options:
        return (
            None
            if all(_choice(field, v) for v in text.split(","))
            else (f"{field.label} takes {', '.join(label for label, _ in field.options)}")
        )
    low, high = field.min_length or 0, field.max_length or 4000
    if not low <= len(text) <= high:
        return f"{field.label} takes {low}–{high} characters, not {len(text)}"
    return None


def _choice(field: ModalField, given: str) -> str | None:
    wanted = given.strip().casefold()
    return next(
        (v for label, v in field.options if wanted in (label.casefold(), v.casefold())), None
    )


def _field_value(field: ModalField, text: str) -> str | list[str]:
    if field.kind == 4 or not text:
        return text
    return [v for v in (_choice(field, part) for part in text.split(",")) if v is not None]


# -- help ------------------------------------------------------------------------------------
def help_lines(console: Console) -> list[str]:
    lines = ["Slash commands, typed as in Discord (Tab completes names, options and values):"]
    for command in console.catalog.commands:
        for written, description in usage(command, console.locale):
            lines += [f"  {written}", f"      {description}"]
    if not console.catalog.commands:
        lines.append("  (the bot registered none)")
    lines.append("Console:")
    width = max(text_width(c) for c in CONSOLE_COMMANDS)
    lines += [f"  {c.ljust(width)}  {what}" for c, what in CONSOLE_COMMANDS.items()]
    lines.append(f"You are {console.user}, in #general, with locale {console.locale}.")
    return lines


def command_help(command: Mapping[str, Any], locale: str) -> list[str]:
    lines: list[str] = []
    for written, description in usage(command, locale):
        lines += [written, f"    {description}"]
    for option in _options(command):
        facts = [TYPE_NAMES.get(option["type"], "value")]
        facts.append("required" if option.get("required") else "optional")
        if option.get("autocomplete"):
            facts.append("the bot suggests values: press Tab")
        if option.get("choices"):
            facts.append("one of " + ", ".join(str(c["value"]) for c in option["choices"]))
        description = localized(option, "description", locale)
        lines.append(f"    {option['name']}:  {description} ({'; '.join(facts)})")
    return lines


def _options(definition: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """Every option of every leaf, depth first, each name once."""
    found: dict[str, Mapping[str, Any]] = {}
    for option in definition.get("options") or []:
        if option["type"] in (1, 2):
            for inner in _options(option):
                found.setdefault(inner["name"], inner)
        else:
            found.setdefault(option["name"], option)
    return list(found.values())
