"""What curators type, turned into models or one clear refusal (no Discord, no store)."""

from __future__ import annotations

import pytest

from bot.commands.curate.inputs import (
    AwardOptions,
    arxiv_id_of,
    format_links,
    names,
    paper_from_form,
    parse_links,
)
from bot.domain.models import AwardKind, Links, Paper
from bot.errors import UserError


def _refusal(call: object, *args: object, **kwargs: object) -> UserError:
    with pytest.raises(UserError) as refused:
        call(*args, **kwargs)  # type: ignore[operator]
    return refused.value


def test_overlong_text_is_refused_not_cut() -> None:
    refusal = _refusal(paper_from_form, {"title": "x" * 501})
    assert (refusal.key, refusal.params) == (
        "curate-too-long",
        {"field": "title", "limit": 500, "length": 501},
    )
    assert paper_from_form({"title": "x" * 500}).title == "x" * 500


@pytest.mark.parametrize("hidden", ["\u202e", "\u2066", "\u200b", "\x00", "\x1b", "\ufeff"])
def test_control_and_bidi_characters_are_refused_with_their_code(hidden: str) -> None:
    refusal = _refusal(paper_from_form, {"title": f"Safe{hidden}Title"})
    assert refusal.key == "curate-bad-characters"
    assert refusal.params == {"field": "title", "code": f"U+{ord(hidden):04X}"}


def test_line_breaks_are_fine_where_a_field_takes_lines() -> None:
    paper = paper_from_form({"title": "T", "authors": "A. One\r\nB. Two; C. Three\n\n"})
    assert paper.authors == ("A. One", "B. Two", "C. Three")
    assert _refusal(paper_from_form, {"title": "T\nU"}).key == "curate-bad-characters"


@pytest.mark.parametrize(
    ("links", "fields"),
    [
        ("code javascript:alert(1)", "links.code"),
        ("pdf data:application/pdf;base64,AAAA", "links.pdf"),
        ("project https://user:pw@example.org/", "links.project"),
        ("code https://example.org/\npdf ftp://example.org/x.pdf", "links.pdf"),
    ],
)
def test_unsafe_links_are_named_in_one_message(links: str, fields: str) -> None:
    refusal = _refusal(paper_from_form, {"title": "T", "links": links})
    assert (refusal.key, refusal.params) == ("curate-invalid", {"fields": fields})


def test_several_bad_fields_are_listed_together() -> None:
    refusal = _refusal(paper_from_form, {"title": "", "doi": "nope", "links": "code javascript:x"})
    assert refusal.params == {"fields": "title, doi, links.code"}


def test_links_read_and_written_the_same_way() -> None:
    links = parse_links("code: https://example.org/c\nPDF https://example.org/p.pdf\n")
    assert links == {"code": "https://example.org/c", "pdf": "https://example.org/p.pdf"}
    assert parse_links(format_links(Links.model_validate(links))) == links
    assert _refusal(parse_links, "https://example.org/").key == "curate-bad-link-line"


def test_an_edit_keeps_what_the_form_does_not_show_and_clears_what_it_leaves_blank() -> None:
    base = Paper(
        title="Old",
        arxiv="2502.06768v2",
        doi="10.5555/X",
        abstract="An abstract.",
        summaries={"en": "A summary."},
        links=Links(code="https://example.org/c"),
    )
    edited = paper_from_form({"title": "New", "abstract": "", "links": ""}, base=base)
    assert (edited.title, edited.abstract, edited.links) == ("New", None, Links())
    assert (edited.arxiv, edited.arxiv_version, edited.doi) == ("2502.06768", 2, "10.5555/x")
    assert edited.summaries == {"en": "A summary."}


def test_arxiv_ids_keep_their_version_and_bad_ones_are_refused() -> None:
    assert arxiv_id_of(" https://arxiv.org/abs/2502.06768v2 ") == "2502.06768v2"
    assert arxiv_id_of("arXiv:hep-th/9901001") == "hep-th/9901001"
    for bad in ("2502.1", "2513.00001", "javascript:alert(1)", "2502.06768\u202e"):
        assert _refusal(arxiv_id_of, bad).key in {"curate-bad-arxiv", "curate-bad-characters"}


def test_award_options_name_the_award_and_check_the_source() -> None:
    options = AwardOptions("icml", 2025, AwardKind.TEST_OF_TIME, source="https://icml.cc/a")
    built = options.award(Paper(title="T"))
    assert (built.name, built.track, built.sources[0].url) == (
        "Test of Time Award",
        None,
        "https://icml.cc/a",
    )
    assert names(None) == []
    bad = AwardOptions("icml", 2025, AwardKind.BEST, source="https://a:b@icml.cc/")
    assert _refusal(bad.check).params == {"fields": "url"}
