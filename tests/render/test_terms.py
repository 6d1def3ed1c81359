"""One term per concept per language in the locale files (issue 25, item 3): a zh reader never
meets two names for the paper of the day or the venue spotlight, and 摘要 (an abstract) never
names a digest."""

from __future__ import annotations

import pytest

from bot.render.i18n import Strings

STRINGS = Strings.load()

# concept: (the one term, the others that must not appear) per language
TERMS = {
    "zh-TW": {
        "paper of the day": ("每日論文", ["每日一篇論文", "今日論文"]),
        "venue spotlight": ("會議聚焦", ["會議焦點"]),
        "digest": ("定期貼文", ["定期摘要", "定時摘要"]),
    },
    "zh-CN": {
        "paper of the day": ("每日论文", ["每日一篇论文", "今日论文"]),
        "venue spotlight": ("会议聚焦", ["会议焦点"]),
        "digest": ("定期推送", ["定期摘要", "定时摘要"]),
    },
}
DIGEST_FILES_KEYS = ("digest-", "digests-")


def _all_text(language: str) -> list[str]:
    messages = STRINGS.messages[language]  # type: ignore[index]
    commands = STRINGS.commands[language]  # type: ignore[index]
    return [*messages.values(), *commands.values()]


@pytest.mark.parametrize("language", ["zh-TW", "zh-CN"])
def test_one_term_per_concept(language: str) -> None:
    texts = _all_text(language)
    for concept, (term, others) in TERMS[language].items():
        assert any(term in t for t in texts), concept
        for other in others:
            assert [t for t in texts if other in t] == [], (concept, other)


@pytest.mark.parametrize("language", ["zh-TW", "zh-CN"])
def test_abstract_never_names_a_digest(language: str) -> None:
    messages = STRINGS.messages[language]  # type: ignore[index]
    digest_texts = [v for k, v in messages.items() if k.startswith(DIGEST_FILES_KEYS)]
    assert [t for t in digest_texts if "摘要" in t] == []
    # …and an abstract is 摘要 wherever the paper's abstract is meant.
    assert messages["paper-field-abstract"] == "摘要"
    assert messages["paper-button-abstract"].endswith("摘要")
    english = {k: v for k, v in STRINGS.commands[language].items() if "digest" in k.lower()}  # type: ignore[index]
    assert [k for k, v in english.items() if "摘要" in v] == []


@pytest.mark.parametrize(("language", "term"), [("zh-TW", "簡介"), ("zh-CN", "简介")])
def test_a_summary_is_never_called_an_abstract(language: str, term: str) -> None:
    """Our summaries are 簡介/简介 wherever a curator meets them (the edit form, its option,
    where each was written from): the same card says 摘要 for the paper's abstract."""
    english = STRINGS.messages["en"]
    messages = STRINGS.messages[language]  # type: ignore[index]
    keys = [k for k, v in english.items() if "summar" in v.lower() and "abstract" not in v.lower()]
    keys = [k for k in keys if k in messages and not k.startswith("about-")]
    assert keys, "the curation strings name summaries"
    assert [messages[k] for k in keys if "摘要" in messages[k]] == []
    commands = STRINGS.commands[language]  # type: ignore[index]
    named = {k: v for k, v in commands.items() if "summary" in k and "abstract" not in k}
    assert named
    assert [v for v in named.values() if "摘要" in v] == []
    assert all(term in messages[k] for k in keys if k.startswith("curate-"))
