from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from bot.domain.awards import classify_award, standing_in_test_of_time
from bot.domain.models import AwardKind

K = AwardKind

REPRESENTATIVE = [
    # (name as published, kind, track)
    ("Best Paper", K.BEST, None),
    ("best   paper  award", K.BEST, None),
    ("Best Systems Paper", K.OTHER, "Systems"),
    ("Best Paper Award (Systems Track)", K.OTHER, "Systems"),
    ("Best Demonstration Paper", K.OTHER, "Demo"),
    ("Best Paper (Main Track)", K.BEST, "Main Track"),
    ("Datasets & Benchmarks Best Paper", K.DATASETS_BENCHMARKS, "Datasets & Benchmarks"),
    (
        "Best Safety, Security, and Recue Robotics Paper",
        K.OTHER,
        "Safety, Security, and Rescue Robotics",
    ),
    ("Outstanding Paper", K.OUTSTANDING, None),
    ("Outstanding Main Track Paper", K.OUTSTANDING, "Main Track"),
    (
        "Outstanding Paper Award, Datasets and Benchmarks Track",
        K.DATASETS_BENCHMARKS,
        "Datasets & Benchmarks",
    ),
    (
        "Outstanding Paper: Special Track on AI for Social Impact",
        K.OTHER,
        "AI for Social Impact",
    ),
    ("Outstanding Main Track Runner-Up Paper", K.RUNNER_UP, "Main Track"),
    ("Outstanding Main Track Runner-Up  Paper", K.RUNNER_UP, "Main Track"),
    ("Best Paper Runner-up", K.RUNNER_UP, None),
    ("best paper runner up", K.RUNNER_UP, None),
    ("Best Paper Finalist", K.RUNNER_UP, None),
    ("Position Paper Track Runner-Up", K.RUNNER_UP, "Position Paper Track"),
    ("Honorable Mention", K.HONORABLE_MENTION, None),
    ("Honourable mention", K.HONORABLE_MENTION, None),
    ("Best Paper Honorable Mention", K.HONORABLE_MENTION, None),
    ("Outstanding Paper - Honorable Mention", K.HONORABLE_MENTION, None),
    ("Best Student Paper – Honourable Mention", K.HONORABLE_MENTION, "Student"),
    ("Test of Time", K.TEST_OF_TIME, None),
    ("Test-of-Time Award", K.TEST_OF_TIME, None),
    ("Retrospective Most Impactful Paper from CVPR 2005", K.TEST_OF_TIME, None),
    ("Most Influential Paper", K.TEST_OF_TIME, None),
    ("Outstanding Position Paper", K.POSITION, None),
    ("Datasets and Benchmarks Track Award", K.DATASETS_BENCHMARKS, None),
    ("Classic Paper", K.CLASSIC, None),
    ("Distinguished Paper", K.DISTINGUISHED, None),
    ("Best Student Paper", K.STUDENT, None),
    ("Outstanding Student Paper", K.STUDENT, None),
    ("Best Student Abstract", K.STUDENT, "Student Abstract"),
    ("Mike Stilman Paper", K.OTHER, None),
    # A presentation's award or a category's best paper is not the venue's best paper (issue 24).
    ("Best Presentation", K.OTHER, "Presentation"),
    ("Best Paper Award in Robot Vision", K.OTHER, "Robot Vision"),
    # Tracks read sanely: no "for Overall", "for Theme", "new task tied" (issue 24).
    ("Best Overall Paper", K.BEST, None),
    ("Honorable Mention for Best Overall Paper", K.HONORABLE_MENTION, None),
    ("Honorable Mention for Best Theme Paper", K.HONORABLE_MENTION, "Theme"),
    ("Best new task paper (tied)", K.OTHER, "New task"),
    ("Best new task (tied) and new resource paper", K.OTHER, "New task and new resource"),
    ("Honorable mention for contributions to resources", K.HONORABLE_MENTION, "Resource"),
    ("Honorable mention for contribution to methods", K.HONORABLE_MENTION, "Methods"),
    (
        "Best paper on human-centered NLP special theme",
        K.OTHER,
        "Theme: human-centered NLP",
    ),
    ("Best Paper (Marr Prize)", K.BEST, None),
    ("Marr Prize", K.BEST, None),  # ICCV's best paper award
]


@pytest.mark.parametrize(("name", "kind", "track"), REPRESENTATIVE)
def test_representative_spellings(name: str, kind: AwardKind, track: str | None) -> None:
    assert classify_award(name) == (kind, track)


def test_the_table_covers_every_kind() -> None:
    assert {kind for _, kind, _ in REPRESENTATIVE} == set(AwardKind)


