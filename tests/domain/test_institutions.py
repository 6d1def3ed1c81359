"""The institution table: every name means one institution, and the catalogue's are all there."""

from __future__ import annotations

import collections
import tomllib
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.catalog.bundled import DATA_DIR
from bot.domain.institutions import (
    Institution,
    InstitutionAliases,
    load_institutions,
    name_key,
    parse_institutions,
)

TABLE = load_institutions()


def test_every_chinese_name_says_where_it_comes_from() -> None:
    for institution in TABLE:
        assert institution.zh_tw, institution.name
        assert institution.zh_cn, institution.name
        assert institution.chinese in {"own", "ours"}, institution.name
        if institution.chinese == "own":
            assert (institution.source or "").startswith("http"), institution.name


@pytest.mark.parametrize(
    ("row", "expected"),
    [
        ('name = "A"\nzh-tw = "甲"', "unknown key(s) zh-tw"),
        ('name = "A"\nzh-TW = "甲"\nzh-CN = "甲"', '`chinese` must say "own" or "ours"'),
        ('name = "A"\nzh-TW = "甲"\nzh-CN = "甲"\nchinese = "own"', "needs the `source`"),
    ],
)
def test_a_row_that_loses_or_misattributes_a_name_is_refused(row: str, expected: str) -> None:
    with pytest.raises(ValueError, match="institutions\\[1\\] \\(A\\)") as refused:
        parse_institutions(f"[[institutions]]\n{row}\n")
    assert expected in str(refused.value)


@pytest.mark.parametrize("typed", ["清华", "清華大學", "Tsinghua", "tsinghua university", "THU"])
def test_the_names_people_type_find_tsinghua(typed: str) -> None:
    found = TABLE.find(typed)
    assert found is not None
    assert found.name == "Tsinghua University"


def test_names_are_shown_in_the_readers_language() -> None:
    assert TABLE.display("Tsinghua University", "zh-TW") == "清華大學"
    assert TABLE.display("tsinghua university", "zh-CN") == "清华大学"
    assert TABLE.display("清華大學", "en") == "Tsinghua University"
    assert TABLE.display("Some Lab Nobody Listed", "zh-TW") == "Some Lab Nobody Listed"


def test_a_name_may_not_mean_two_institutions() -> None:
    with pytest.raises(ValueError, match="names both"):
        InstitutionAliases(
            [Institution("A University", ("AU",)), Institution("Another University", ("AU",))]
        )


def test_mentions_are_whole_words_for_latin_names_anywhere_for_chinese() -> None:
    rest, found = TABLE.mentioned("清华的 diffusion 论文 from MIT")
    assert [i.name for _, i in found] == [
        "Massachusetts Institute of Technology",
        "Tsinghua University",
    ]
    assert "diffusion" in rest
    assert "mit" not in rest
    assert "清华" not in rest
    assert TABLE.mentioned("submit a commit")[1] == []  # "mit" inside words is not MIT


def test_longer_names_win_over_their_prefixes() -> None:
    _, found = TABLE.mentioned("Google Research")
    assert [i.name for _, i in found] == ["Google Research"]


def test_one_institution_under_two_spellings_is_listed_once() -> None:
    listed = ["ETH Zurich", "MIT", "ETH Zürich", "Cohere For Ai", "Meta AI", "Cohere for AI"]
    listed += ["Facebook AI Research", "Massachusetts Institute of Technology", "Google"]
    # The first spelling stays, in first-seen order; names the table does not know are one
    # when they differ only in case; distinct labs the table keeps apart stay apart.
    assert TABLE.unique(listed) == ("ETH Zurich", "MIT", "Cohere For Ai", "Meta AI", "Google")
    assert TABLE.unique(["Google", "Google Research", "Google DeepMind"]) == (
        "Google",
        "Google Research",
        "Google DeepMind",
    )
    assert TABLE.unique([]) == ()


def _bundled_affiliations() -> collections.Counter[str]:
    """How many papers of the bundled catalogue name each institution (English spelling)."""
    counts: collections.Counter[str] = collections.Counter()
    seen: set[tuple[str, str]] = set()
    for path in sorted(Path(DATA_DIR).rglob("*.toml")):
        for award in tomllib.loads(path.read_text(encoding="utf-8")).get("awards", []):
            paper = award["paper"]
            for name in set(paper.get("affiliations", [])):
                found = TABLE.find(name)
                key = found.name if found else name
                if (paper["title"].casefold(), key) not in seen:
                    seen.add((paper["title"].casefold(), key))
                    counts[key] += 1
    return counts


def test_every_institution_named_twice_in_the_catalogue_is_in_the_table() -> None:
    counts = _bundled_affiliations()
    assert counts, "the bundled catalogue names no institutions"
    missing = sorted(name for name, n in counts.items() if n >= 2 and TABLE.find(name) is None)
    assert missing == []


@settings(max_examples=300)
@given(st.text(alphabet="清华華大學 thumitsjupku-.()", max_size=40) | st.text(max_size=40))
def test_the_one_pass_check_never_hides_a_mention(text: str) -> None:
    table = load_institutions()
    rest = name_key(text)
    named = [inst for _, pattern, inst in table._mentions if pattern.search(rest)]
    found = table.mentioned(text)[1]
    assert bool(found) == bool(named)
