"""Where sources disagree about a paper and its awards: short lines, with source and reason."""

from __future__ import annotations

from bot.domain.models import Alternative, AwardKind, AwardRef, Paper, Source, StoredPaper
from bot.render.alternatives import disagreements
from bot.render.curate import paper_preview
from bot.render.i18n import Strings
from bot.render.paper import paper_embed

STRINGS = Strings.load()
SEED = Source(document="2025 AI 頂會導讀")
AI_BESTPAPERS = Source(url="https://github.com/example/ai-bestpapers", document="ai-bestpapers")


def alternative(field: str, value: object, reason: str, source: Source = SEED) -> Alternative:
    return Alternative.model_validate(
        {"field": field, "value": value, "source": source, "reason": reason}
    )


def ref(*alternatives: Alternative) -> AwardRef:
    return AwardRef(
        venue="icml",
        venue_name="ICML",
        year=2025,
        name="Outstanding Paper",
        kind=AwardKind.OUTSTANDING,
        alternatives=alternatives,
    )


def test_paper_and_award_disagreements_each_say_source_and_reason() -> None:
    paper = Paper(
        title="Train for the Worst",
        alternatives=(alternative("title", "Train for the worst!", "a spelling of the title"),),
    )
    award = ref(alternative("name", "Best Paper", "the dataset names the award otherwise",
                            AI_BESTPAPERS))  # fmt: skip
    text = disagreements(paper, [award], STRINGS, "en")
    assert text == (
        "• Title: “Train for the worst!” (2025 AI 頂會導讀, in Chinese) — a spelling of the title\n"
        "• ICML 2025 award, name: “Best Paper” (ai-bestpapers) — "
        "the dataset names the award otherwise"
    )
    chinese = disagreements(paper, [award], STRINGS, "zh-TW")
    assert chinese is not None
    assert chinese.startswith("• 標題：「Train for the worst!」（2025 AI 頂會導讀）")
    assert "ICML 2025 獎項的名稱" in chinese


def test_they_are_short_and_the_rest_counted() -> None:
    long = "word " * 100
    paper = Paper(
        title="T",
        alternatives=tuple(alternative("abstract", long, long) for _ in range(5)),
    )
    text = disagreements(paper, [], STRINGS, "en")
    assert text is not None
    lines = text.splitlines()
    assert len(lines) == 4
    assert lines[-1] == "… and 2 more"
    assert all(len(line) < 260 for line in lines)
    assert disagreements(Paper(title="T"), [ref()], STRINGS, "en") is None


def test_a_members_paper_never_shows_the_disagreements_a_curators_preview_does() -> None:
    # Where sources disagree is curators' bookkeeping, not a member's answer (issue 24).
    paper = Paper(title="T", alternatives=(alternative("year", 2016, "another year"),))
    embed = paper_embed(StoredPaper(id=1, paper=paper, awards=(ref(),)), STRINGS, "zh-CN")
    assert "来源说法不一" not in [f.name for f in embed.fields]
    preview = paper_preview(paper, None, STRINGS, "zh-CN", heading="h")
    fields = {f.name: f.value for f in preview.fields}
    assert fields["来源说法不一"] == "• 年份：“2016”（2025 AI 頂會導讀，繁体中文）— another year"


def test_data_in_a_disagreement_is_escaped() -> None:
    paper = Paper(title="T", alternatives=(alternative("title", "**Bold** @x", "_why_"),))
    assert disagreements(paper, [], STRINGS, "en") == (
        "• Title: “\\*\\*Bold\\*\\* @x” (2025 AI 頂會導讀, in Chinese) — \\_why\\_"
    )
