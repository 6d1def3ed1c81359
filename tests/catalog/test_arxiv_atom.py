"""parse_feed over every recorded arXiv reply, the empty and error feeds included."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest

from bot.catalog.arxiv.atom import parse_feed
from bot.catalog.arxiv.errors import ArxivBadResponseError, ArxivQueryError
from bot.domain.identifiers import ArxivId
from laurel_console.localarxiv.feeds import error_feed
from tests.support.arxiv_records import (
    NO_RECORDINGS,
    RECORDINGS,
    only_entry,
    recorded_body,
)

RECORDED = sorted(RECORDINGS.glob("*.json")) if RECORDINGS.is_dir() else []


@pytest.mark.parametrize(
    "path",
    RECORDED or [pytest.param(None, marks=pytest.mark.skip(NO_RECORDINGS))],
    ids=lambda p: p.name if p else "absent",
)
def test_every_recorded_reply_parses(path: Path) -> None:
    body = recorded_body(path.name)
    text = body.decode("utf-8")
    feed = parse_feed(body)
    expected_total = int(re.search(r"<opensearch:totalResults>(\d+)<", text)[1])  # type: ignore[index]
    asked = int(re.search(r"max_results=(\d+)", json.loads(path.read_text())["url"])[1])  # type: ignore[index]
    assert feed.total_results == expected_total
    assert len(feed.entries) == text.count("<entry>") == min(asked, expected_total)
    for entry in feed.entries:
        assert entry.title
        assert entry.abstract
        assert entry.authors
        assert entry.version is not None
        assert entry.id.version is None
        assert entry.abs_url == f"https://arxiv.org/abs/{entry.versioned_id}"
        assert entry.pdf_url == f"https://arxiv.org/pdf/{entry.versioned_id}"
        assert entry.primary_category in entry.categories
        assert entry.published is not None
        assert entry.published.tzinfo is not None
        # Folded white space, and no Latin-1 mojibake ("WÃ¼bben") left anywhere.
        for text_field in (entry.title, entry.abstract, *entry.authors):
            assert "\n" not in text_field
            assert "  " not in text_field
            assert text_field == text_field.strip()
            assert "Ã" not in text_field
            assert "Î" not in text_field
    assert sum(e.doi is not None for e in feed.entries) == text.count("<arxiv:doi>")


def test_an_id_arxiv_does_not_know_is_an_empty_feed() -> None:
    for name in (
        "id_0000.0000_s0_m100_8b51d9633a68.json",
        "id_0808.05394_s0_m100_7b0c7d0a7cdd.json",
    ):
        feed = parse_feed(recorded_body(name))
        assert feed.entries == ()
        assert feed.total_results == 0


def test_new_form_entry_exactly() -> None:
    entry = only_entry("id_1605.08386_s0_m100_199195aa31ad.json")
    assert entry.id == ArxivId("1605.08386")
    assert entry.version == 1
    assert entry.title == "Heat-bath random walks with Markov bases"
    assert entry.authors == ("Caprice Stanley", "Tobias Windisch")
    assert entry.abstract.startswith("Graphs on lattice points are studied whose edges")
    assert entry.abstract.endswith("is an expander in fixed dimension.")
    assert entry.published == dt.datetime(2016, 5, 26, 17, 59, 46, tzinfo=dt.UTC)
    assert entry.updated == entry.published
    assert entry.primary_category == "math.CO"
    assert entry.categories == ("math.CO", "math.ST")
    assert entry.comment == "20 pages, 3 figures"
    assert entry.doi is None
    assert entry.journal_ref is None


def test_old_form_entry_with_journal_ref_and_escaped_text() -> None:
    entry = only_entry("id_astro-ph_0601001_s0_m100_3150dca9dc76.json")
    assert entry.id == ArxivId("astro-ph/0601001")
    assert entry.versioned_id == ArxivId("astro-ph/0601001", 1)
    assert entry.journal_ref == "ActaAstron.56:1-50,2006"
    assert entry.authors == ("Andrew Gould", "Susan Dorsher", "B. Scott Gaudi", "Andrzej Udalski")
    assert entry.abstract.startswith("We derive the frequencies")  # leading spaces dropped
    assert "Gould & Morgan (2003)" in entry.abstract
    assert "V_max<17.5" in entry.abstract
    assert entry.pdf_url == "https://arxiv.org/pdf/astro-ph/0601001v1"


def test_full_author_list_in_utf8() -> None:
    entry = only_entry("id_1707.08567_s0_m100_6a1afebfc6a3.json")
    assert len(entry.authors) == 34
    assert entry.authors[0] == "Kees A. Schouhamer Immink"
    assert entry.authors[-2:] == ("Dirk Wübben", "Hirosuke Yamamoto")


def test_versioned_id_and_a_one_character_title() -> None:
    entry = only_entry("id_2104.12255v1_s0_m100_6ae69987ffe1.json")
    assert entry.versioned_id == ArxivId("2104.12255", 1)
    assert entry.title == "0"
    assert entry.authors == ("Quan Thoi Minh Nguyen",)


def test_search_feed_entry_with_doi_and_journal_ref() -> None:
    feed = parse_feed(recorded_body("q_testing_s0_m10_bc5a6c384fe9.json"))
    first = feed.entries[0]
    assert first.id == ArxivId("2202.12139")
    assert first.title == (
        "Testing Deep Learning Models: A First Comparative Study of Multiple Testing Techniques"
    )
    assert first.doi == "10.1109/icstw55395.2022.00035"  # DOIs are kept in canonical case
    assert first.journal_ref is not None
    assert first.journal_ref.startswith("Artificial Intelligence")
    assert first.authors == ("Mohit Kumar Ahuja", "Arnaud Gotlieb", "Helge Spieker")
    assert first.categories == ("cs.SE", "cs.LG")


ARXIV_ERROR_FEED = b"""<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">
  <id>http://arxiv.org/api/kvuntZ8c9a4Eq5CF7KY03nMug+Q</id>
  <title>ArXiv Query: search_query=&amp;id_list=1234.12345</title>
  <opensearch:totalResults>1</opensearch:totalResults>
  <entry xmlns:arxiv="http://arxiv.org/schemas/atom">
    <id>http://arxiv.org/api/errors#incorrect_id_format_for_1234.12345</id>
    <title>Error</title>
    <summary>incorrect id format for 1234.12345</summary>
    <updated>2007-10-12T00:00:00-04:00</updated>
    <link href="http://arxiv.org/api/errors#incorrect_id_format_for_1234.12345" rel="alternate"/>
    <author><name>arXiv api core</name></author>
  </entry>
