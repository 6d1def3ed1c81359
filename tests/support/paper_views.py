"""/paper show on the stand-in: a paper picked through autocomplete as a member would,
and the buttons of the answer."""

from __future__ import annotations

from typing import Any

from laurel_console.localdiscord.server import LocalDiscord


def buttons(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [c for row in message["components"] for c in row["components"]]


def custom_ids(message: dict[str, Any]) -> list[str]:
    return [b["custom_id"] for b in buttons(message)]


async def pick(server: LocalDiscord, typed: str, locale: str = "en-US") -> str:
    choices = await server.autocomplete(
        "paper", {"paper": typed}, "paper", subcommand="show", locale=locale
    )
    assert 1 <= len(choices) <= 25
    return str(choices[0]["value"])


async def show_picked(server: LocalDiscord, typed: str, locale: str = "en-US") -> dict[str, Any]:
    value = await pick(server, typed, locale)
    interaction = await server.slash("paper", {"paper": value}, subcommand="show", locale=locale)
    return await interaction.message()
