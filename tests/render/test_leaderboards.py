"""Leaderboard embeds: shared ranks for ties, escaped names, the scope in words."""

from __future__ import annotations

from bot.domain.institutions import load_institutions
from bot.domain.leaderboards import AuthorAwards, InstitutionCredit, Leaderboard
from bot.render.i18n import Strings
from bot.render.leaderboards import Scope, authors_embed, institutions_embed, ranks, scope_text

STRINGS = Strings.load()


def test_ties_share_a_rank_and_the_next_rank_skips() -> None:
    assert ranks([5, 3, 3, 3, 1], lambda x: x) == [1, 2, 2, 2, 5]
    assert ranks([], lambda x: x) == []


def test_the_scope_in_words() -> None:
    assert scope_text(Scope(), STRINGS, "en") == "every venue, every year"
    assert scope_text(Scope("ICML", 2020, 2025), STRINGS, "en") == "ICML, 2020–2025"
    assert scope_text(Scope("ICML", 2025, 2025), STRINGS, "en") == "ICML, 2025"
    assert scope_text(Scope(None, 2020), STRINGS, "zh-CN") == "所有会议，2020 年起"
    assert scope_text(Scope("NeurIPS", None, 2020), STRINGS, "zh-TW") == "NeurIPS，至 2020 年"


def test_credits_tie_as_shown_and_names_are_escaped() -> None:
    board = Leaderboard(
        (
            InstitutionCredit("**Bold** Lab", 1 / 3 + 1 / 3 + 1 / 3, 3),
            InstitutionCredit("Plain_Lab", 1.0, 1),
            InstitutionCredit("Third", 0.5, 1),
        ),
        ranked=3,
        papers=3,
    )
    embed = institutions_embed(board, Scope(), STRINGS, "en", load_institutions())
    assert embed.description == (
        "**1.** \\*\\*Bold\\*\\* Lab — **1.00** (papers: 3)\n"
        "**1.** Plain\\_Lab — **1.00** (papers: 1)\n"
        "**3.** Third — **0.50** (papers: 1)"
    )


def test_authors_rank_by_papers() -> None:
    board = Leaderboard(
        (AuthorAwards("A", 2, 3), AuthorAwards("B", 2, 2), AuthorAwards("C", 1, 1)),
        ranked=3,
        papers=4,
    )
    embed = authors_embed(board, Scope("ICML"), STRINGS, "en")
    assert embed.title == "Most-awarded authors — ICML, every year"
    assert [line[:7] for line in (embed.description or "").split("\n")] == [
        "**1.** ",
        "**1.** ",
        "**3.** ",
    ]
    assert embed.footer.text == "Top 3 of 3 authors of 4 awarded papers."


def test_institutions_are_named_in_the_readers_language() -> None:
    board = Leaderboard(
        (InstitutionCredit("Tsinghua University", 2.0, 2), InstitutionCredit("Lab X", 1.0, 1)),
        ranked=2,
        papers=3,
    )
    table = load_institutions()
    lines = {
        language: (institutions_embed(board, Scope(), STRINGS, language, table).description or "")
        for language in ("en", "zh-TW", "zh-CN")
    }
    assert "Tsinghua University" in lines["en"]
    assert "清華大學" in lines["zh-TW"]
    assert "清华大学" in lines["zh-CN"]
    assert all("Lab X" in text for text in lines.values())
