"""/curate's autocomplete answers curators only (issue 12): the titles are public, but someone
who cannot run the command gets no suggestions from it. Walks every option of every /curate
command that has autocomplete."""

from __future__ import annotations

from discord import app_commands

from bot.app import LaurelBot
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.curating import ada, curator_bot, grace

__all__ = ["curator_bot"]
# What matches something, for each option.
TYPED = {"venue": "ICML", "year": "2025", "area": "Vision"}


def autocompleted(bot: LaurelBot) -> list[tuple[str, str]]:
    """(subcommand, option) for every /curate option with autocomplete."""
    curate = bot.tree.get_command("curate")
    assert isinstance(curate, app_commands.Group)
    found = []
    for command in curate.walk_commands():
        if isinstance(command, app_commands.Command):
            path = command.qualified_name.removeprefix("curate ")
            found += [(path, p.name) for p in command.parameters if p.autocomplete]
    return found


async def test_only_curators_get_suggestions_from_curate(
    curator_bot: LaurelBot, server: LocalDiscord
) -> None:
    options = autocompleted(curator_bot)
    assert len(options) >= 5
    for subcommand, option in options:
        for user, wanted in ((ada(server), True), (grace(server), False)):
            choices = await server.autocomplete(
                "curate", {option: TYPED.get(option, "diffusion")}, option,
                subcommand=subcommand, user_id=user,
            )  # fmt: skip
            assert bool(choices) == wanted, (subcommand, option, user)


async def test_members_still_get_suggestions_for_commands_they_may_run(
    curator_bot: LaurelBot, server: LocalDiscord
) -> None:
    choices = await server.autocomplete(
        "paper", {"paper": "diffusion"}, "paper", subcommand="show", user_id=grace(server)
    )
    assert choices
