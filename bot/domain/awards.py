"""Classification of award names: what kind of award it is, and in which track.

Venues name their awards freely: "Outstanding Main Track Runner-Up Paper", "Best Student
Paper Honourable Mention", "Retrospective Most Impactful Paper from CVPR 2005". The catalogue
keeps the name as published and adds a normalized `AwardKind` plus the track (the category the
award was given in, e.g. "Main Track", "Systems", "Datasets & Benchmarks") when there is one.

How a name is read:

* The most specific marker decides the kind, in this order: test of time, classic, honorable
  mention, runner-up, position, student, distinguished, best, outstanding, datasets &
  benchmarks. So "Best Student Paper Honorable Mention" is an honorable mention (in the
  "Student" track) and "Datasets & Benchmarks Best Paper" is a best paper (in the
  "Datasets & Benchmarks" track).
* A *finalist* counts as a runner-up: like a runner-up it is recognised just below the
  winner, and "other" would lose that. (Venues that list the winner among the finalists list
  it again under the winning award.)
* Whatever remains once the kind's words and filler ("paper", "award", "track") are removed
  is the track. Category words (student, distinguished, position, datasets & benchmarks) are
  removed only when they are the kind; otherwise they name the track.
* Test-of-time, classic and "other" awards have no track: their wording is not a category.
"""

from __future__ import annotations

import re

from bot.domain.models import AwardKind
from bot.domain.text import clean_text

_SEP = r"[\s_\-‐-―]*"  # spaces, underscores and every kind of hyphen or dash
_DB = rf"datasets?{_SEP}(?:and|&){_SEP}benchmarks?"


def _words(*patterns: str) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(patterns) + r")\b", re.IGNORECASE)


# The marker of each kind, most specific first: the first one found decides.
_KINDS: tuple[tuple[AwardKind, re.Pattern[str]], ...] = (
    (
        AwardKind.TEST_OF_TIME,
        _words(
            rf"test{_SEP}of{_SEP}time",
            r"retrospective",
            r"most\s+(?:influential|impactful)",
            rf"(?:10|ten|twenty|20){_SEP}years?",
            rf"time{_SEP}tested",
        ),
    ),
    (AwardKind.CLASSIC, _words(r"classic")),
    (AwardKind.HONORABLE_MENTION, _words(r"hono(?:u)?rable(?:\s+mentions?)?", r"mentions?")),
    (AwardKind.RUNNER_UP, _words(rf"runners?{_SEP}ups?", r"finalists?", r"second\s+place")),
    (AwardKind.POSITION, _words(r"position\s+(?:papers?|track)")),
    (AwardKind.STUDENT, _words(r"student")),
    (AwardKind.DISTINGUISHED, _words(r"distinguished")),
    # The Marr Prize is ICCV's best paper award (its name holds no "best").
    (AwardKind.BEST, _words(r"best", r"marr\s+prize")),
    (AwardKind.OUTSTANDING, _words(r"outstanding")),
    (AwardKind.DATASETS_BENCHMARKS, _words(_DB)),
)
_PATTERN = dict(_KINDS)
# Markers that only qualify an award and never name a track.
_QUALIFIERS = (
    AwardKind.HONORABLE_MENTION,
    AwardKind.RUNNER_UP,
    AwardKind.BEST,
    AwardKind.OUTSTANDING,
)
_FILLER = _words(r"papers?", r"awards?", r"prizes?", r"special\s+track\s+on", r"track", r"winners?")
_NO_TRACK = {AwardKind.TEST_OF_TIME, AwardKind.CLASSIC, AwardKind.OTHER}

# What a remaining track reads as, keyed by its casefolded text.
_TRACK_NAMES = {
    "main": "Main Track",
    "datasets & benchmarks": "Datasets & Benchmarks",
    "position": "Position Paper Track",
    "demo": "Demo",
    "demonstration": "Demo",
    "system": "Systems",
    "systems": "Systems",
    "long": "Long Paper",
    "short": "Short Paper",
    "abstract": "Student Abstract",
    # A typo in the published name ("Recue") must not make a second track.
    "safety, security, and recue robotics": "Safety, Security, and Rescue Robotics",
    "theme": "Theme",
    "thematic": "Theme",
    "special theme": "Theme",
    "resources": "Resource",
    "methods": "Methods",
    "method": "Methods",
}
# Words that name no category: "Best Overall Paper" is the venue's best paper, and the Marr
# Prize is ICCV's best paper award.
_NOT_TRACKS = frozenset({"overall", "marr"})
# Tracks in which a best or outstanding paper is still the venue's headline award: the formats
# every paper is submitted in. A best paper of any other category (a topic, systems, demos,
# resources, a theme) or of a presentation is a category award: kind `other`, the track kept,
# so that `kind:best` lists the headline awards only.
_HEADLINE_TRACKS = frozenset({"Main Track", "Long Paper", "Short Paper"})
_FOR_A_CATEGORY = (AwardKind.BEST, AwardKind.OUTSTANDING)


