"""The console's session: a person playing a member of the stand-in's guild.

`Console` turns what the person typed into real interactions on a running LocalDiscord — slash
commands checked against what the bot registered, button presses, menu choices and modal
submissions on the messages it has shown — and collects what the bot answered. Drawing and
reading the terminal are elsewhere (console_render, console_repl), so a test drives it directly.
"""

from __future__ import annotations

import copy
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord

from laurel_console.localdiscord.console_parse import (
    CommandCatalog,
    CommandLineError,
    Invocation,
    parse_slash,
    tokenize,
)
from laurel_console.localdiscord.interactions import (
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MODAL,
    Interaction,
)
from laurel_console.localdiscord.server import LocalDiscord

LOCALES = tuple(locale.value for locale in discord.Locale)
TRANSLATED = ("en-US", "zh-TW", "zh-CN")  # the locales Laurel answers in; others get English
BUTTON, LINK = 2, 5
SELECTS = (3, 5, 6, 7, 8)


def canonical_locale(value: str) -> str:
    """A Discord locale, whatever its letter case: "zh-tw" is "zh-TW"."""
    for locale in LOCALES:
        if locale.casefold() == value.casefold():
            return locale
    raise CommandLineError(
        f"unknown locale {value!r}; Laurel speaks {', '.join(TRANSLATED)} "
        f"(Discord's others get English: {', '.join(LOCALES)})"
    )


@dataclass
class Answer:
    """What the bot did with one interaction: its callback and the messages to show."""

    interaction: Interaction
    callback: dict[str, Any]
    messages: list[dict[str, Any]] = field(default_factory=list)
    note: str | None = None

    @property
    def modal(self) -> dict[str, Any] | None:
        return self.interaction.modal


class AttachmentSaver:
    """Writes each attachment once, to a folder made on first use (by default a new one under
    the system's temporary folder); a name already taken gets -2, -3… before its suffix."""

    def __init__(self, read: Callable[[dict[str, Any]], bytes], folder: Path | None = None):
        self._read = read
        self._folder = folder
        self._saved: dict[str, Path] = {}

    @property
    def folder(self) -> Path:
        if self._folder is None:
            self._folder = Path(tempfile.mkdtemp(prefix="laurel-console-"))
        self._folder.mkdir(parents=True, exist_ok=True)
        return self._folder

    def save(self, message: Mapping[str, Any]) -> dict[str, Path]:
        """Attachment id -> the file it is in, for every attachment of `message`."""
        for attachment in message.get("attachments") or []:
            key = str(attachment["id"])
            if key not in self._saved:
                path = self._free(Path(str(attachment["filename"])).name or "attachment")
                path.write_bytes(self._read(attachment))
                self._saved[key] = path
        return {str(a["id"]): self._saved[str(a["id"])] for a in message.get("attachments") or []}

    def _free(self, name: str) -> Path:
        path = self.folder / name
        number = 1
        while path.exists():
            number += 1
            path = self.folder / f"{Path(name).stem}-{number}{Path(name).suffix}"
        return path


def walk_components(components: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]])


def _label(component: Mapping[str, Any]) -> str:
    emoji = (component.get("emoji") or {}).get("name")
    return str(component.get("label") or component.get("placeholder") or emoji or "")


