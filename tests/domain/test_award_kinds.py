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
    ("Best Systems Paper", K.BEST, "Systems"),
    ("Best Paper Award (Systems Track)", K.BEST, "Systems"),
    ("Best Demonstration Paper", K.BEST, "Demo"),
    ("Best Paper (Main Track)", K.BEST, "Main Track"),
    ("Datasets & Benchmarks Best Paper", K.BEST, "Datasets & Benchmarks"),
    (
        "Best Safety, Security, and Recue Robotics Paper",
        K.BEST,
        "Safety, Security, and Rescue Robotics",
    ),
    ("Outstanding Paper", K.OUTSTANDING, None),
    ("Outstanding Main Track Paper", K.OUTSTANDING, "Main Track"),
    (
        "Outstanding Paper Award, Datasets and Benchmarks Track",
        K.OUTSTANDING,
        "Datasets & Benchmarks",
    ),
    (
        "Outstanding Paper: Special Track on AI for Social Impact",
        K.OUTSTANDING,
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
]


@pytest.mark.parametrize(("name", "kind", "track"), REPRESENTATIVE)
def test_representative_spellings(name: str, kind: AwardKind, track: str | None) -> None:
    assert classify_award(name) == (kind, track)


def test_the_table_covers_every_kind() -> None:
    assert {kind for _, kind, _ in REPRESENTATIVE} == set(AwardKind)


