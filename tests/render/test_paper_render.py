"""The /paper renderers: what data can and cannot do to an embed."""

from __future__ import annotations

import pytest

from bot.domain.models import AwardKind, AwardRef, Language, Links, Paper, Source, StoredPaper
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
    assert authors_text(authors, strings, "zh-TW", shown=3).endswith("及另外 17 位作者")
    assert authors_text(authors[:3], strings, "en", shown=3) == "Author 0, Author 1 and Author 2"
    # One name left over is named, never hidden behind "and 1 more" (issue 25, item 4).
    assert authors_text(authors[:4], strings, "en", shown=3) == (
        "Author 0, Author 1, Author 2 and Author 3"
    )
    assert authors_text(authors[:4], strings, "zh-CN", shown=3) == (
        "Author 0、Author 1、Author 2 和 Author 3"
    )


def test_data_is_escaped_and_links_cannot_break_out(strings: Strings) -> None:
    stored = _stored(
        title="**Bold** _claims_ @everyone",
        authors=["A `tick`"],
        links=Links(project="https://example.org/a_(b)"),
        sources=(Source(url="https://example.org/s", document="Doc ~~x~~"),),
    )
    embed = paper_embed(stored, strings, "en")
    assert embed.title == "\\*\\*Bold\\*\\* \\_claims\\_ @everyone"
    fields = {f.name: f.value for f in embed.fields}
    assert fields["Authors"] == "A \\`tick\\`"
    assert fields["Awards"] == "ICML 2025 · Best \\*Paper\\*"
    assert fields["Links"] == "[Project](https://example.org/a_%28b%29)"
    assert fields["Source"] == "[example.org](https://example.org/s)"  # one link, by its site
    assert embed.url == "https://example.org/a_(b)"
    assert embed.footer.text == "Laurel paper #7"


def test_only_present_fields_are_shown_and_no_placeholder_for_a_summary(strings: Strings) -> None:
    embed = paper_embed(_stored(), strings, "en")
    # Authors unknown are said so, not left out (issue 24); links: a search, below.
    assert [f.name for f in embed.fields] == ["Authors", "Awards", "Links"]
    assert embed.fields[0].value == "The authors are not yet in the catalogue"
    assert embed.description is None


def test_summary_falls_back_to_another_script_then_the_abstract(strings: Strings) -> None:
    chinese = _stored(summaries={"zh-CN": "简体摘要"}).paper
    assert summary_text(chinese, strings, "zh-TW") == "简体摘要"
    abstract = _stored(abstract="First sentence. " + "x" * 800 + ".").paper
    assert summary_text(abstract, strings, "en") == "*From the abstract:* First sentence."
    assert summary_text(_stored().paper, strings, "en") is None


def test_sentences_are_kept_whole() -> None:
    assert sentences_within("One. Two. Three.", 10) == "One. Two."
    assert sentences_within("第一句。第二句。", 5) == "第一句。"
    assert sentences_within("No end in sight " * 10, 20).endswith("…")
    assert sentences_within("Version 3.5 is out.", 100) == "Version 3.5 is out."


def test_a_long_list_keeps_whole_entries(strings: Strings) -> None:
    papers = [
        _stored(title="Long title " * 40, authors=["X"] * 3, doi=f"10.1000/{n}") for n in range(30)
    ]
    embed = list_embed("Results", papers, strings, "en")
    assert embed.description is not None
    assert len(embed.description) <= 4096
    assert embed.description.rstrip().endswith("Best \\*Paper\\*")


def test_a_paper_without_a_summary_opens_with_its_abstract_labelled(strings: Strings) -> None:
    abstract = "We study quokkas. " * 50 + "They smile."
    for language, label in [("en", "*From the abstract:* "), ("zh-TW", "*節錄自論文摘要：*")]:
        embed = paper_embed(_stored(abstract=abstract), strings, language)  # type: ignore[arg-type]
        assert embed.description is not None
        assert embed.description.startswith(label + "We study quokkas.")
        assert embed.description.endswith("quokkas.")  # whole sentences, cut before 700 chars
        assert len(embed.description) < 700 + len(label)
    ours = paper_embed(_stored(abstract=abstract, summaries={"en": "Ours."}), strings, "en")
    assert ours.description == "Ours."


