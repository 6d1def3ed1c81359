"""The catalogue's domain models: venues, editions, papers and awards.

Every way into the catalogue (the bundled TOML, importers, curators in Discord) builds these
models, so validation lives here once: unknown keys are rejected, text is cleaned and bounded,
links are http(s) without credentials, and identifiers are parsed.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Literal, Self
from urllib.parse import urlsplit

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from bot.domain.areas import OUR_CLASSIFICATION, ResearchArea, ResearchTask
from bot.domain.identifiers import ArxivId, normalize_doi, parse_arxiv_id
from bot.domain.text import clean_text

Language = Literal["en", "zh-TW", "zh-CN"]
LANGUAGES: tuple[Language, ...] = ("en", "zh-TW", "zh-CN")


def _stored(info: ValidationInfo) -> bool:
    """Whether the values come back from the store (`context={"stored": True}`): they were
    cleaned and checked when written, so the costly Python checks are not run again."""
    return isinstance(info.context, dict) and info.context.get("stored") is True


def _cleaned(max_length: int, *, multiline: bool = False) -> AfterValidator:
    def clean(value: str, info: ValidationInfo) -> str:
        if _stored(info):
            return value
        text = clean_text(value, max_length=max_length, multiline=multiline)
        if not text:
            raise ValueError("must not be empty")
        return text

    return AfterValidator(clean)


ShortText = Annotated[str, _cleaned(200)]
Name = Annotated[str, _cleaned(300)]
Title = Annotated[str, _cleaned(500)]
LongText = Annotated[str, _cleaned(10_000, multiline=True)]
Summary = Annotated[str, _cleaned(2_000, multiline=True)]


def _check_url(value: str, info: ValidationInfo) -> str:
    if _stored(info):
        return value
    url = value.strip()
    if len(url) > 2048:
        raise ValueError("a link may be at most 2,048 characters")
    if any(ch.isspace() or ord(ch) < 32 or ord(ch) == 127 for ch in url):
        raise ValueError("a link may not contain spaces or control characters")
    parts = urlsplit(url)
    if parts.scheme.lower() not in {"http", "https"}:
        raise ValueError("only http and https links are allowed")
    if not parts.hostname:
        raise ValueError("a link needs a host name")
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        raise ValueError("a link may not carry a user name or password")
    return url


Url = Annotated[str, AfterValidator(_check_url)]
_VENUE_KEY = re.compile(r"^[a-z0-9][a-z0-9-]{0,31}$")


def _check_venue_key(value: str) -> str:
    key = value.strip().lower()
    if not _VENUE_KEY.match(key):
        raise ValueError("a venue key is 1–32 lower-case letters, digits or dashes")
    return key


VenueKey = Annotated[str, AfterValidator(_check_venue_key)]
Year = Annotated[int, Field(ge=1950, le=2100)]
Count = Annotated[int, Field(ge=0, le=10_000_000)]


class Model(BaseModel):
    # defer_build: each model's validator is built when first used, not at import: a bot
    # starts without building the ones its start never needs (and a run, the ones it never uses).
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class AwardKind(StrEnum):
    """The normalized kind of an award, whatever the venue called it."""

    BEST = "best"
    OUTSTANDING = "outstanding"
    RUNNER_UP = "runner-up"
    HONORABLE_MENTION = "honorable-mention"
    TEST_OF_TIME = "test-of-time"
    POSITION = "position"
    DATASETS_BENCHMARKS = "datasets-benchmarks"
    CLASSIC = "classic"
    DISTINGUISHED = "distinguished"
    STUDENT = "student"
    OTHER = "other"


class AuthorsState(StrEnum):
    """What the catalogue knows of a paper's byline."""

    UNKNOWN = "unknown"  # no author yet: not "nobody"
    COMPLETE = "complete"  # every author, in published order
    CUT_SHORT = "cut-short"  # the first authors only: the source ended the list in "et al."


class Source(Model):
    """Where a fact came from: a link, a named document, or both.

    `covers` names the fields this source vouches for; empty means the whole record.
    """

    url: Url | None = None
    document: ShortText | None = None
    covers: tuple[str, ...] = ()
    note: Annotated[str, _cleaned(1_000)] | None = None

    @model_validator(mode="after")
    def _needs_a_reference(self) -> Self:
        if self.url is None and self.document is None:
            raise ValueError("a source needs a url or a document")
        return self