def classify_award(name: str) -> tuple[AwardKind, str | None]:
    """The normalized kind of the award called `name`, and its track if it names one."""
    text = clean_text(name, max_length=300)
    kind = next((kind for kind, pattern in _KINDS if pattern.search(text)), AwardKind.OTHER)
    if kind in _NO_TRACK:
        return kind, None
    if kind in _FOR_A_CATEGORY and _PATTERN[AwardKind.DATASETS_BENCHMARKS].search(text):
        # NeurIPS' Datasets & Benchmarks track is a track of its own, with its own kind.
        return AwardKind.DATASETS_BENCHMARKS, "Datasets & Benchmarks"
    track = _track(text, kind)
    if kind in _FOR_A_CATEGORY and track is not None and track not in _HEADLINE_TRACKS:
        return AwardKind.OTHER, track
    return kind, track


def _track(text: str, kind: AwardKind) -> str | None:
    for marker in (*_QUALIFIERS, kind):
        text = _PATTERN[marker].sub(" ", text)
    text = _FILLER.sub(" ", text)
    text = re.sub(_DB, "Datasets & Benchmarks", text, flags=re.IGNORECASE)
    text = re.sub(r"\(\s*tied\s*\)|\btied\b", " ", text, flags=re.IGNORECASE)
    text = re.sub(r"[()\[\]]", " ", text)
    # Separators left dangling at either end ("Outstanding Paper: …", "… - Honorable Mention").
    text = re.sub(r"\s+", " ", text).strip(" :;,-–—/")
    # Prepositions left by the kind's words: "Honorable Mention for Best Theme Paper" (→ "for
    # Theme"), "Best paper on … special theme", "for contribution(s) to methods".
    text = re.sub(r"^(?:(?:for|on|in)\s+)?(?:contributions?\s+to\s+)?", "", text, flags=re.I)
    theme = re.fullmatch(
        r"(?:special\s+theme\s+on\s+(.+)|(.+?)\s+special\s+theme)", text, flags=re.IGNORECASE
    )
    if theme:
        text = f"Theme: {theme.group(1) or theme.group(2)}"
    if not text or text.casefold() in _NOT_TRACKS:
        return None
    named = _TRACK_NAMES.get(text.casefold(), text)
    return named[:1].upper() + named[1:]


# Words of which every test-of-time marker above holds one: a coarse filter a store can run
# before standing_in_test_of_time decides.
TEST_OF_TIME_WORDS = ("time", "retrospective", "influential", "impactful", "year")
# Below the test-of-time award itself, the venues that name more than one paper.
_TEST_OF_TIME_STANDINGS = (AwardKind.RUNNER_UP, AwardKind.HONORABLE_MENTION)


def standing_in_test_of_time(kind: AwardKind, name: str, track: str | None) -> AwardKind | None:
    """Where an award stands among a venue's test-of-time awards: TEST_OF_TIME for the award
    itself, RUNNER_UP or HONORABLE_MENTION for those named beside it; None for any other award.

    A catalogue may hold "Test of Time Honorable Mention" either way: as a test-of-time award
    whose name says honorable mention, or as an honorable mention in the "Test of Time" track.
    """
    is_test_of_time = _PATTERN[AwardKind.TEST_OF_TIME]
    if kind is AwardKind.TEST_OF_TIME:
        return next((s for s in _TEST_OF_TIME_STANDINGS if _PATTERN[s].search(name)), kind)
    if kind in _TEST_OF_TIME_STANDINGS and any(
        is_test_of_time.search(text) for text in (name, track or "")
    ):
        return kind
    return None


# The main paper awards (issue 27): what the paper of the day picks from by default, and what
# search's mild prior favours. An award of these kinds whose name says it is for a demo, a
# presentation, a student abstract, a video or a poster is not one of them.
MAIN_KINDS = frozenset(
    {
        AwardKind.BEST,
        AwardKind.OUTSTANDING,
        AwardKind.RUNNER_UP,
        AwardKind.HONORABLE_MENTION,
        AwardKind.TEST_OF_TIME,
    }
)
MINOR_AWARD = _words(
    r"demo(?:nstration)?s?", r"presentations?", r"abstracts?", r"videos?", r"posters?",
    rf"3{_SEP}minute",
)  # fmt: skip


def is_main_award(kind: AwardKind | str, name: str) -> bool:
    """Whether an award of `kind` called `name` is one of the main paper awards."""
    return AwardKind(kind) in MAIN_KINDS and MINOR_AWARD.search(name) is None


def standing(kind: AwardKind | str, name: str) -> int:
    """How high an award stands, for ranking: 2 for a best, outstanding or test-of-time paper,
    1 for a runner-up or honorable mention, 0 for the rest (student, demo, presentation…)."""
    if not is_main_award(kind, name):
        return 0
    return 1 if AwardKind(kind) in {AwardKind.RUNNER_UP, AwardKind.HONORABLE_MENTION} else 2
