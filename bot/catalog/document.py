"""The catalogue document: TOML that the bundled data is written in and `export` writes.

Reading validates each record on its own, so one bad record is reported by its place and
reason while the rest of the document still counts; a file that is not TOML at all is an error.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any

import tomli_w
from pydantic import BaseModel, ValidationError

from bot.catalog.problems import in_english, problems_of
from bot.domain.models import Award, CatalogBatch, Edition, Rejection, Venue
from bot.domain.nesting import NestedTooDeep, check_data, check_toml
from bot.errors import LaurelError

_SECTIONS: dict[str, type[BaseModel]] = {"venues": Venue, "editions": Edition, "awards": Award}


class DocumentError(LaurelError):
    """A document that cannot be read at all (not TOML, or not shaped like a catalogue).

    `str()` is the English line the command line prints; `key` and `params` name the message
    (`document-<key>` in the locale files) that a member uploading the file reads instead.
    """

    def __init__(self, message: str, /, *, key: str, **params: object) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


def toml_line(error: tomllib.TOMLDecodeError) -> str:
    """The line tomllib names in its message, or "?"."""
    found = re.search(r"at line (\d+)", str(error))
    return found[1] if found else "?"


def describe_errors(error: ValidationError) -> str:
    """One line per problem, each with its location: `paper.links.code: only http …`."""
    return in_english(problems_of(error))


def read_document(text: str, origin: str) -> CatalogBatch:
    data = load_toml(text, origin)
    unknown = sorted(set(data) - set(_SECTIONS))
    if unknown:
        raise DocumentError(
            f"{origin}: unknown section(s) {', '.join(unknown)}; expected venues, editions, awards",
            key="toml-sections",
            sections=", ".join(unknown)[:200],
        )
    parsed: dict[str, list[Any]] = {name: [] for name in _SECTIONS}
    rejected: list[Rejection] = []
    for section, model in _SECTIONS.items():
        records = data.get(section, [])
        if not isinstance(records, list):
            raise DocumentError(
                f"{origin}: '{section}' must be an array of tables ([[{section}]])",
                key="toml-shape",
                section=section,
            )
        for index, record in enumerate(records):
            where = f"{origin} {section}[{index}]"
            try:
                parsed[section].append(model.model_validate(record))
            except ValidationError as exc:
                problems = problems_of(exc)
                rejected.append(
                    Rejection(where=where, reason=in_english(problems), problems=problems)
                )
    return CatalogBatch(
        venues=tuple(parsed["venues"]),
        editions=tuple(parsed["editions"]),
        awards=tuple(parsed["awards"]),
        rejected=tuple(rejected),
    )


def load_toml(text: str, origin: str) -> dict[str, Any]:
    """tomllib.loads, refusing documents nested deeper than a catalogue or settings can be."""
    check_toml(text, origin)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DocumentError(
            f"{origin}: not valid TOML: {exc}", key="not-toml", line=toml_line(exc)
        ) from None
    except RecursionError:
        raise NestedTooDeep(origin) from None
    check_data(data, origin)
    return data


def write_document(batch: CatalogBatch) -> str:
    document: dict[str, list[Any]] = {}
    for section in _SECTIONS:
        records: Iterable[BaseModel] = getattr(batch, section)
        dumped = [_plain(r.model_dump(exclude_none=True, exclude_defaults=True)) for r in records]
        if dumped:
            document[section] = dumped
    return tomli_w.dumps(document)


def _plain(value: Any) -> Any:
    """Turn a model dump into what TOML holds: enums to strings, tuples to lists."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def merge(batches: Iterable[CatalogBatch]) -> CatalogBatch:
    venues: list[Venue] = []
    editions: list[Edition] = []
    awards: list[Award] = []
    rejected: list[Rejection] = []
    for batch in batches:
        venues += batch.venues
        editions += batch.editions
        awards += batch.awards
        rejected += batch.rejected
    return CatalogBatch(
        venues=tuple(venues),
        editions=tuple(editions),
        awards=tuple(awards),
        rejected=tuple(rejected),
    )
