"""The /paper renderers: what data can and cannot do to an embed."""

from __future__ import annotations

import pytest

from bot.domain.models import AwardKind, AwardRef, Links, Paper, Source, StoredPaper
from bot.render.i18n import Strings
from bot.render.paper import (
    authors_text,
    list_embed,
    paper_embed,
    sentences_within,
    summary_text,
)


@pytest.fixture(scope="module")
def strings() -> Strings:
    return Strings.load()


def _stored(**paper: object) -> StoredPaper:
    award = AwardRef(
        venue="icml", venue_name="ICML", year=2025, name="Best *Paper*", kind=AwardKind.BEST
    )
    return StoredPaper(id=7, paper=Paper.model_validate({"title": "T", **paper}), awards=(award,))


def test_many_authors_are_shortened_in_the_readers_language(strings: Strings) -> None:
    authors = [f"Author {n}" for n in range(20)]
    assert (
        authors_text(authors, strings, "en", shown=3) == "Author 0, Author 1, Author 2 and 17 more"
    )
    assert authors_text(authors, strings, "zh-TW", shown=3).endswith("等 17 人")
    assert authors_text(authors[:3], strings, "en", shown=3) == "Author 0, Author 1, Author 2"


def test_data_is_escaped_and_links_cannot_break_out(strings: Strings) -> None:
    stored = _stored(
        title="**Bold** _claims_ @everyone",
        authors=["A `tick`"],
        links=Links(code="https://example.org/a_(b)"),
        sources=(Source(url="https://example.org/s", document="Doc ~~x~~"),),
    )
    embed = paper_embed(stored, strings, "en")
    assert embed.title == "\\*\\*Bold\\*\\* \\_claims\\_ @everyone"
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Authors"] == "A \\`tick\\`"
    assert fields["Awards"] == "ICML 2025 · Best \\*Paper\\*"
    assert fields["Links"] == "[Code](https://example.org/a_%28b%29)"
    assert fields["Sources"] == "• [Doc \\~\\~x\\~\\~](https://example.org/s)"
    assert embed.url == "https://example.org/a_(b)"
    assert embed.footer.text == "Laurel paper #7"


def test_only_present_links_and_fields_are_shown(strings: Strings) -> None:
    embed = paper_embed(_stored(), strings, "en")
    assert [f.name for f in embed.fields] == ["Awards"]
    assert embed.description == "No summary yet."


def test_summary_falls_back_to_another_script_then_the_abstract(strings: Strings) -> None:
    chinese = _stored(summaries={"zh-CN": "简体摘要"}).paper
    assert summary_text(chinese, strings, "zh-TW") == "简体摘要"
    abstract = _stored(abstract="First sentence. " + "x" * 800 + ".").paper
    assert summary_text(abstract, strings, "en") == "From the abstract: First sentence."


def test_sentences_are_kept_whole() -> None:
    assert sentences_within("One. Two. Three.", 10) == "One. Two."
    assert sentences_within("第一句。第二句。", 5) == "第一句。"
    assert sentences_within("No end in sight " * 10, 20).endswith("…")
    assert sentences_within("Version 3.5 is out.", 100) == "Version 3.5 is out."


def test_a_long_list_keeps_whole_entries(strings: Strings) -> None:
    papers = [_stored(title="Long title " * 40, authors=["X"] * 3) for _ in range(30)]
    embed = list_embed("Results", papers, strings, "en")
    assert embed.description is not None
    assert len(embed.description) <= 4096
    assert embed.description.rstrip().endswith("Best \\*Paper\\*")