# Every spelling in ai-bestpapers (papers.yml) and what it reads as: a change shows up here.
AI_BESTPAPERS = {
    "Best 3-Minute Presentation": (K.OTHER, "3-Minute Presentation"),
    "Best Agri-Robotics Paper": (K.OTHER, "Agri-Robotics"),
    "Best Application Award Paper": (K.OTHER, "Application"),
    "Best Application Paper": (K.OTHER, "Application"),
    "Best Automation Paper": (K.OTHER, "Automation"),
    "Best Cognitive Robotics Paper": (K.OTHER, "Cognitive Robotics"),
    "Best Demo": (K.OTHER, "Demo"),
    "Best Demo Paper": (K.OTHER, "Demo"),
    "Best Demonstration": (K.OTHER, "Demo"),
    "Best Demonstration Paper": (K.OTHER, "Demo"),
    "Best Entertainment and Amusement Paper": (K.OTHER, "Entertainment and Amusement"),
    "Best Healthcare Automation Paper": (K.OTHER, "Healthcare Automation"),
    "Best Human-Robot Interaction Paper": (K.OTHER, "Human-Robot Interaction"),
    "Best Industrial Robotics Research for Applications": (
        K.OTHER,
        "Industrial Robotics Research for Applications",
    ),
    "Best Interactive Paper": (K.OTHER, "Interactive"),
    "Best Linguistic Insight Paper": (K.OTHER, "Linguistic Insight"),
    "Best Long Paper": (K.BEST, "Long Paper"),
    "Best Mechanism and Design Paper": (K.OTHER, "Mechanism and Design"),
    "Best Medical Robotics Paper": (K.OTHER, "Medical Robotics"),
    "Best Mobile Manipulation Paper": (K.OTHER, "Mobile Manipulation"),
    "Best Multi-Robot Systems Paper": (K.OTHER, "Multi-Robot Systems"),
    "Best Novel Technology Paper for Amusement Culture": (
        K.OTHER,
        "Novel Technology for Amusement Culture",
    ),
    "Best Oral Paper": (K.OTHER, "Oral"),
    "Best Paper": (K.BEST, None),
    "Best Paper Honorable Mention": (K.HONORABLE_MENTION, None),
    "Best Presentation": (K.OTHER, "Presentation"),
    "Best Reproduction Paper": (K.OTHER, "Reproduction"),
    "Best Resource Paper": (K.OTHER, "Resource"),
    "Best RoboCup Paper": (K.OTHER, "RoboCup"),
    "Best Robot Manipulation Paper": (K.OTHER, "Robot Manipulation"),
    "Best Robot Mechanism and Design Paper": (K.OTHER, "Robot Mechanism and Design"),
    "Best Robot Vision Paper": (K.OTHER, "Robot Vision"),
    "Best Safety, Security, and Recue Robotics Paper": (
        K.OTHER,
        "Safety, Security, and Rescue Robotics",
    ),
    "Best Safety, Security, and Rescue Robotics Paper": (
        K.OTHER,
        "Safety, Security, and Rescue Robotics",
    ),
    "Best Service Robotics Paper": (K.OTHER, "Service Robotics"),
    "Best Short Paper": (K.BEST, "Short Paper"),
    "Best Special Theme Paper": (K.OTHER, "Theme"),
    "Best Student Abstract": (K.STUDENT, "Student Abstract"),
    "Best Student Paper": (K.STUDENT, None),
    "Best Student Paper Honorable Mention": (K.HONORABLE_MENTION, "Student"),
    "Best System Demonstration Paper": (K.OTHER, "System Demonstration"),
    "Best Systems Paper": (K.OTHER, "Systems"),
    "Best Theme Paper": (K.OTHER, "Theme"),
    "Best Unmanned Aerial Vehicles Paper": (K.OTHER, "Unmanned Aerial Vehicles"),
    "Datasets & Benchmarks Best Paper": (K.DATASETS_BENCHMARKS, "Datasets & Benchmarks"),
    "Distinguished Paper": (K.DISTINGUISHED, None),
    "Mike Stilman Paper": (K.OTHER, None),
    "Most Influential Paper": (K.TEST_OF_TIME, None),
    "Outstanding Automation Paper": (K.OTHER, "Automation"),
    "Outstanding Coordination Paper": (K.OTHER, "Coordination"),
    "Outstanding Deployed Systems Paper": (K.OTHER, "Deployed Systems"),
    "Outstanding Dynamics and Control Paper": (K.OTHER, "Dynamics and Control"),
    "Outstanding Healthcare and Medical Robotics Paper": (
        K.OTHER,
        "Healthcare and Medical Robotics",
    ),
    "Outstanding Interaction Paper": (K.OTHER, "Interaction"),
    "Outstanding Learning Paper": (K.OTHER, "Learning"),
    "Outstanding Locomotion Paper": (K.OTHER, "Locomotion"),
    "Outstanding Main Track Paper": (K.OUTSTANDING, "Main Track"),
    "Outstanding Main Track Runner-Up  Paper": (K.RUNNER_UP, "Main Track"),
    "Outstanding Main Track Runner-Up Paper": (K.RUNNER_UP, "Main Track"),
    "Outstanding Manipulation Paper": (K.OTHER, "Manipulation"),
    "Outstanding Mechanisms and Design Paper": (K.OTHER, "Mechanisms and Design"),
    "Outstanding Multi-Robot Systems Paper": (K.OTHER, "Multi-Robot Systems"),
    "Outstanding Navigation Paper": (K.OTHER, "Navigation"),
    "Outstanding New Directions Paper": (K.OTHER, "New Directions"),
    "Outstanding Paper": (K.OUTSTANDING, None),
    "Outstanding Paper - Honorable Mention": (K.HONORABLE_MENTION, None),
    "Outstanding Paper: Special Track on AI for Social Impact": (
        K.OTHER,
        "AI for Social Impact",
    ),
    "Outstanding Physical Human-Robot Interaction Paper": (
        K.OTHER,
        "Physical Human-Robot Interaction",
    ),
    "Outstanding Planning Paper": (K.OTHER, "Planning"),
    "Outstanding Sensors and Perception Paper": (K.OTHER, "Sensors and Perception"),
    "Outstanding Student Paper": (K.STUDENT, None),
    "Retrospective Most Impactful Paper from CVPR 2005": (K.TEST_OF_TIME, None),
    "Retrospective Most Impactful Paper from CVPR 2006": (K.TEST_OF_TIME, None),
    "Retrospective Most Impactful Paper from CVPR 2007": (K.TEST_OF_TIME, None),
    "Retrospective Most Impactful Paper from CVPR 2008": (K.TEST_OF_TIME, None),
    "Retrospective Most Impactful Paper from CVPR 2009": (K.TEST_OF_TIME, None),
    "Retrospective Most Impactful Paper from CVPR 2011": (K.TEST_OF_TIME, None),
    "Special Innovation Paper": (K.OTHER, None),
    "Test of Time": (K.TEST_OF_TIME, None),
}
# Words that name a kind: a spelling holding one of them comes out as "other" only when it names a
# category (a track): a best paper of a topic, of systems or of a presentation (issue 24).
KIND_WORDS = re.compile(
    r"best|outstanding|runner|finalist|hono(u)?rable|mention|test.of.time|retrospective"
    r"|influential|impactful|position|dataset|benchmark|classic|distinguished|student",
    re.IGNORECASE,
)
# The spellings in ai-bestpapers that name no kind at all: named or one-off prizes.
EXPECTED_OTHER = {"Mike Stilman Paper", "Special Innovation Paper"}


