"""The /awards renderers: pages, year runs, shortened author lists, escaping."""

from __future__ import annotations

from bot.domain.models import AwardKind, AwardRef, Paper, Venue
from bot.render.awards import (
    AwardEntry,
    authors_line,
    edition_embed,
    escape,
    paginate,
)
from bot.render.awards import test_of_time_embed as tot_embed
from bot.render.embeds import DESCRIPTION
from bot.render.i18n import Strings
from bot.render.years import year_spans

STRINGS = Strings.load()
ICML = Venue(key="icml", name="ICML")


def test_pages_hold_a_fixed_number_of_entries_and_fit_the_description() -> None:
    assert paginate(["a"] * 17, 8) == [list(range(8)), list(range(8, 16)), [16]]
    assert paginate([], 8) == [[]]
    long = ["x" * 1000] * 8
    assert all(sum(len(long[i]) for i in page) < DESCRIPTION for page in paginate(long, 8))


def test_years_read_as_runs() -> None:
    assert year_spans([2025, 2013, 2015, 2016, 2017, 2019]) == "2013, 2015–2017, 2019, 2025"
    assert year_spans([2020]) == "2020"


def test_authors_are_shortened_in_the_readers_language() -> None:
    names = [f"Author {i}" for i in range(8)]
    assert authors_line(names, STRINGS, "en") == "Author 0, Author 1, Author 2 and 5 more"
    assert authors_line(names, STRINGS, "zh-TW") == "Author 0、Author 1、Author 2 及另外 5 位作者"
    assert authors_line(names[:2], STRINGS, "en") == "Author 0 and Author 1"
    assert authors_line(names[:1], STRINGS, "en") == "Author 0"
    # No author yet reads as unknown, never as nobody (issue 24).
    assert authors_line([], STRINGS, "en") == "The authors are not yet in the catalogue"
    assert authors_line([], STRINGS, "zh-TW") == "作者尚未收錄"


def test_text_from_data_cannot_format_link_or_mention() -> None:
    assert escape("*bold* [x](y) @everyone") == "\\*bold\\* \\[x\\](y) @\u200beveryone"


def test_a_huge_edition_stays_within_discords_limits() -> None:
    award = AwardRef(venue="icml", venue_name="ICML", year=2025, name="Best", kind=AwardKind.BEST)
    paper = Paper(title="T" * 500, authors=tuple(f"A{i}" for i in range(3000)))
    entries = [AwardEntry(award, paper)] * 60
    embed, pages = edition_embed(ICML, 2025, entries, 99, STRINGS, "en")
    assert pages >= 8
    assert len(embed) <= 6000
    assert len(embed.description or "") <= DESCRIPTION
    assert embed.footer.text == f"Page {pages}/{pages} · 60 awards"  # clamped to the last page


def test_one_award_is_singular_in_english() -> None:
    strings = Strings.load()
    assert strings.text("awards-count-one", "en", count="1") == "1 award"
    assert strings.text("awards-count", "en", count="2") == "2 awards"


def test_test_of_time_lists_runners_up_and_mentions_after_the_award_labelled() -> None:
    def entry(title: str, kind: AwardKind, name: str, track: str | None = None) -> AwardEntry:
        ref = AwardRef(
            venue="icml", venue_name="ICML", year=2025, name=name, kind=kind, track=track
        )
        return AwardEntry(ref, Paper(title=title, authors=("A. Author",), authors_incomplete=True))

    entries = [
        entry("Mentioned", AwardKind.HONORABLE_MENTION, "Honorable Mention", "Test of Time"),
        entry("Second", AwardKind.TEST_OF_TIME, "Test of Time Runner-Up"),
        entry("Winner", AwardKind.TEST_OF_TIME, "Test of Time Award"),
    ]
    embed, pages = tot_embed(None, entries, 0, STRINGS, "en")
    assert pages == 1
    text = embed.description or ""
    assert text.index("Winner") < text.index("Second") < text.index("Mentioned")
    assert "**Second** · *Test-of-time runner-up*" in text
    assert "**Mentioned** · *Test-of-time honorable mention*" in text
    assert "**Winner**\n" in text  # the award itself needs no label
    assert "Track:" not in text
    assert text.count("A. Author et al.") == 3
    chinese, _ = tot_embed(None, entries, 0, STRINGS, "zh-TW")
    assert "*時間檢驗獎亞軍*" in (chinese.description or "")
    assert "A. Author 等" in (chinese.description or "")