class Console:
    def __init__(
        self,
        server: LocalDiscord,
        *,
        locale: str = "en-US",
        timeout: float = 60.0,
        notify: Callable[[str], None] = lambda note: None,
    ) -> None:
        self.server = server
        self.locale = canonical_locale(locale)
        self.timeout = timeout  # for a deferred answer; a first answer has Discord's 3 s
        self.notify = notify  # told "thinking…" while the bot works on a deferred answer
        self.user_id: int | None = None  # None: the stand-in's plain member
        self._seen = {int(s.payload["id"]) for ms in server.world.messages.values() for s in ms}
        self._shown: list[int] = []  # ids of the messages shown, oldest first
        self._reported = (0, 0, 0)

    # -- what the person sees ----------------------------------------------------------------
    @property
    def catalog(self) -> CommandCatalog:
        guild = self.server.world.default_guild()
        registry = self.server.commands
        return CommandCatalog.of(registry.list_for(guild.id), registry.list_for(None))

    @property
    def user(self) -> str:
        return self.server.world.users[self._user_id()].username

    def members(self) -> list[str]:
        world = self.server.world
        guild = world.default_guild()
        return [world.users[u].username for u in guild.members if u != world.bot.id]

    def use(self, username: str) -> None:
        for member in self.server.world.default_guild().members:
            if self.server.world.users[member].username.casefold() == username.casefold():
                self.user_id = member
                return
        raise CommandLineError(f"no member {username!r}; the guild has {', '.join(self.members())}")

    def _user_id(self) -> int:
        if self.user_id is not None:
            return self.user_id
        guild = self.server.world.default_guild()
        bot = self.server.world.bot.id
        humans = [u for u in guild.members if u not in (bot, guild.owner_id)]
        return humans[0] if humans else guild.owner_id

    def recent_messages(self) -> list[dict[str, Any]]:
        """The messages shown so far, newest first, as they are now (edits included)."""
        found = (self.server.store.find(message_id) for message_id in reversed(self._shown))
        return [copy.deepcopy(s.payload) for s in found if s is not None]

    def components(self, kinds: Sequence[int]) -> list[tuple[dict[str, Any], Mapping[str, Any]]]:
        """(message, component) for components of `kinds` on the shown messages, newest first."""
        return [
            (message, component)
            for message in self.recent_messages()
            for component in walk_components(message.get("components") or [])
            if component.get("type") in kinds
        ]

    def problems(self) -> list[str]:
        """What went wrong since the last call: requests that broke Discord's spec or limits,
        routes the stand-in does not know, and failures of the stand-in itself."""
        server = self.server
        seen_v, seen_u, seen_e = self._reported
        found = [
            f"the bot's request broke Discord's rules: {v}" for v in server.violations[seen_v:]
        ]
        found += [f"the bot used an unknown route: {r.route}" for r in server.unhandled[seen_u:]]
        found += [f"the stand-in failed: {e.splitlines()[0]}" for e in server.errors[seen_e:]]
        self._reported = (len(server.violations), len(server.unhandled), len(server.errors))
        return found

    # -- acting --------------------------------------------------------------------------------
    async def slash(self, line: str) -> Answer:
        return await self.invoke(parse_slash(line, self.catalog))

    async def invoke(self, invocation: Invocation) -> Answer:
        interaction = await self.server.slash(
            invocation.name,
            invocation.options,
            subcommand=list(invocation.path),
            user_id=self._user_id(),
            locale=self.locale,
        )
        return await self._answer(interaction, invocation.display)

    async def autocomplete(
        self, invocation: Invocation, focused: str, typed: str
    ) -> list[dict[str, Any]]:
        """The choices the bot offers for option `focused` with `typed` typed so far."""
        return await self.server.autocomplete(
            invocation.name,
            {**invocation.options, focused: typed},
            focused,
            subcommand=list(invocation.path),
            user_id=self._user_id(),
            locale=self.locale,
            timeout=self.server.config.interaction_window + 1,
        )

    async def press(self, target: str) -> Answer:
        """Click the button labelled `target` (any case) or with custom_id `target`."""
        message, button = self._find(target, (BUTTON,), "button")
        name = _label(button) or str(button.get("custom_id"))
        if button.get("style") == LINK:
            raise CommandLineError(f"{name!r} is a link to {button.get('url')}; nothing to press")
        if "custom_id" not in button:
            raise CommandLineError(f"{name!r} cannot be pressed here (a premium button)")
        if button.get("disabled"):
            raise CommandLineError(f"{name!r} is disabled")
        interaction = await self.server.press(
            int(message["id"]),
            str(button["custom_id"]),
            user_id=self._user_id(),
            locale=self.locale,
        )
        return await self._answer(interaction, f"[ {name} ]")

    async def choose(self, arguments: str) -> Answer:
        """`<placeholder or custom_id> <value>[,<value>…]`; the target may be left out when the
        shown messages have one select menu. Values are option values or labels (any case)."""
        words = [t.text for t in tokenize(arguments)]
        if not words:
            raise CommandLineError("choose <placeholder or custom_id> <value>[,<value>…]")
        selects = self.components(SELECTS)
        if len(words) == 1 and len(selects) == 1:
            message, select = selects[0]
        else:
            message, select = self._find(" ".join(words[:-1]), SELECTS, "select menu")
        values = [v.strip() for v in words[-1].split(",") if v.strip()]
        if select.get("disabled"):
            raise CommandLineError(f"{_label(select) or select['custom_id']!r} is disabled")
        if select["type"] == 3:
            values = [_option_value(select, v) for v in values]
        interaction = await self.server.choose(
            int(message["id"]),
            str(select["custom_id"]),
            values,
            user_id=self._user_id(),
            locale=self.locale,
        )
        return await self._answer(interaction, f"▾ {_label(select)}")

    async def submit(self, opened: Interaction, fields: Mapping[str, str | list[str]]) -> Answer:
        interaction = await self.server.submit(opened, fields, locale=self.locale)
        return await self._answer(interaction, "the form")

    def _find(
        self, target: str, kinds: Sequence[int], what: str
    ) -> tuple[dict[str, Any], Mapping[str, Any]]:
        candidates = self.components(kinds)
        wanted = target.strip().casefold()
        for matches in (
            lambda c: _label(c).casefold() == wanted or c.get("custom_id") == target.strip(),
            lambda c: _label(c).casefold().startswith(wanted) and bool(wanted),
        ):
            found = [(m, c) for m, c in candidates if matches(c)]
            if found:
                return found[0]
        if not candidates:
            raise CommandLineError(f"no {what} on the messages shown so far")
        names = ", ".join(
            dict.fromkeys(repr(_label(c) or c.get("custom_id")) for _, c in candidates)
        )
        raise CommandLineError(f"no {what} {target!r}; there are {names}")

    # -- the bot's answer ----------------------------------------------------------------------
    async def _answer(self, interaction: Interaction, what: str) -> Answer:
        window = self.server.config.interaction_window
        try:
            callback = await interaction.response(timeout=window + 1)
        except TimeoutError:
            raise CommandLineError(
                f"{what}: the bot did not answer within {window:g} s "
                "(Discord would show “The application did not respond”)"
            ) from None
        answer = Answer(interaction, callback)
        if callback["type"] == MODAL:
            return answer
        if callback["type"] in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE):
            self.notify("Laurel is thinking…")
        try:
            await interaction.wait_for(_settled, self.timeout, f"{what} was not answered")
        except TimeoutError:
            answer.note = f"{what}: the bot acknowledged but sent nothing within {self.timeout:g} s"
        await self.server.rest.settle(self.server.config.settle_iterations)
        original = await interaction.message() if interaction.original_ready else None
        answer.messages = self._collect(original)
        if not answer.messages and answer.note is None:
            answer.note = f"{what}: the bot acknowledged without changing anything"
        return answer

    def _collect(self, original: dict[str, Any] | None) -> list[dict[str, Any]]:
        """The original response (new or edited), then every bot message not shown yet."""
        world = self.server.world
        messages = [original] if original is not None else []
        fresh = sorted(
            (
                s.payload
                for stored in world.messages.values()
                for s in stored
                if s.author_id == world.bot.id and int(s.payload["id"]) not in self._seen
            ),
            key=lambda p: int(p["id"]),
        )
        messages += [
            copy.deepcopy(p) for p in fresh if original is None or p["id"] != original["id"]
        ]
        for message in messages:
            self._seen.add(int(message["id"]))
            if int(message["id"]) in self._shown:
                self._shown.remove(int(message["id"]))
            self._shown.append(int(message["id"]))
        return messages


def _settled(interaction: Interaction) -> bool | None:
    """Whether the answer is complete: the original response has its content (at once for a
    message or an update, after the edit for a deferral), or a deferred update was followed up."""
    if interaction.original_ready:
        return True
    if interaction.response_type == DEFERRED_UPDATE_MESSAGE and interaction.followups:
        return True
    return None


def _option_value(select: Mapping[str, Any], given: str) -> str:
    options = select.get("options") or []
    for option in options:
        if given == option["value"] or given.casefold() == str(option["label"]).casefold():
            return str(option["value"])
    offered = ", ".join(str(o["label"]) for o in options)
    raise CommandLineError(f"{given!r} is not an option of {_label(select)!r}: {offered}")
