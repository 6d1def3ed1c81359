"""Recent editions whole (issue 24): the awards added from the venues' pages or two reports."""

from __future__ import annotations

from collections import Counter

from bot.catalog.bundled import documents, load_bundled
from bot.catalog.document import read_document
from bot.domain.models import AwardKind

AWARDS = load_bundled().awards


def test_iclr_2025_has_its_test_of_time_award_and_runner_up() -> None:
    honoured = {
        a.paper.title
        for a in AWARDS
        if (a.venue, a.year, a.kind.value) == ("iclr", 2025, "test-of-time")
    }
    assert "Adam: A Method for Stochastic Optimization" in honoured
    assert "Neural Machine Translation by Jointly Learning to Align and Translate" in honoured


def test_cvpr_2024_has_its_award_papers_with_their_authors() -> None:
    cvpr = [a for a in AWARDS if (a.venue, a.year) == ("cvpr", 2024) and a.paper.authors]
    kinds = Counter(a.kind for a in cvpr if a.paper.summaries)
    assert kinds[AwardKind.BEST] == 2
    assert kinds[AwardKind.STUDENT] == 2
    assert kinds[AwardKind.HONORABLE_MENTION] == 4


def test_every_added_award_cites_two_sources() -> None:
    texts = dict(documents())
    added = [
        *read_document(texts["2024/cvpr.toml"], "2024/cvpr.toml").awards,
        *(
            a
            for a in read_document(texts["2025/iclr.toml"], "2025/iclr.toml").awards
            if a.kind is AwardKind.TEST_OF_TIME
        ),
    ]
    assert len(added) == 10
    assert [a.paper.title for a in added if len({s.url for s in a.sources}) < 2] == []


def test_iclr_2026_has_its_outstanding_papers_and_figures() -> None:
    iclr = [a for a in AWARDS if (a.venue, a.year) == ("iclr", 2026) and a.paper.summaries]
    # Both Outstanding Papers have summaries ("LLMs Get Lost In Multi-Turn Conversation" from a
    # press report, issue 23). The honorable mention rested only on AI-written digests: left out.
    assert Counter(a.kind for a in iclr) == {AwardKind.OUTSTANDING: 2}
    assert not [
        a
        for a in AWARDS
        if (a.venue, a.year) == ("iclr", 2026) and a.kind is AwardKind.HONORABLE_MENTION
    ]
    edition = next(e for e in load_bundled().editions if (e.venue, e.year) == ("iclr", 2026))
    assert (edition.submissions, edition.accepted) == (19525, 5357)


def test_cvpr_and_iccv_2025_best_student_papers_from_the_authors_pages_and_a_report() -> None:
    students = {
        (a.venue, a.paper.title): a
        for a in AWARDS
        if a.year == 2025 and a.venue in {"cvpr", "iccv"} and a.kind is AwardKind.STUDENT
    }
    assert set(students) == {
        ("cvpr", "Neural Inverse Rendering from Propagating Light"),
        ("iccv", "FlowEdit: Inversion-Free Text-Based Editing Using Pre-Trained Flow Models"),
    }
    for award in students.values():
        assert len({s.url for s in award.sources}) == 2
        assert award.paper.summaries
        assert award.paper.authors
    assert (
        students[
            ("iccv", "FlowEdit: Inversion-Free Text-Based Editing Using Pre-Trained Flow Models")
        ].paper.authors[0]
        == "Vladimir Kulikov"
    )