</feed>
"""


def test_error_entry_is_an_error_with_arxivs_message() -> None:
    with pytest.raises(ArxivQueryError) as raised:
        parse_feed(ARXIV_ERROR_FEED)
    assert raised.value.message == "incorrect id format for 1234.12345"
    assert raised.value.key == "arxiv-query-error"


def test_the_stand_ins_error_feed_reads_the_same() -> None:
    body = error_feed(
        "max_results must be an integer", search_query="", id_list="", start="0", max_results="x"
    )
    with pytest.raises(ArxivQueryError, match="arxiv-query-error") as raised:
        parse_feed(body)
    assert raised.value.params == {"message": "max_results must be an integer"}


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"<html><body>Rate exceeded.</body></html>", "not an Atom feed"),
        (b"Service Unavailable", "not XML"),
        (b"", "not XML"),
        (
            b'<?xml version="1.0"?><!DOCTYPE f [<!ENTITY a "aaaa">]>'
            b'<feed xmlns="http://www.w3.org/2005/Atom">&a;</feed>',
            "entities",
        ),
    ],
)
def test_what_is_not_a_feed_is_a_bad_response(body: bytes, reason: str) -> None:
    with pytest.raises(ArxivBadResponseError) as raised:
        parse_feed(body)
    assert reason in raised.value.reason


def test_text_is_folded_and_cleaned() -> None:
    body = """<feed xmlns="http://www.w3.org/2005/Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">
      <entry>
        <id>http://arxiv.org/abs/2502.06768v3</id>
        <title>Attention\u202e Is All\n   You Need</title>
        <summary>  First line\n  second\u200b line.  </summary>
        <author><name>  Ada\n Lovelace </name></author>
        <author><name> </name></author>
        <arxiv:doi>not-a-doi</arxiv:doi>
      </entry>
    </feed>""".encode()
    (entry,) = parse_feed(body).entries
    assert entry.title == "Attention Is All You Need"
    assert entry.abstract == "First line second line."
    assert entry.authors == ("Ada Lovelace",)
    assert entry.doi is None  # a malformed DOI is dropped, not stored
    assert entry.versioned_id == ArxivId("2502.06768", 3)
    assert entry.abs_url == "https://arxiv.org/abs/2502.06768v3"
    assert entry.pdf_url is None


def test_an_entry_without_a_title_is_no_paper() -> None:
    body = b"""<feed xmlns="http://www.w3.org/2005/Atom">
      <entry><id>http://arxiv.org/abs/2502.06768v1</id><title> </title><summary/></entry>
    </feed>"""
    assert parse_feed(body).entries == ()