# Every spelling in ai-bestpapers (papers.yml) and what it reads as: a change shows up here.
AI_BESTPAPERS = {
    "Best 3-Minute Presentation": (K.BEST, "3-Minute Presentation"),
    "Best Agri-Robotics Paper": (K.BEST, "Agri-Robotics"),
    "Best Application Award Paper": (K.BEST, "Application"),
    "Best Application Paper": (K.BEST, "Application"),
    "Best Automation Paper": (K.BEST, "Automation"),
    "Best Cognitive Robotics Paper": (K.BEST, "Cognitive Robotics"),
    "Best Demo": (K.BEST, "Demo"),
    "Best Demo Paper": (K.BEST, "Demo"),
    "Best Demonstration": (K.BEST, "Demo"),
    "Best Demonstration Paper": (K.BEST, "Demo"),
    "Best Entertainment and Amusement Paper": (K.BEST, "Entertainment and Amusement"),
    "Best Healthcare Automation Paper": (K.BEST, "Healthcare Automation"),
    "Best Human-Robot Interaction Paper": (K.BEST, "Human-Robot Interaction"),
    "Best Industrial Robotics Research for Applications": (
        K.BEST,
        "Industrial Robotics Research for Applications",
    ),
    "Best Interactive Paper": (K.BEST, "Interactive"),
    "Best Linguistic Insight Paper": (K.BEST, "Linguistic Insight"),
    "Best Long Paper": (K.BEST, "Long Paper"),
    "Best Mechanism and Design Paper": (K.BEST, "Mechanism and Design"),
    "Best Medical Robotics Paper": (K.BEST, "Medical Robotics"),
    "Best Mobile Manipulation Paper": (K.BEST, "Mobile Manipulation"),
    "Best Multi-Robot Systems Paper": (K.BEST, "Multi-Robot Systems"),
    "Best Novel Technology Paper for Amusement Culture": (
        K.BEST,
        "Novel Technology for Amusement Culture",
    ),
    "Best Oral Paper": (K.BEST, "Oral"),
    "Best Paper": (K.BEST, None),
    "Best Paper Honorable Mention": (K.HONORABLE_MENTION, None),
    "Best Presentation": (K.BEST, "Presentation"),
    "Best Reproduction Paper": (K.BEST, "Reproduction"),
    "Best Resource Paper": (K.BEST, "Resource"),
    "Best RoboCup Paper": (K.BEST, "RoboCup"),
    "Best Robot Manipulation Paper": (K.BEST, "Robot Manipulation"),
    "Best Robot Mechanism and Design Paper": (K.BEST, "Robot Mechanism and Design"),
    "Best Robot Vision Paper": (K.BEST, "Robot Vision"),
    "Best Safety, Security, and Recue Robotics Paper": (
        K.BEST,
        "Safety, Security, and Rescue Robotics",
    ),
    "Best Safety, Security, and Rescue Robotics Paper": (
        K.BEST,
        "Safety, Security, and Rescue Robotics",
    ),
    "Best Service Robotics Paper": (K.BEST, "Service Robotics"),
    "Best Short Paper": (K.BEST, "Short Paper"),
    "Best Special Theme Paper": (K.BEST, "Special Theme"),
    "Best Student Abstract": (K.STUDENT, "Student Abstract"),
    "Best Student Paper": (K.STUDENT, None),
    "Best Student Paper Honorable Mention": (K.HONORABLE_MENTION, "Student"),
    "Best System Demonstration Paper": (K.BEST, "System Demonstration"),
    "Best Systems Paper": (K.BEST, "Systems"),
    "Best Theme Paper": (K.BEST, "Theme"),
    "Best Unmanned Aerial Vehicles Paper": (K.BEST, "Unmanned Aerial Vehicles"),
    "Datasets & Benchmarks Best Paper": (K.BEST, "Datasets & Benchmarks"),
    "Distinguished Paper": (K.DISTINGUISHED, None),
    "Mike Stilman Paper": (K.OTHER, None),
    "Most Influential Paper": (K.TEST_OF_TIME, None),
    "Outstanding Automation Paper": (K.OUTSTANDING, "Automation"),
    "Outstanding Coordination Paper": (K.OUTSTANDING, "Coordination"),
    "Outstanding Deployed Systems Paper": (K.OUTSTANDING, "Deployed Systems"),
    "Outstanding Dynamics and Control Paper": (K.OUTSTANDING, "Dynamics and Control"),
    "Outstanding Healthcare and Medical Robotics Paper": (
        K.OUTSTANDING,
        "Healthcare and Medical Robotics",
    ),
    "Outstanding Interaction Paper": (K.OUTSTANDING, "Interaction"),
    "Outstanding Learning Paper": (K.OUTSTANDING, "Learning"),
    "Outstanding Locomotion Paper": (K.OUTSTANDING, "Locomotion"),
    "Outstanding Main Track Paper": (K.OUTSTANDING, "Main Track"),
    "Outstanding Main Track Runner-Up  Paper": (K.RUNNER_UP, "Main Track"),
    "Outstanding Main Track Runner-Up Paper": (K.RUNNER_UP, "Main Track"),
    "Outstanding Manipulation Paper": (K.OUTSTANDING, "Manipulation"),
    "Outstanding Mechanisms and Design Paper": (K.OUTSTANDING, "Mechanisms and Design"),
    "Outstanding Multi-Robot Systems Paper": (K.OUTSTANDING, "Multi-Robot Systems"),
    "Outstanding Navigation Paper": (K.OUTSTANDING, "Navigation"),
    "Outstanding New Directions Paper": (K.OUTSTANDING, "New Directions"),
    "Outstanding Paper": (K.OUTSTANDING, None),
    "Outstanding Paper - Honorable Mention": (K.HONORABLE_MENTION, None),
    "Outstanding Paper: Special Track on AI for Social Impact": (
        K.OUTSTANDING,
        "AI for Social Impact",
    ),
    "Outstanding Physical Human-Robot Interaction Paper": (
        K.OUTSTANDING,
        "Physical Human-Robot Interaction",
    ),
    "Outstanding Planning Paper": (K.OUTSTANDING, "Planning"),
    "Outstanding Sensors and Perception Paper": (K.OUTSTANDING, "Sensors and Perception"),
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
# Words that name a kind: a spelling holding one of them must never come out as "other".
KIND_WORDS = re.compile(
    r"best|outstanding|runner|finalist|hono(u)?rable|mention|test.of.time|retrospective"
    r"|influential|impactful|position|dataset|benchmark|classic|distinguished|student",
    re.IGNORECASE,
)
# The spellings in ai-bestpapers that name no kind at all: named or one-off prizes.
EXPECTED_OTHER = {"Mike Stilman Paper", "Special Innovation Paper"}


def test_the_table_of_ai_bestpapers_spellings_holds_no_other_with_a_kind_word() -> None:
    other = {name for name, (kind, _) in AI_BESTPAPERS.items() if kind is AwardKind.OTHER}
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
    other = {name for name, (kind, _) in classified.items() if kind is AwardKind.OTHER}
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
