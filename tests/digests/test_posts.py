"""Digest posts stay within Discord's limits and always carry their ledger marker."""

from __future__ import annotations

from bot.domain.models import AwardKind, AwardRef, Language, Paper, StoredPaper, Venue
from bot.domain.subscriptions import Theme
from bot.render.awards import AwardEntry
from bot.render.digest_posts import (
    Frame,
    hidden_marker,
    marker_in,
    paper_post,
    spotlight_post,
    thread_name,
)
from bot.render.embeds import TOTAL
from bot.render.i18n import Strings

STRINGS = Strings.load()
MARKER = "L123456-abcdef"


def frame(theme: Theme, *, role_id: int | None = None, language: Language = "en") -> Frame:
    return Frame(theme, "2026-W02", language, role_id, MARKER)


def test_a_huge_edition_fits_one_message_and_keeps_the_marker() -> None:
    venue = Venue(key="icml", name="ICML")
    entries = [
        AwardEntry(
            AwardRef(
                venue="icml",
                venue_name="ICML",
                year=2025,
                name="Outstanding Paper",
                kind=AwardKind.OUTSTANDING,
            ),
            Paper(
                title=f"A rather long title about learning number {n} " * 3,
                authors=tuple(f"Author {n}-{a}" for a in range(12)),
                doi=f"10.1000/{n}",
            ),
        )
        for n in range(300)
    ]
    post = spotlight_post(frame(Theme.VENUE_SPOTLIGHT), venue, 2025, entries, STRINGS)
    assert len(post.embeds) == 1  # one compact post (issue 25, item 6)
    assert "… and 295 more awards at ICML 2025" in (post.embeds[0].description or "")
    assert sum(len(e) for e in post.embeds) <= TOTAL
    assert (post.embeds[-1].footer.text or "").endswith(hidden_marker(MARKER))


def test_the_role_is_the_only_mention_and_the_heading_is_localized() -> None:
    stored = StoredPaper(id=1, paper=Paper(title="Attention Is All You Need"))
    post = paper_post(frame(Theme.PAPER_OF_THE_DAY, role_id=42, language="zh-CN"), stored, STRINGS)
    assert post.content.splitlines()[0] == "<@&42>"
    assert "每日论文 · 2026-W02" in post.content
    assert post.embeds[-1].footer.text is not None
    assert post.embeds[-1].footer.text.endswith(hidden_marker(MARKER))
    assert MARKER not in post.embeds[-1].footer.text  # no ledger code for members to read
    assert thread_name(frame(Theme.TEST_OF_TIME), STRINGS) == "Test of time · 2026-W02"


def test_a_paper_of_the_day_without_summary_or_link_is_still_useful() -> None:
    """The abstract's opening, labelled; a labelled search instead of a missing link."""
    paper = Paper(title="Gated Attention", abstract="Gating helps. It also stabilises training.")
    post = paper_post(frame(Theme.PAPER_OF_THE_DAY), StoredPaper(id=3, paper=paper), STRINGS)
    embed = post.embeds[0]
    assert embed.description == "*From the abstract:* Gating helps. It also stabilises training."
    links = {f.name: f.value for f in embed.fields}["Links"]
    assert links == (
        "No link to the paper yet · [Search arXiv for this title]"
        "(https://arxiv.org/search/?query=Gated+Attention&searchtype=title)"
    )
    bare = paper_post(
        frame(Theme.TEST_OF_TIME, language="zh-TW"),
        StoredPaper(id=4, paper=Paper(title="T")),
        STRINGS,
    )
    assert bare.embeds[0].description is None  # neither summary nor abstract: nothing at all


def test_the_marker_is_invisible_and_reads_back() -> None:
    """Members see no ledger code (issue 25, item 8); the bot finds the post by it."""
    hidden = hidden_marker(MARKER)
    assert all(not ch.isprintable() or ch in "\u200b\u200c\u200d\u2060\u2063" for ch in hidden)
    assert not any(ch.isalnum() for ch in hidden)
    assert marker_in("Page 1 · 3 awards" + hidden) == MARKER
    assert marker_in("Page 1 · 3 awards") is None