Value = int | float | str | dt.date | list[str]


class Alternative(Model):
    """A value another source gives for a field, kept beside the preferred one."""

    field: ShortText
    value: Value
    source: Source
    reason: Annotated[str, _cleaned(1_000)]


class Venue(Model):
    key: VenueKey
    name: ShortText
    full_name: Name | None = None
    url: Url | None = None
    aliases: tuple[ShortText, ...] = ()


class Submitted(StrEnum):
    """What an edition's `submissions` counts."""

    SUBMITTED = "submitted"  # every paper submitted (full papers, after the abstract deadline)
    REVIEWED = "reviewed"  # only those that went to review: withdrawals, desk rejections out


class Accepted(StrEnum):
    """What an edition's `accepted` counts."""

    MAIN = "main"  # the main conference's papers only
    MAIN_AND_FINDINGS = "main-and-findings"  # with the papers accepted to Findings
    ALL_TRACKS = "all-tracks"  # every track's papers (special tracks, datasets, …)


class Counts(Model):
    """What an edition's figures count, where a source says."""

    submissions: Submitted | None = None
    accepted: Accepted | None = None


class Edition(Model):
    """A venue in one year, with its statistics where known."""

    venue: VenueKey
    year: Year
    start_date: dt.date | None = None
    end_date: dt.date | None = None
    month: Annotated[int, Field(ge=1, le=12)] | None = None
    city: ShortText | None = None
    country: ShortText | None = None
    submissions: Count | None = None
    accepted: Count | None = None
    orals: Count | None = None
    spotlights: Count | None = None
    posters: Count | None = None
    reviewers: Count | None = None
    area_chairs: Count | None = None
    senior_area_chairs: Count | None = None
    note: Annotated[str, _cleaned(1_000)] | None = None
    counts: Counts | None = None  # what `submissions` and `accepted` count (issue 24)
    sources: tuple[Source, ...] = ()
    alternatives: tuple[Alternative, ...] = ()

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        if self.start_date and self.end_date and self.end_date < self.start_date:
            raise ValueError("end_date is before start_date")
        if self.start_date and self.month is None:
            object.__setattr__(self, "month", self.start_date.month)
        if self.start_date and self.start_date.year != self.year:
            raise ValueError(f"start_date {self.start_date} is not in {self.year}")
        if (
            self.submissions is not None
            and self.accepted is not None
            and self.accepted > self.submissions
        ):
            raise ValueError("accepted is larger than submissions")
        return self

    @property
    def acceptance_rate(self) -> float | None:
        """Accepted over submissions, derived so that it can never disagree with them."""
        if self.submissions and self.accepted is not None:
            return self.accepted / self.submissions
        return None


class Links(Model):
    arxiv: Url | None = None
    pdf: Url | None = None
    openreview: Url | None = None
    project: Url | None = None
    code: Url | None = None

    def to_paper(self) -> bool:
        """Whether one of these opens the paper itself (a code repository does not)."""
        return any(getattr(self, name) is not None for name in PAPER_LINKS)


# The links that open the paper itself: its arXiv page, a PDF, its OpenReview forum, or the
# venue's (or project's) page for it. `code` is not among them.
PAPER_LINKS = ("arxiv", "pdf", "openreview", "project")


MAX_ALIASES = 10


