"""Importer for clemense/ai-bestpapers: `_data/papers.yml`, with `venues.yml` beside it.

papers.yml is a list of editions, each `{venue, year, place, date, sub, awards: [...]}`; an
award is `{award, title, author (or authors), link, source}`. The file is hand-written, so:
authors are separated by ",", "·" or "and"; links point anywhere (arXiv abs or pdf, OpenReview,
publishers, personal pages) or are missing; one record has its author and link swapped.

Every award comes out as an Award or as a Rejection saying why. A bad link or source is dropped
and the award kept; only an award whose paper cannot be built (no title) is rejected.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from pydantic import TypeAdapter, ValidationError

from bot.catalog.document import DocumentError, describe_errors
from bot.catalog.problems import problems_of
from bot.domain.awards import classify_award
from bot.domain.identifiers import IdentifierError, normalize_doi, parse_arxiv_id
from bot.domain.models import (
    Award,
    AwardKind,
    CatalogBatch,
    Edition,
    Links,
    Paper,
    Rejection,
    Source,
    Url,
    Venue,
)

_URL: TypeAdapter[str] = TypeAdapter(Url)
_MONTHS = "january february march april may june july august september october november december"
_MONTH_NUMBER = {name: number for number, name in enumerate(_MONTHS.split(), start=1)}
# "December 10-16, 2023", "May 29 - June 2, 2023", "October 25 - January 24, 2020".
_DATES = re.compile(
    r"(?P<m1>[a-z]+)\.?\s+(?P<d1>\d{1,2})(?:\s*[-–]\s*(?:(?P<m2>[a-z]+)\.?\s+)?(?P<d2>\d{1,2}))?"
    r",?\s+(?P<year>\d{4})"
)
# A DOI inside a publisher's link: dl.acm.org/doi/abs/10.…, link.springer.com/chapter/10.…
_DOI_PATH = re.compile(r"/(?:doi(?:/(?:abs|full|pdf|epdf))?|chapter|article)/(10\.\d{4,9}/\S+)")
_URLISH = re.compile(r"https?://\S+$", re.IGNORECASE)
_OLD_PAPER_KINDS = {AwardKind.TEST_OF_TIME, AwardKind.CLASSIC}


class _Rejected(ValueError):
    """A record that cannot be taken, with a reason a curator can act on."""


def parse(path: Path, known: Sequence[Venue] = ()) -> CatalogBatch:
    """Read `path` (papers.yml) into a batch; venues not in `known` are created."""
    venues = _Venues(known, _load_list(path.parent / "venues.yml", missing_ok=True))
    editions: list[Edition] = []
    awards: list[Award] = []
    rejected: list[Rejection] = []
    for index, entry in enumerate(_load_list(path)):
        records = (entry.get("awards") or []) if isinstance(entry, dict) else None
        if not isinstance(records, list):
            reason = "not an edition with a list of awards; nothing in it was taken"
            rejected.append(Rejection(where=f"{path.name}[{index}]", reason=reason))
            continue
        where = f"{path.name} {entry.get('venue')} {entry.get('year')}"
        try:
            venue = venues.resolve(_text(entry.get("venue")))
            edition = _edition(entry, venue.key, _sources(records))
        except _Rejected as exc:
            # Without its venue or edition no award can be taken: each is rejected with why.
            rejected += [
                Rejection(where=f"{where} awards[{i}]", reason=str(exc))
                for i, _ in enumerate(records)
            ]
            continue
        editions.append(edition)
        for i, record in enumerate(records):
            try:
                awards.append(_award(record, edition))
            except (ValidationError, _Rejected) as exc:
                problems = problems_of(exc) if isinstance(exc, ValidationError) else ()
                reason = describe_errors(exc) if isinstance(exc, ValidationError) else str(exc)
                rejected.append(
                    Rejection(where=f"{where} awards[{i}]", reason=reason, problems=problems)
                )
    return CatalogBatch(
        venues=tuple(venues.created),
        editions=tuple(editions),
        awards=tuple(awards),
        rejected=tuple(rejected + venues.rejected),
    )


def _load_list(path: Path, *, missing_ok: bool = False) -> list[Any]:
    if missing_ok and not path.is_file():
        return []
    from bot.catalog.yaml_reader import YAMLError, load_yaml, yaml_line  # PyYAML: on use only

    try:
        data = load_yaml(path.read_text(encoding="utf-8"), path.name)
    except (OSError, UnicodeDecodeError, YAMLError) as exc:
        raise DocumentError(
            f"{path.name}: cannot be read as YAML: {exc}", key="not-yaml", line=yaml_line(exc)
        ) from None
    if not isinstance(data, list):
        raise DocumentError(
            f"{path.name}: expected a list of records at the top level", key="yaml-shape"
        )
    return data


class _Venues:
    """Finds each venue name among the known venues, else creates it (from venues.yml)."""

    def __init__(self, known: Sequence[Venue], described: list[Any]) -> None:
        self.created: list[Venue] = []
        self.rejected: list[Rejection] = []
        self._index: dict[str, Venue] = {}
        for venue in known:
            self._add(venue)
        # venues.yml entries by their name and each name in their `source` list; first wins.
        self._described = {
            label.casefold(): item
            for item in reversed(described)
            if isinstance(item, dict)
            for label in _texts([item.get("name"), *_texts(item.get("source"))])
        }

    def _add(self, venue: Venue) -> None:
        for label in (venue.key, venue.name, *venue.aliases):
            self._index.setdefault(label.casefold(), venue)

    def resolve(self, name: str | None) -> Venue:
        """The venue called `name` (its key, name or an alias, in any case), created if new."""
        if not name:
            raise _Rejected("the edition names no venue")
        item = self._described.get(name.casefold(), {})
        labels = [name.casefold(), (_text(item.get("name")) or name).casefold(), slug(name)]
        venue = next((self._index[label] for label in labels if label in self._index), None)
        if venue is None:
            venue = self._create(name, item)
            self._add(venue)
            self.created.append(venue)
        self._index.setdefault(name.casefold(), venue)
        return venue

    def _create(self, name: str, item: dict[str, Any]) -> Venue:
        key = slug(name)
        if not key:
            raise _Rejected(f"the venue name {name!r} has no letters or digits to make a key of")
        if not item:
            return Venue(key=key, name=name)
        name = _text(item.get("name")) or name
        link = _text(item.get("link"))
        aliases = [a for a in _texts(item.get("source")) if a.casefold() != name.casefold()]
        try:
            return Venue(
                key=key,
                name=name,
                full_name=_text(item.get("long")),
                url=f"https://{link}" if link and "://" not in link else link,
                aliases=tuple(dict.fromkeys(aliases)),
            )
        except ValidationError as exc:
            reason = f"{describe_errors(exc)}; the venue was created from its name alone"
            self.rejected.append(Rejection(where=f"venues.yml {name}", reason=reason))
            return Venue(key=key, name=name)


def _edition(entry: dict[str, Any], venue: str, sources: tuple[Source, ...]) -> Edition:
    """The edition with its place and dates (kept as a note when they do not fit the year)."""
    try:
        bare = Edition(venue=venue, year=entry.get("year"), sources=sources)
    except ValidationError as exc:
        raise _Rejected(f"the edition is not valid: {describe_errors(exc)}") from None
    located = {**bare.model_dump(), **_place(_text(entry.get("place")) or "")}
    date = _text(entry.get("date")) or ""
    try:
        return Edition.model_validate({**located, **_dates(date)})
    except ValidationError:
        pass  # dates outside the edition's year: Humanoids 2020 was held in July 2021
    try:
        return Edition.model_validate({**located, "note": f"{located['note'] or ''} Held {date}."})
    except ValidationError:
        return bare


def _place(place: str) -> dict[str, str]:
    """City and country from "New Orleans, USA" or "Washington, DC, USA"; "Online" is a note."""
    if place.casefold() == "online":
        return {"note": "Held online."}
    city, _, country = (part.strip() for part in place.rpartition(","))
    return {key: text for key, text in (("city", city), ("country", country)) if text}


def _dates(text: str) -> dict[str, Any]:
    """Start and end from "December 10-16, 2023"; the month alone if that is all there is."""
    found = _DATES.search(text.lower())
    if found and found["m1"] in _MONTH_NUMBER:
        first = _MONTH_NUMBER[found["m1"]]
        last = _MONTH_NUMBER.get(found["m2"] or "", first)
        try:
            start = dt.date(int(found["year"]), first, int(found["d1"]))
            # A range that runs into an earlier month ("October 25 - January 24") ends next year.
            end = dt.date(start.year + (last < first), last, int(found["d2"] or found["d1"]))
            return {"start_date": start, "end_date": end}
        except ValueError:
            pass  # "February 30": fall back to the month alone
    months = [_MONTH_NUMBER[w] for w in re.findall(r"[a-z]+", text.lower()) if w in _MONTH_NUMBER]
    return {"month": months[0]} if months else {}


def _award(record: object, edition: Edition) -> Award:
    if not isinstance(record, dict):
        raise _Rejected("not an award record (expected award, title, author, link, source)")
    name, title = _text(record.get("award")), _text(record.get("title"))
    if not name:
        raise _Rejected("the award has no name (its 'award' field is empty)")
    if not title:
        raise _Rejected(f"the {name!r} award has no paper title; add the title to take it")
    authors = ", ".join(_texts(record.get("author") or record.get("authors")))
    link = _text(record.get("link"))
    if _URLISH.match(authors) and link and not _URLISH.match(link):
        authors, link = link, authors  # the two fields were swapped in the file
    kind, track = classify_award(name)
    paper = Paper(
        title=title,
        authors=_authors(authors),
        year=_paper_year(name, edition.year) if kind in _OLD_PAPER_KINDS else edition.year,
        **_identify(_valid_url(link)),
    )
    sources = dict.fromkeys([_valid_url(_text(record.get("source"))), _valid_url(link)])
    return Award(
        venue=edition.venue,
        year=edition.year,
        name=name,
        kind=kind,
        track=track,
        paper=paper,
        sources=tuple(Source(url=url) for url in sources if url),
    )


def _authors(text: str) -> tuple[str, ...]:
    """Names split on ",", "·", ";", "&" and "and", without footnote marks or broken brackets."""
    names = []
    for part in re.split(r"[,·;&]|\band\b", text):
        name = re.sub(r"[\d*†‡]+$", "", part.strip())  # "Mian Wei1" → "Mian Wei"
        if "(" in name and ")" not in name:
            name = name.split("(")[0]  # "Zheng Zhang (MSRA" → "Zheng Zhang"
        if ")" in name and "(" not in name:
            name = name.replace(")", "")  # "Han Hu)" → "Han Hu"
        names.append(" ".join(name.split()))
    return tuple(name for name in names if name)


def _paper_year(award_name: str, award_year: int) -> int | None:
    """A test-of-time paper is older than its award; its year is known if the name says it."""
    found = re.search(r"\b(?:19|20)\d\d\b", award_name)
    return int(found[0]) if found and int(found[0]) < award_year else None


# A file of an Open Journal Systems article (AAAI's proceedings): its PDF, whatever the ending;
# /article/view/<id> is the article's page.
_OJS_FILE = re.compile(r"/article/download/\d+/\d+/?$")


def _identify(link: str | None) -> dict[str, Any]:
    """Paper fields from its link: arXiv id (with version), DOI, and the link in its slot."""
    if link is None:
        return {}
    parts = urlsplit(link)
    host, path = (parts.hostname or "").lower().removeprefix("www."), unquote(parts.path)
    if host in {"arxiv.org", "export.arxiv.org"}:
        try:
            arxiv = parse_arxiv_id(link)
        except IdentifierError:
            return {"links": Links(project=link)}
        pdf = link if path.startswith("/pdf/") else None
        return {"arxiv": str(arxiv), "links": Links(arxiv=arxiv.abs_url, pdf=pdf)}
    if host == "openreview.net":
        return {"links": Links(openreview=link)}
    is_pdf = path.lower().endswith(".pdf") or _OJS_FILE.search(path) is not None
    links = Links(pdf=link) if is_pdf else Links(project=link)
    return {"links": links, "doi": _doi(host, path)}


def identify_link(link: str) -> dict[str, Any]:
    """Paper fields (arXiv id, DOI, link slots) from a link; nothing if it is not a valid link."""
    return _identify(_valid_url(link))


def _doi(host: str, path: str) -> str | None:
    """The DOI of a doi.org link, or the one a publisher's link carries in its path."""
    found = _DOI_PATH.search(path)
    candidate = path.lstrip("/") if host in {"doi.org", "dx.doi.org"} else found and found[1]
    try:
        return normalize_doi(candidate) if candidate else None
    except IdentifierError:
        return None


def _sources(records: Iterable[object]) -> tuple[Source, ...]:
    """The distinct, valid `source` links of an edition's awards."""
    urls = (_valid_url(_text(r.get("source"))) for r in records if isinstance(r, dict))
    return tuple(Source(url=url) for url in dict.fromkeys(urls) if url)


def _valid_url(value: str | None) -> str | None:
    try:
        return _URL.validate_python(value) if value else None
    except ValidationError:
        return None


def _text(value: object) -> str | None:
    """A scalar from YAML as text (YAML reads `2019` as a number), else None."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return None
    return " ".join(str(value).split()) or None


def _texts(value: object) -> list[str]:
    """The texts of a YAML scalar or list."""
    items = value if isinstance(value, list) else [value]
    return [text for text in map(_text, items) if text]


def slug(name: str) -> str:
    """A venue key made of a venue's name: "CoRL" -> "corl"."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_name.lower()).strip("-")[:32].strip("-")
