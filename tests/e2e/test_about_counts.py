"""/about counts what the store holds (issue 25, item 14): "statistics for N editions" counts
the editions that have numbers, not every edition (170 claimed where 56 had them)."""

from __future__ import annotations

import pytest

from bot.app import LaurelBot
from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord

SAID = {
    "en-US": "{venues} venues with statistics for {editions} editions",
    "zh-TW": "{venues} 個會議，{editions} 屆的統計",
    "zh-CN": "{venues} 个会议，{editions} 届的统计",
}


@pytest.mark.parametrize("locale", ["en-US", "zh-TW", "zh-CN"])
async def test_about_counts_only_editions_with_statistics(
    laurel: LaurelBot, server: LocalDiscord, db: Database, locale: str
) -> None:
    row = await db.fetchone(
        """
        SELECT count(*), count(DISTINCT venue), (SELECT count(*) FROM editions)
        FROM editions WHERE submissions IS NOT NULL OR accepted IS NOT NULL
        """
    )
    assert row is not None
    with_numbers, venues, every = int(row[0]), int(row[1]), int(row[2])
    assert 0 < with_numbers < every  # the catalogue has editions without numbers
    interaction = await server.slash("about", locale=locale)
    (embed,) = (await interaction.message())["embeds"]
    coverage = embed["fields"][0]["value"]
    assert coverage.startswith(SAID[locale].format(venues=venues, editions=with_numbers))