class Paper(Model):
    title: Title
    authors: tuple[Name, ...] = Field(default=(), max_length=3_000)
    # The source cut the author list short ("et al.", "等"): the list is a prefix, not the whole.
    authors_incomplete: bool = False
    affiliations: tuple[Name, ...] = Field(default=(), max_length=500)
    year: Year | None = None
    arxiv: str | None = None
    arxiv_version: Annotated[int, Field(ge=1, le=9999)] | None = None
    doi: str | None = None
    links: Links = Links()
    abstract: LongText | None = None
    summaries: dict[Language, Summary] = {}
    area: ResearchArea | None = None  # one primary research area, from the taxonomy
    task: ResearchTask | None = None  # one task category, from the taxonomy
    # The names people use for it that it never gives itself (AlexNet): a curator's, or a
    # bundled one whose source uses the name (a source covering `aliases`).
    aliases: tuple[ShortText, ...] = Field(default=(), max_length=MAX_ALIASES)
    sources: tuple[Source, ...] = ()
    alternatives: tuple[Alternative, ...] = ()

    @model_validator(mode="before")
    @classmethod
    def _split_version(cls, data: object) -> object:
        # "2502.06768v2" keeps the paper's identity and its revision apart.
        if isinstance(data, dict) and isinstance(data.get("arxiv"), str):
            parsed = parse_arxiv_id(data["arxiv"])
            data = {**data, "arxiv": parsed.id}
            if parsed.version is not None and data.get("arxiv_version") is None:
                data["arxiv_version"] = parsed.version
        return data

    @field_validator("doi")
    @classmethod
    def _doi(cls, value: str | None) -> str | None:
        return None if value is None else normalize_doi(value)

    @property
    def authors_state(self) -> AuthorsState:
        if not self.authors:
            return AuthorsState.UNKNOWN
        return AuthorsState.CUT_SHORT if self.authors_incomplete else AuthorsState.COMPLETE

    @property
    def arxiv_id(self) -> ArxivId | None:
        return None if self.arxiv is None else ArxivId(self.arxiv, self.arxiv_version)

    def summary(self, language: str) -> str | None:
        """The summary in `language`, else another Chinese script, else English."""
        order = {
            "zh-TW": ("zh-TW", "zh-CN", "en"),
            "zh-CN": ("zh-CN", "zh-TW", "en"),
        }.get(language, ("en", "zh-TW", "zh-CN"))
        for lang in order:
            if lang in self.summaries:
                return self.summaries[lang]
        return None

    def summary_source(self, language: Language) -> Source | None:
        """The source the summary in `language` was written from: one that covers
        `summaries.<language>` (or all `summaries`)."""
        wanted = {"summaries", f"summaries.{language}"}
        return next((s for s in self.sources if wanted & set(s.covers)), None)

    def classified_by_us(self, field: str = "area") -> bool:
        """Whether the area (or task) is our reading of the paper, not the taxonomy's."""
        return any(s.document == OUR_CLASSIFICATION and field in s.covers for s in self.sources)


class Award(Model):
    """An award given at one edition of a venue to one paper."""

    venue: VenueKey
    year: Year
    name: ShortText
    kind: AwardKind
    track: ShortText | None = None
    paper: Paper
    sources: tuple[Source, ...] = ()
    alternatives: tuple[Alternative, ...] = ()


class Problem(Model):
    """One reason a record was not valid: the field (as the input names it), the kind of
    problem (pydantic's error type, or one of our validators', bot/catalog/problems.py), its
    numbers or values, and the English the command line prints."""

    field: str
    kind: str
    message: str
    params: dict[str, str | int] = Field(default_factory=dict)


class Rejection(Model):
    """An input record that was not taken, and why, in words a curator can act on.

    `reason` is the English the command line prints; where the store refused the record,
    `key` and `params` name the message (`rejected-<key>`) a member reads in Discord; where the
    record was not valid, `problems` say why, each in the reader's language there.
    """

    where: str
    reason: str
    key: str | None = None
    params: dict[str, str | int] = Field(default_factory=dict)
    problems: tuple[Problem, ...] = ()


class CatalogBatch(Model):
    """Everything one write brings: the unit that is planned, shown, and applied at once."""

    venues: tuple[Venue, ...] = ()
    editions: tuple[Edition, ...] = ()
    awards: tuple[Award, ...] = ()
    rejected: tuple[Rejection, ...] = ()


class AwardRef(Model):
    """An award as seen from the paper that holds it."""

    venue: str
    venue_name: str
    year: Year
    name: str
    kind: AwardKind
    track: str | None = None
    alternatives: tuple[Alternative, ...] = ()  # what other sources say of this award
    sources: tuple[Source, ...] = ()  # where the award was announced


class StoredPaper(Model):
    """A paper as the catalogue holds it: its row id and every award it received."""

    id: int
    paper: Paper
    awards: tuple[AwardRef, ...] = ()


class Coverage(Model):
    """What the catalogue holds for one edition."""

    venue: str
    venue_name: str
    year: Year
    awards: int
    papers: int
    submissions: int | None = None
    accepted: int | None = None
    sourced: bool = False  # facts of its own (a note, dates, numbers), each with its source


@dataclass(frozen=True, slots=True)
class PaperChoice:
    """A paper as autocomplete offers it."""

    id: int
    title: str
    venue_name: str | None
    year: int | None
