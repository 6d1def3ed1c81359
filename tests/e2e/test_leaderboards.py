"""/stats institutions and /stats authors on the stand-in, with the bundled catalogue."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.app import LaurelBot
from bot.domain.clock import SystemClock
from bot.domain.models import Award, AwardKind, CatalogBatch, Paper
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from laurel_console.localdiscord.server import LocalDiscord

EPHEMERAL = 64
INSTITUTION = re.compile(r"\*\*(\d+)\.\*\* (.+) — \*\*(\d+\.\d\d)\*\* \(papers: (\d+)\)")


async def stats(
    server: LocalDiscord, subcommand: str, options: dict[str, Any], locale: str = "en-US"
) -> dict[str, Any]:
    interaction = await server.slash("stats", options, subcommand=subcommand, locale=locale)
    return await interaction.message()


def institution_lines(embed: dict[str, Any]) -> list[tuple[int, str, float, int]]:
    lines = embed["description"].split("\n")
    found = [INSTITUTION.fullmatch(line) for line in lines]
    assert all(found), lines
    return [(int(m[1]), m[2], float(m[3]), int(m[4])) for m in found if m]


async def awarded_in(db: Database, where: str) -> int:
    """Awarded papers counted once per edition that awarded them, as the leaderboards count."""
    row = await db.fetchone(
        f"""SELECT count(*) FROM (SELECT DISTINCT a.paper_id, a.edition_id
            FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id WHERE {where}) AS x"""
    )
    assert row is not None
    return int(row[0])


async def test_institutions_of_2025_with_fractional_credit(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    message = await stats(server, "institutions", {"from": 2025, "to": 2025})

    assert message["flags"] & EPHEMERAL == 0
    (embed,) = message["embeds"]
    # The title says what the board rests on: the papers with affiliations, of all in scope.
    total = await awarded_in(db, "e.year = 2025")
    assert total > 20
    assert embed["title"] == (
        f"Institutions by awarded papers — every venue, 2025, from 36 of {total} papers"
    )
    lines = institution_lines(embed)
    assert len(lines) == 15
    # Princeton: two papers of its own and halves of two shared ones (Safety Alignment's byline,
    # now whole, adds Google DeepMind beside it).
    assert lines[0] == (1, "Princeton University", 3.0, 4)
    # Carnegie Mellon: shares of five papers (AAAI 2025's NELL classic among them).
    assert lines[1] == (2, "Carnegie Mellon University", 2.44, 5)
    assert lines[2] == (3, "Google", 2.0, 2)
    assert [rank for rank, *_ in lines[3:5]] == [4, 4]  # ties at 1.50 share a rank
    assert embed["footer"]["text"] == (
        "Top 15 of 50 institutions. Each of 36 awarded papers gives 1 credit, "
        "split equally among its institutions."
    )
    # Every institution's credit together is the number of awarded papers with affiliations.
    everything = await laurel.leaderboards.institution_credit(first=2025, last=2025, limit=1000)
    assert len(everything.entries) == everything.ranked == 50
    assert round(sum(e.credit for e in everything.entries), 2) == everything.papers == 36


async def test_institutions_at_one_venue_add_up_to_its_papers(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    message = await stats(server, "institutions", {"venue": "icml", "from": 2025})

    (embed,) = message["embeds"]
    total = await awarded_in(db, "e.venue = 'icml' AND e.year >= 2025")
    assert (
        embed["title"]
        == f"Institutions by awarded papers — ICML, since 2025, from 12 of {total} papers"
    )
    lines = institution_lines(embed)
    assert lines[0] == (1, "Harvard University", 1.0, 2)
    assert ("University of Bristol", 0.5) in [(name, credit) for _, name, credit, _ in lines]
    assert len(lines) == 15  # the top 15 of 19 institutions
    assert embed["footer"]["text"].startswith("Top 15 of 19 institutions.")
    assert "Each of 12 awarded papers" in embed["footer"]["text"]


async def test_institutions_in_traditional_chinese(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    message = await stats(server, "institutions", {"to": 2025}, locale="zh-TW")

    (embed,) = message["embeds"]
    total = await awarded_in(db, "e.year <= 2025")
    covered = await laurel.leaderboards.institution_credit(last=2025)
    assert embed["title"] == (
        f"機構得獎論文排行 — 所有會議，至 2025 年，依據 {total} 篇中的 {covered.papers} 篇論文"
    )
    first = embed["description"].split("\n")[0]
    assert first == "**1.** 卡內基美隆大學 — **36.28**（59 篇論文）"  # named in zh-TW
    assert "普林斯頓大學 — **10.95**（19 篇論文）" in embed["description"]
    assert embed["footer"]["text"].startswith("501 個機構中的前 15 名。")  # variants grouped


async def test_authors_of_2025(laurel: LaurelBot, server: LocalDiscord) -> None:
    message = await stats(server, "authors", {"from": 2025, "to": 2025})

    (embed,) = message["embeds"]
    assert embed["title"] == "Most-awarded authors — every venue, 2025"
    lines = embed["description"].split("\n")
    assert len(lines) == 15
    # Three authors have two awarded papers in 2025: Prateek Mittal (Safety Alignment, its byline
    # now whole, and Data Shapley at ICLR), Ross Girshick (SAM 2 at ICLR, Faster R-CNN's test of
    # time at NeurIPS) and Yejin Choi (Artificial Hivemind, its byline now whole, and a second
    # 2025 paper); they tie, by name; everyone else ties on one, by name.
    assert lines[0] == "**1.** Prateek Mittal — papers: **2**, awards: 2"
    assert lines[1] == "**1.** Ross Girshick — papers: **2**, awards: 2"
    assert lines[2] == "**1.** Yejin Choi — papers: **2**, awards: 2"
    assert lines[3] == "**4.** Abderrahim Bendahi — papers: **1**, awards: 1"
    assert all(line.startswith("**4.** ") for line in lines[3:])
    assert embed["footer"]["text"] == "Top 15 of 265 authors of 45 awarded papers."


async def test_authors_at_a_venue_in_traditional_chinese(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    message = await stats(server, "authors", {"venue": "neurips"}, locale="zh-TW")

    (embed,) = message["embeds"]
    assert embed["title"] == "得獎最多的作者 — NeurIPS，所有年份"
    assert "篇論文，1 個獎項" in embed["description"]


async def test_a_range_backwards_is_a_private_clear_answer(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    for subcommand in ("institutions", "authors"):
        message = await stats(server, subcommand, {"from": 2025, "to": 2020})
        assert message["flags"] & EPHEMERAL
        assert message["content"] == (
            "The first year (2025) comes after the last (2020); swap them and try again."
        )
    chinese = await stats(server, "authors", {"from": 2025, "to": 2020}, locale="zh-TW")
    assert chinese["content"].startswith("起始年（2025）晚於結束年（2020）")


async def test_a_range_without_awards_says_which_years_have_them(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    message = await stats(server, "institutions", {"venue": "icml", "from": 1990, "to": 2000})
    assert message["flags"] & EPHEMERAL
    assert message["content"].startswith(
        "The catalogue has no awarded papers for ICML, 1990–2000; it has awards for "
    )
    chinese = await stats(server, "authors", {"to": 1990}, locale="zh-TW")
    assert chinese["flags"] & EPHEMERAL
    assert chinese["content"].startswith("目錄裡沒有「所有會議，至 1990 年」的得獎論文")


async def test_leaderboards_are_registered_in_chinese(
    laurel: LaurelBot, server: LocalDiscord
) -> None:
    (command,) = [c for c in server.commands.list_for(None) if c["name"] == "stats"]
    subcommands = {o["name"]: o for o in command["options"]}
    institutions = subcommands["institutions"]
    assert institutions["name_localizations"] == {"zh-TW": "機構", "zh-CN": "机构"}
    options = {o["name"]: o for o in institutions["options"]}
    assert list(options) == ["venue", "from", "to"]
    assert options["from"]["name_localizations"] == {"zh-TW": "起始年", "zh-CN": "起始年"}
    assert options["to"]["description_localizations"]["zh-CN"].startswith("计入的最后一年")
    assert subcommands["authors"]["name_localizations"]["zh-TW"] == "作者"


async def test_awards_without_names_are_told_apart_from_no_awards(
    laurel: LaurelBot, server: LocalDiscord, db: Database
) -> None:
    nameless = Award(
        venue="icml", year=2014, name="Outstanding Paper", kind=AwardKind.OUTSTANDING,
        paper=Paper(title="A paper with no names yet"),
    )  # fmt: skip
    catalog = CatalogRepository(db, SystemClock())
    await catalog.apply(CatalogBatch(awards=(nameless,)), actor="test", policy="update")

    message = await stats(server, "institutions", {"venue": "icml", "from": 2014, "to": 2014})
    assert message["flags"] & EPHEMERAL
    # …and where the catalogue does have them, so the answer is no dead end (issue 25, item 14)
    assert message["content"].startswith(
        "None of the 1 awarded papers of ICML, 2014 has its institutions in the catalogue yet. "
        "The institutions leaderboard can count the awards of "
    )
    chinese = await stats(server, "authors", {"venue": "icml", "to": 2014}, locale="zh-TW")
    assert chinese["content"].startswith(
        "目錄裡「ICML，至 2014 年」的 1 篇得獎論文都還沒有作者資料。"
        "作者排行可以計入這些年份的獎項："
    )
    assert "2015–2026" in chinese["content"]  # every year from 2015 on has bylines now


@pytest.mark.parametrize(
    ("locale", "said"),
    [
        ("en-US", "None of the 1 awarded papers of ICML, 2014 has its authors"),
        ("zh-TW", "目錄裡「ICML，2014」的 1 篇得獎論文都還沒有作者資料"),
        ("zh-CN", "目录里“ICML，2014”的 1 篇获奖论文都还没有作者数据"),
    ],
)
async def test_a_leaderboard_without_names_says_which_years_have_them(
    laurel: LaurelBot, server: LocalDiscord, db: Database, locale: str, said: str
) -> None:
    """Was: "The awarded papers for CVPR, since 2024 have no authors in the catalogue yet."
    and nothing more (issue 25, item 14)."""
    nameless = Award(
        venue="icml", year=2014, name="Outstanding Paper", kind=AwardKind.OUTSTANDING,
        paper=Paper(title="A paper with no names yet"),
    )  # fmt: skip
    await CatalogRepository(db, SystemClock()).apply(
        CatalogBatch(awards=(nameless,)), actor="t", policy="update"
    )
    answer = await stats(
        server, "authors", {"venue": "icml", "from": 2014, "to": 2014}, locale=locale
    )
    assert answer["content"].startswith(said)
    row = await db.fetchone(
        """SELECT min(e.year), max(e.year) FROM live_awards AS a
           JOIN editions AS e ON e.id = a.edition_id
           WHERE e.venue = 'icml' AND a.paper_id IN (SELECT paper_id FROM paper_authors)"""
    )
    assert row is not None
    assert str(row[0]) in answer["content"]
    assert str(row[1]) in answer["content"]
