"""How a command is named in the bot's answers: a Discord mention with the id the stand-in
gave it at the command sync (issue 25, item 2)."""

from __future__ import annotations

from laurel_console.localdiscord.server import LocalDiscord


def mention(server: LocalDiscord, path: str, guild_id: int | None = None) -> str:
    """`</digest edit:123>` for "digest edit", from the commands the stand-in holds."""
    top = path.split(" ", 1)[0]
    (command,) = [c for c in server.world.commands[guild_id] if c["name"] == top]
    return f"</{path}:{command['id']}>"
