"""How a typed query is read into terms (bot/store/search/text.py), pure: the caps on terms,
the whole-title key, CJK runs, the vocabulary's rings. Written against mutation testing's
survivors (issue 26): each test fails on one wrong edit of the code it names."""

from __future__ import annotations

from bot.domain.institutions import load_institutions
from bot.domain.vocabulary import Vocabulary
from bot.store.search.text import (
    MAX_TERMS,
    exact_key,
    is_cjk,
    match_query,
    parse,
    stems,
    tokens,
)

# Fourteen topics, more than the cap, each a ring of two names.
RINGS = Vocabulary((f"topic{n}", f"other{n}") for n in range(14))
ALL_RINGS = " ".join(f"topic{n}" for n in range(14))


def test_a_cjk_token_is_told_from_a_latin_one() -> None:
    assert is_cjk("立")
    assert not is_cjk("stereo")


def test_the_whole_title_key_is_its_folded_words_one_space_apart() -> None:
    assert exact_key("Deep  Residual Learning!") == "deep residual learning"


def test_the_whole_title_key_reads_the_first_2000_characters_and_keeps_2000() -> None:
    # The 2,001st character is not read: "y" is left out.
    assert exact_key("x" * 1999 + " y") == "x" * 64
    # Folding can lengthen a text (ﬁ → fi): the key is cut to 2,000 characters.
    assert len(exact_key("ﬁ " * 1000)) == 2000


def test_a_word_of_the_longest_length_is_kept_whole_and_a_longer_one_cut() -> None:
    assert tokens("a" * 64 + " b") == ["a" * 64, "b"]
    assert tokens("a" * 65) == ["a" * 64]


def test_fts5_takes_at_most_the_cap_of_groups_with_an_institution_named() -> None:
    query = match_query(f"Tsinghua {ALL_RINGS}", load_institutions(), RINGS)
    assert query is not None
    assert query.count(" AND ") + 1 == MAX_TERMS  # one institution, eleven topics
    assert "topic11" not in query


def test_a_ring_name_without_words_is_no_empty_phrase() -> None:
    query = match_query("alpha", None, Vocabulary([("alpha", "—")]))
    assert query == '("alpha")'


def test_the_typed_name_of_a_topic_is_not_repeated_among_its_others() -> None:
    parsed = parse("topic1", vocabulary=RINGS)
    assert parsed is not None
    assert parsed.topics == ((("topic1",), ("other1",)),)


def test_words_past_the_cap_are_dropped_and_none_is_read_as_being_typed() -> None:
    words = " ".join(f"word{n}" for n in range(12))
    parsed = parse(f"topic1 topic2 {words}", vocabulary=RINGS)
    assert parsed is not None
    assert len(parsed.topics) == 2
    assert len(parsed.terms) == MAX_TERMS - 2
    assert parsed.prefix is None  # "word9", the last kept, is not what was being typed
    short = parse("topic1 word0 word1", vocabulary=RINGS)
    assert short is not None
    assert short.prefix == "word1"  # nothing dropped: the last word is still being typed


def test_a_cjk_run_is_a_phrase_of_its_characters() -> None:
    parsed = parse("立體匹配 stereo")
    assert parsed is not None
    assert parsed.terms == (("立", "體", "匹", "配"),)
    assert parsed.prefix == "stereo"


def test_each_word_is_stemmed_on_its_own() -> None:
    assert stems(["grasping", "grasps", "robots"]) == ["grasp", "grasp", "robot"]
    assert stems([]) == []
