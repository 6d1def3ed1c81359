from __future__ import annotations

import re

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.settings import CurationSettings, Settings
from bot.store.database import Database
from laurel_console.harness import laurel_on
from laurel_console.localdiscord.server import LocalDiscord
from tests.support.commands import mention


async def test_about_answers_with_the_catalogue_coverage(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    interaction = await server.slash("about")
    message = await interaction.message()
    (embed,) = message["embeds"]
    assert embed["title"] == "Laurel"
    coverage = embed["fields"][0]["value"]
    assert re.match(r"\d+ venues with statistics for \d+ editions \(\d{4}–\d{4}\)", coverage)
    row = await db.fetchone(
        """
        SELECT count(*), count(DISTINCT a.paper_id), min(e.year), max(e.year)
        FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
        """
    )
    assert row is not None
    assert row[0] >= 800
    assert coverage.endswith(f"{row[0]} awards to {row[1]} papers ({row[2]}–{row[3]})")
    assert "ICML" in embed["fields"][1]["value"]
    assert message["flags"] & 64 == 0  # public


async def test_about_in_traditional_chinese(laurel: LaurelBot, server: LocalDiscord) -> None:
    interaction = await server.slash("about", locale="zh-TW")
    (embed,) = (await interaction.message())["embeds"]
    assert embed["fields"][0]["name"] == "收錄範圍"


async def test_help_lists_commands_as_the_readers_client_names_them(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    """By mention (issue 25, item 2): Discord shows /關於 to a zh-TW reader, /about to others."""
    english = (await (await server.slash("help")).message())["embeds"][0]["description"]
    assert f"{mention(server, 'about')} — What Laurel is" in english
    chinese = (await (await server.slash("help", locale="zh-TW")).message())["embeds"][0]
    assert f"{mention(server, 'about')} — Laurel 是什麼" in chinese["description"]


async def test_help_names_each_subcommand_by_its_mention(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    chinese = (await (await server.slash("help", locale="zh-TW")).message())["embeds"][0]
    assert f"{mention(server, 'awards edition')} — " in chinese["description"]
    assert "/awards" not in chinese["description"].replace("</awards", "")


def _listed(description: str) -> set[str]:
    """The top-level command names in a /help answer (each line opens with a mention)."""
    return {line.removeprefix("</").split()[0].split(":")[0] for line in description.splitlines()}


async def _help_for(server: LocalDiscord, user: str) -> set[str]:
    user_id = server.world.find_user(user).id
    answer = await (await server.slash("help", user_id=user_id)).message()
    return _listed(answer["embeds"][0]["description"])


async def test_help_lists_admin_groups_only_to_members_who_may_use_them(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    member = await _help_for(server, "grace")  # a plain member: no Manage Server
    assert {"about", "help", "awards", "paper"} <= member
    assert "digest" not in member
    assert "curate" not in member
    owner = await _help_for(server, "ada")  # owns the server, so holds every permission
    assert {"digest", "curate"} <= owner
    assert member < owner


async def test_help_lists_curate_to_a_configured_curator_without_manage_server(
    server: LocalDiscord, db: Database
) -> None:
    grace = server.world.find_user("grace").id
    settings = Settings(curation=CurationSettings(user_ids=[grace]))
    async with laurel_on(server, db, settings, clock=SystemClock()):
        listed = await _help_for(server, "grace")
    assert "curate" in listed
    assert "digest" not in listed  # still no Manage Server
