from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import TypeVar

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bot.domain.text import clean_text, title_key, truncate

ZERO_WIDTH = set("\u200b\u200c\u200d\ufeff")
BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

lengths = st.integers(min_value=1, max_value=300)

# Inputs that once broke a property, or that attackers and editors produce.
NASTY = [
    "\u202eevil",  # right-to-left override: renders as "live"
    "a\u200bb",  # zero-width space
    "\x00",
    "\ufeffBOM at the start",
    "e\u200b\u0301",  # removing the invisible character joins e and the accent: é
    "e\x00\u0301",  # the same with a control character
    "\u1100\u200b\u1161",  # Hangul jamo that compose to 가 once the ZWSP is gone
    "🏆 Best Paper 👩‍🔬🇹🇼",
    "機器之心：ICML 2025 杰出論文",
    "  spaced\t\tout\r\n\r\n\r\nparagraphs  ",
    "\u0344" * 5,  # each expands to two characters under NFC
]


T = TypeVar("T", bound=Callable[..., None])


def _examples(test: T) -> T:
    for text in NASTY:
        test = example(text, 5, False)(example(text, 200, True)(test))
    return test


@_examples
@given(st.text(), lengths, st.booleans())
def test_clean_text_leaves_no_control_invisible_or_bidi_characters(
    text: str, max_length: int, multiline: bool
) -> None:
    cleaned = clean_text(text, max_length=max_length, multiline=multiline)
    for ch in cleaned:
        assert unicodedata.category(ch) != "Cc" or (multiline and ch == "\n"), repr(cleaned)
        assert ch not in ZERO_WIDTH | BIDI, repr(cleaned)


@_examples
@given(st.text(), lengths, st.booleans())
def test_clean_text_respects_max_length(text: str, max_length: int, multiline: bool) -> None:
    assert len(clean_text(text, max_length=max_length, multiline=multiline)) <= max_length


@_examples
@given(st.text(), lengths, st.booleans())
def test_clean_text_is_idempotent(text: str, max_length: int, multiline: bool) -> None:
    once = clean_text(text, max_length=max_length, multiline=multiline)
    assert clean_text(once, max_length=max_length, multiline=multiline) == once


@_examples
@given(st.text(), lengths, st.booleans())
def test_clean_text_returns_nfc_without_outer_space(
    text: str, max_length: int, multiline: bool
) -> None:
    cleaned = clean_text(text, max_length=max_length, multiline=multiline)
    assert unicodedata.is_normalized("NFC", cleaned)
    assert cleaned == cleaned.strip()


@given(st.text())
def test_single_line_text_has_single_spaces(text: str) -> None:
    cleaned = clean_text(text, max_length=1_000)
    assert "  " not in cleaned
    assert not any(ch.isspace() and ch != " " for ch in cleaned)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("\u202eevil", "evil"),
        ("a\u200bb", "ab"),
        ("\x00", ""),
        ("\ufeffBOM at the start", "BOM at the start"),
        ("e\u200b\u0301", "\u00e9"),
        ("\u1100\u200b\u1161", "\uac00"),
        ("Cafe\u0301", "Caf\u00e9"),
        ("🏆 Best Paper 🇹🇼", "🏆 Best Paper 🇹🇼"),  # emoji and flags are kept
        ("機器之心：ICML 2025 杰出論文", "機器之心：ICML 2025 杰出論文"),
        ("  spaced\t\tout\r\n\r\n\r\nparagraphs  ", "spaced out paragraphs"),
    ],
)
def test_clean_text_examples(text: str, expected: str) -> None:
    assert clean_text(text, max_length=200) == expected


def test_clean_text_keeps_paragraphs_when_multiline() -> None:
    text = "  one\r\ntwo \u200b\r\n\r\n\r\n \t three\x00 \n\n\n"
    assert clean_text(text, max_length=200, multiline=True) == "one two\n\nthree"


def test_clean_text_cuts_at_a_word_and_marks_the_cut() -> None:
    assert clean_text("Attention Is All You Need", max_length=20) == "Attention Is All…"
    assert clean_text("機器之心機器之心", max_length=5) == "機器之心…"