@pytest.mark.parametrize(
    ("language", "expected"),
    [("en", "A, B et al."), ("zh-TW", "A、B 等"), ("zh-CN", "A、B 等")],
)
def test_a_cut_short_author_list_says_so(strings: Strings, language: str, expected: str) -> None:
    assert authors_text(["A", "B"], strings, language, incomplete=True) == expected  # type: ignore[arg-type]
    many = [f"Author {n}" for n in range(20)]
    cut = authors_text(many, strings, "en", shown=3, incomplete=True)
    assert cut == "Author 0, Author 1, Author 2 et al."  # no "and 17 more": we do not know
    embed = paper_embed(_stored(authors=["John Schulman"], authors_incomplete=True), strings, "en")
    assert {f.name: f.value for f in embed.fields}["Authors"] == "John Schulman et al."
    listed = list_embed("R", [_stored(authors=["J. S."], authors_incomplete=True)], strings, "en")
    assert "J. S. et al." in (listed.description or "")


def test_a_paper_with_no_link_gets_a_labelled_title_search(strings: Strings) -> None:
    stored = _stored(title="Gated Attention (for LLMs): *Non-linearity*")
    search = (
        "https://arxiv.org/search/?query=Gated+Attention+%28for+LLMs%29%3A+%2ANon-linearity%2A"
        "&searchtype=title"
    )
    fields = {f.name: f.value for f in paper_embed(stored, strings, "en").fields}
    assert fields["Links"] == f"No link to the paper yet · [Search arXiv for this title]({search})"
    zh = {f.name: f.value for f in paper_embed(stored, strings, "zh-CN").fields}
    assert zh["链接"] == f"目录中还没有论文链接 · [在 arXiv 搜索这个标题]({search})"
    assert paper_embed(stored, strings, "en").url is None  # the title never links to a search
    listed = list_embed("R", [stored], strings, "zh-TW")
    assert f"[在 arXiv 搜尋這個標題]({search})" in (listed.description or "")


def test_a_doi_or_any_link_is_enough_and_shown(strings: Strings) -> None:
    with_doi = paper_embed(_stored(doi="10.1000/xyz"), strings, "en")
    fields = {f.name: f.value for f in with_doi.fields}
    assert fields["Links"] == "[DOI](https://doi.org/10.1000/xyz)"
    linked = _stored(links=Links(openreview="https://openreview.net/forum?id=x"), doi="10.1000/a")
    value = {f.name: f.value for f in paper_embed(linked, strings, "en").fields}["Links"]
    assert (
        value
        == "[OpenReview](https://openreview.net/forum?id=x) · [DOI](https://doi.org/10.1000/a)"
    )
    listed = list_embed("R", [linked], strings, "en")
    assert "Search arXiv" not in (listed.description or "")


def test_the_research_area_is_named_in_the_readers_language(strings: Strings) -> None:
    filed = _stored(area="Computer Vision")
    for language, name in (("en", "Research area"), ("zh-TW", "研究領域"), ("zh-CN", "研究领域")):
        fields = {f.name: f.value for f in paper_embed(filed, strings, language).fields}  # type: ignore[arg-type]
        assert (
            fields[name]
            == {"en": "Computer Vision", "zh-TW": "電腦視覺", "zh-CN": "计算机视觉"}[language]
        )
    unfiled = {f.name for f in paper_embed(_stored(), strings, "en").fields}
    assert "Research area" not in unfiled


def test_a_code_repository_alone_is_no_link_to_the_paper(strings: Strings) -> None:
    embed = paper_embed(_stored(links=Links(code="https://github.com/x/y")), strings, "en")
    links = {f.name: f.value for f in embed.fields}["Links"] or ""
    assert links.startswith("[Code](https://github.com/x/y) · ")
    assert "https://arxiv.org/search/?" in links  # a labelled search for the paper itself
    assert embed.url is None  # the title does not open the code as if it were the paper


def test_a_paper_from_another_year_than_its_award_says_so(strings: Strings) -> None:
    """A test-of-time award's paper (published years before): the card says when."""

    def awards(stored: StoredPaper, language: Language) -> str | None:
        return {f.name: f.value for f in paper_embed(stored, strings, language).fields}[
            strings.text("paper-awards", language)
        ]

    assert awards(_stored(year=2012), "en") == "ICML 2025 · Best \\*Paper\\* · paper from 2012"
    assert (awards(_stored(year=2012), "zh-CN") or "").endswith(" · 2012 年的论文")
    assert awards(_stored(year=2025), "en") == "ICML 2025 · Best \\*Paper\\*"  # the same year
    assert awards(_stored(), "en") == "ICML 2025 · Best \\*Paper\\*"  # no year known