def test_the_table_of_ai_bestpapers_spellings_holds_no_other_with_a_kind_word() -> None:
    other = {name for name, (kind, t) in AI_BESTPAPERS.items() if kind is K.OTHER and t is None}
    assert other == EXPECTED_OTHER
    assert not {name for name in other if KIND_WORDS.search(name)}


def _spellings(shared_dir: Path) -> set[str]:
    path = shared_dir / "datasets" / "ai-bestpapers" / "papers.yml"
    editions = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {award["award"] for edition in editions for award in edition["awards"]}


def test_every_ai_bestpapers_spelling_gets_a_sensible_kind(shared_dir: Path) -> None:
    spellings = _spellings(shared_dir)
    assert len(spellings) == 79
    classified = {name: classify_award(name) for name in spellings}
    other = {name for name, (kind, t) in classified.items() if kind is K.OTHER and t is None}
    print(f"{len(other)} of {len(spellings)} spellings are 'other': {sorted(other)}")
    assert other == EXPECTED_OTHER
    assert not {name for name in other if KIND_WORDS.search(name)}
    assert classified == AI_BESTPAPERS
    for name, (kind, track) in classified.items():
        if re.search(r"runner|honou?rable", name, re.IGNORECASE):
            assert kind in {AwardKind.RUNNER_UP, AwardKind.HONORABLE_MENTION}
        if track is not None:
            assert not re.search(r"\b(award|best|outstanding|runner)\b", track, re.IGNORECASE)


@pytest.mark.parametrize(
    ("kind", "name", "track", "standing"),
    [
        (AwardKind.TEST_OF_TIME, "Test of Time Award", None, AwardKind.TEST_OF_TIME),
        (
            AwardKind.TEST_OF_TIME,
            "Test of Time Honorable Mention",
            None,
            AwardKind.HONORABLE_MENTION,
        ),
        (AwardKind.TEST_OF_TIME, "Test-of-Time Runner-up", None, AwardKind.RUNNER_UP),
        (
            AwardKind.HONORABLE_MENTION,
            "Test of Time Honorable Mention",
            "Test of Time",
            AwardKind.HONORABLE_MENTION,
        ),
        (
            AwardKind.HONORABLE_MENTION,
            "Honorable Mention",
            "Test of Time",
            AwardKind.HONORABLE_MENTION,
        ),
        (
            AwardKind.RUNNER_UP,
            "Retrospective Most Impactful Paper Runner-Up",
            None,
            AwardKind.RUNNER_UP,
        ),
        (AwardKind.HONORABLE_MENTION, "Best Paper Honorable Mention", "Main Track", None),
        (AwardKind.BEST, "Best Paper", None, None),
    ],
)
def test_where_an_award_stands_in_test_of_time(
    kind: AwardKind, name: str, track: str | None, standing: AwardKind | None
) -> None:
    assert standing_in_test_of_time(kind, name, track) is standing
