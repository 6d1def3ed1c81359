"""Commands named in answers, as Discord command mentions (`</digest post-now:123>`).

Discord renders a mention in the reader's own language (a zh-TW client shows /定期貼文 立即發布)
and makes it clickable; a command typed out as text stays English. The ids are Discord's: the
bot learns them from the command sync (what it pushed, or what Discord already held) and hands
them here. Locale files name a command as `{cmd:digest post-now}`; until the ids are known (a
bot that never logged in) the name is shown as code, never as a broken mention.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


class CommandMentions:
    """Top-level command name -> Discord's id for it; formats `{cmd:name sub}` in templates."""

    __slots__ = ("_ids",)

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}

    def learn(self, commands: Iterable[Mapping[str, Any]]) -> None:
        """The ids of chat-input commands as Discord answered them (the sync or a GET)."""
        for command in commands:
            if command.get("type", 1) == 1 and "id" in command:
                self._ids[str(command["name"])] = int(command["id"])

    def known(self) -> dict[str, int]:
        return dict(self._ids)

    def mention(self, path: str) -> str:
        """`</digest post-now:id>` for "digest post-now" (a command and its subcommands)."""
        top = path.split(" ", 1)[0]
        command_id = self._ids.get(top)
        if command_id is None:
            return f"`/{path}`"
        return f"</{path}:{command_id}>"

    def __format__(self, spec: str) -> str:
        if not spec:
            raise ValueError("name the command: {cmd:digest post-now}")
        return self.mention(spec)
