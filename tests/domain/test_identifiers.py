from __future__ import annotations

import string

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.domain.identifiers import ArxivId, IdentifierError, normalize_doi, parse_arxiv_id

versions = st.none() | st.integers(min_value=1, max_value=9999)


@st.composite
def new_form_ids(draw: st.DrawFn) -> str:
    """YYMM.NNNN before 2015, YYMM.NNNNN from January 2015 (1501) on."""
    yymm = draw(st.integers(0, 99)) * 100 + draw(st.integers(1, 12))
    digits = 5 if yymm >= 1501 else 4
    number = draw(st.integers(0, 10**digits - 1))
    return f"{yymm:04d}.{number:0{digits}d}"


@st.composite
def old_form_ids(draw: st.DrawFn) -> str:
    """archive[.SUBJECT]/YYMMNNN: hep-th/9901001, math.GT/0309136, cs.AI/0102004."""
    archive = draw(st.sampled_from(["hep-th", "hep-ph", "math", "astro-ph", "cs", "cond-mat"]))
    if archive in {"math", "cs"} and draw(st.booleans()):
        archive += "." + draw(st.text(string.ascii_uppercase, min_size=2, max_size=2))
    yymm = draw(st.integers(91, 107)) % 100 * 100 + draw(st.integers(1, 12))
    return f"{archive}/{yymm:04d}{draw(st.integers(0, 999)):03d}"


ids = new_form_ids() | old_form_ids()


def _with_version(base: str, version: int | None) -> str:
    return base if version is None else f"{base}v{version}"


@given(ids, versions)
@example("2502.06768", 2)
@example("1412.6980", None)
@example("hep-th/9901001", 1)
@example("math.GT/0309136", None)
def test_parse_round_trips(base: str, version: int | None) -> None:
    text = _with_version(base, version)
    parsed = parse_arxiv_id(text)
    assert parsed == ArxivId(base, version)
    assert str(parsed) == text
    assert parse_arxiv_id(str(parsed)) == parsed


@given(ids, versions)
def test_links_and_prefixes_parse_to_the_same_id(base: str, version: int | None) -> None:
    parsed = parse_arxiv_id(_with_version(base, version))
    forms = [
        parsed.abs_url,
        parsed.pdf_url,
        parsed.pdf_url + ".pdf",
        parsed.abs_url.replace("https://", "http://www.") + "?context=cs#top",
        f"https://export.arxiv.org/abs/{parsed}/",
        f"arXiv:{parsed}",
        f"  {parsed}\n",
    ]
    for form in forms:
        assert parse_arxiv_id(form) == parsed, form


@given(ids, versions)
def test_the_version_is_kept_apart(base: str, version: int | None) -> None:
    parsed = parse_arxiv_id(_with_version(base, version))
    assert parsed.id == base
    assert parsed.version == version
    assert parse_arxiv_id(parsed.id) == ArxivId(base)


def test_old_form_subject_classes_are_upper_cased() -> None:
    assert parse_arxiv_id("math.gt/0309136v2") == ArxivId("math.GT/0309136", 2)


@pytest.mark.parametrize(
    "text",
    [
        "2513.00001",  # month 13
        "2500.00001",  # month 00
        "2502.0676",  # four digits after 2015
        "1412.69801",  # five digits before 2015
        "2502.06768v0",
        "hep-th/990100",
        "HEP-TH/9901001",
        "https://example.org/abs/2502.06768",
        "２５０２.０６７６８",  # full-width digits (an IME's full-width mode)
        "٢٥٠٢.٠٦٧٦٨",  # Arabic-Indic digits
        "hep-th/٩٩٠١٠٠١",
        "",
    ],
)
def test_not_arxiv_ids(text: str) -> None:
    with pytest.raises(IdentifierError):
        parse_arxiv_id(text)


@given(st.text())
@example("\u202e2502.06768")
@example("2502.06768\x00")
@example("arXiv:")
@example("https://arxiv.org/abs/")
def test_any_text_parses_or_raises_identifier_error(text: str) -> None:
    try:
        parsed = parse_arxiv_id(text)
    except IdentifierError:
        return
    # Whatever is accepted is a plain ASCII id that parses back to itself.
    assert str(parsed).isascii()
    assert parse_arxiv_id(str(parsed)) == parsed


prefixes = st.text(string.digits, min_size=4, max_size=9).map(lambda code: f"10.{code}")
ascii_suffixes = st.text(string.ascii_letters + string.digits + "-._;()/:<>", min_size=1)
suffixes = ascii_suffixes | st.text(
    st.characters(exclude_categories=["C", "Z"]), min_size=1
).filter(lambda s: not any(ch.isspace() for ch in s))
dois = st.builds(lambda prefix, suffix: f"{prefix}/{suffix}", prefixes, suffixes)
doi_forms = st.sampled_from(
    ["{}", "doi:{}", "DOI: {}", "https://doi.org/{}", "http://dx.doi.org/{}", "  {}\n"]
)


@given(dois, doi_forms)
@example("10.1145/3292500.3330701", "https://doi.org/{}")
def test_normalize_doi_is_idempotent(doi: str, form: str) -> None:
    normalized = normalize_doi(form.format(doi))
    assert normalize_doi(normalized) == normalized
    assert normalized == normalize_doi(doi)


@given(st.builds(lambda prefix, suffix: f"{prefix}/{suffix}", prefixes, ascii_suffixes))
@example("10.1145/ABC.Def")
def test_normalize_doi_ignores_case(doi: str) -> None:
    assert normalize_doi(doi.upper()) == normalize_doi(doi.lower()) == normalize_doi(doi)
    assert normalize_doi(doi) == doi.lower()


@given(st.text().filter(lambda text: "/" not in text or "10." not in text))
@example("")
@example("10.1145")
@example("11.1145/abc")
@example("https://example.org/10.1145/abc")
def test_normalize_doi_rejects_what_is_not_a_doi(text: str) -> None:
    with pytest.raises(IdentifierError):
        normalize_doi(text)


@pytest.mark.parametrize(
    "text",
    [
        "10.123/abc",  # three-digit registrant
        "10.1145/",
        "10.1145/a b",
        "10.１１４５/abc",  # full-width digits
        "10.1145/abc\u202eevil",  # a bidi override would disguise the DOI where it is shown
        "10.1145/a\u200bb",
        "10.1145/a\x00b",
    ],
)
def test_not_dois(text: str) -> None:
    with pytest.raises(IdentifierError):
        normalize_doi(text)