@given(st.text(), st.integers(min_value=0, max_value=50))
def test_truncate_keeps_short_strings(text: str, extra: int) -> None:
    assert truncate(text, len(text) + extra) == text


@given(st.text(min_size=2), st.data())
def test_truncate_cuts_long_strings_and_marks_them(text: str, data: st.DataObject) -> None:
    max_length = data.draw(st.integers(min_value=1, max_value=len(text) - 1))
    cut = truncate(text, max_length)
    assert len(cut) <= max_length
    assert cut.endswith("…")
    assert text.startswith(cut[:-1])


def test_truncate_refuses_a_length_that_cannot_hold_the_ellipsis() -> None:
    with pytest.raises(ValueError, match="max_length"):
        truncate("hello", 0)


def _case_quirk(ch: str) -> bool:
    # Unicode's own case mappings disagree for these: "ı".upper() is "I", whose lower case is
    # "i"; and the Greek iota subscript (U+0345, inside e.g. ᾳ) upper-cases to a full iota Ι
    # while the accent stripping drops the subscript.
    return ch == "ı" or "\u0345" in unicodedata.normalize("NFD", ch)


@given(st.text(st.characters(exclude_categories=["Cs"]).filter(lambda ch: not _case_quirk(ch))))
@example("Train for the Worst, Plan for the Best")
@example("ΣΊΣΥΦΟΣ straße ǅemal")
def test_title_key_ignores_case(text: str) -> None:
    key = title_key(text)
    assert title_key(text.upper()) == key
    assert title_key(text.lower()) == key
    assert title_key(text.casefold()) == key


word_characters = st.characters(categories=["L", "M", "N"])
separators = st.text(st.characters(categories=["P", "Zs"]) | st.sampled_from("\t\n_"))


@given(st.lists(st.text(word_characters, min_size=1), min_size=1), st.data())
def test_title_key_ignores_punctuation_and_spacing(words: list[str], data: st.DataObject) -> None:
    seps = [data.draw(separators) for _ in range(len(words) + 1)]
    seps[1:-1] = [sep or " " for sep in seps[1:-1]]  # words need something between them
    title = seps[0] + "".join(word + sep for word, sep in zip(words, seps[1:], strict=True))
    expected = " ".join(key for key in map(title_key, words) if key)
    assert title_key(title) == expected


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Train for the Worst, Plan for the Best", "train for the worst plan for the best!"),
        ("Déjà Vu: A Study", "deja vu a study"),
        ("Tree-of-Thoughts", "tree_of_thoughts"),
        ("ＧＰＴ－４ Technical Report", "gpt 4 technical report"),
        ("機器之心 ICML", "機器之心  icml"),
    ],
)
def test_title_key_examples(a: str, b: str) -> None:
    assert title_key(a) == title_key(b)


def test_title_key_keeps_words_apart() -> None:
    assert title_key("Deep Learning") != title_key("Deep Earning")
    assert title_key("機器之心") != title_key("機器")


@pytest.mark.parametrize(
    ("typed", "seen"),
    [
        ("atten\u200btion", "attention"),  # zero-width space (issue 22)
        ("\u202eattention", "attention"),  # right-to-left override (issue 22)
        ("\u2066gated\u2069 attention", "gated attention"),  # bidi isolates
        ("soft\u00adhyphen", "softhyphen"),
        ("tag\U000e0041s", "tags"),  # a tag character: format (Cf), in no list of ours
        ("  two\n lines\t", "two lines"),
        ("e\u200b\u0301", "\u00e9"),  # what joins once the invisible goes is composed
    ],
)
def test_visible_is_what_a_person_sees(typed: str, seen: str) -> None:
    from bot.domain.text import visible

    assert visible(typed) == seen


@given(st.text())
def test_visible_text_has_no_format_or_control_characters(text: str) -> None:
    from bot.domain.text import visible

    kept = {unicodedata.category(ch) for ch in visible(text)}
    assert not kept & {"Cc", "Cf", "Cs", "Co", "Cn"}


def test_catalogue_text_loses_every_format_character_too() -> None:
    assert clean_text("Gated\U000e0041 \ufff9Attention", max_length=100) == "Gated Attention"
