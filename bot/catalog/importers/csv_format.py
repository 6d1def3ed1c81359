r"""Awards as a spreadsheet: CSV that curators edit in Excel, LibreOffice or Google Sheets.

One row is one award. The first line is the header; columns may come in any order, and their
names are read without regard to case or surrounding spaces:

    venue,year,award,kind,track,title,authors,affiliations,paper_year,arxiv,doi,arxiv_url,
    pdf_url,openreview_url,project_url,code_url,abstract,summary_en,summary_zh_tw,
    summary_zh_cn,source_url,authors_incomplete

(one line in the file). Required: `venue` (its key, e.g. "icml"), `year`, `award` (the name as
the venue published it) and `title`. Everything else may be left out or left empty:

* `kind`: best, outstanding, runner-up, honorable-mention, test-of-time, position,
  datasets-benchmarks, classic, distinguished, student or other. Empty: the kind, and the track
  unless `track` is given, are read from the award's name.
* `authors`, `affiliations`: separated by ";" (names may contain commas).
* `authors_incomplete`: "true" when the source cut the author list short ("et al."); empty or
  "false" otherwise.
* `paper_year`: the year the paper appeared, when it differs (test-of-time awards).
* `arxiv`: an id such as 2502.06768v2 (the version is kept apart); `doi`: 10.xxxx/….
* `*_url`: http(s) links; `source_url` is where the award was announced.
* `abstract`, `summary_*`: may span lines inside quotes.

The file is UTF-8 (with or without the BOM Excel writes), comma-separated, quoted as in
RFC 4180. A row that is not a valid award is rejected with its line and the column at fault;
a file that cannot be read as a whole (not UTF-8, no header, missing or unknown columns) is
an error.

Two escapes keep any stored value intact, and a spreadsheet from running it:

* In `authors` and `affiliations`, `\;` is a ";" inside a name and `\\` a backslash; any other
  backslash is just a backslash.
* A cell that starts with what a spreadsheet takes for a formula ("=", "+", "-", "@", a tab or a
  carriage return) is written with a "'" before it, as OWASP advises; so is a cell that starts
  with "'" followed by one of those or by another "'". Reading strips one leading "'" from
  exactly such cells, so "'Tis" in a hand-written file stays "'Tis".

`write` writes the same header, so what CSV holds survives a round trip. What it cannot hold:
alternatives, sources beyond the award's first link (source documents, covers and notes, the
paper's own sources), venues and editions with their statistics.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from bot.catalog.document import DocumentError
from bot.catalog.problems import in_english, problems_of
from bot.domain.awards import classify_award
from bot.domain.models import Award, CatalogBatch, Language, Rejection

COLUMNS = (
    "venue", "year", "award", "kind", "track", "title", "authors", "affiliations",
    "paper_year", "arxiv", "doi", "arxiv_url", "pdf_url", "openreview_url", "project_url",
    "code_url", "abstract", "summary_en", "summary_zh_tw", "summary_zh_cn", "source_url",
    "authors_incomplete",
)  # fmt: skip
REQUIRED = ("venue", "year", "award", "title")
_LINKS = ("arxiv", "pdf", "openreview", "project", "code")
_SUMMARIES: dict[Language, str] = {
    "en": "summary_en",
    "zh-TW": "summary_zh_tw",
    "zh-CN": "summary_zh_cn",
}
_LISTS = ("authors", "affiliations")
# What a spreadsheet takes for the start of a formula (OWASP, "CSV Injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
GUARD = "'"
# In a list cell: an escaped separator or backslash, a separator, or anything else.
_LIST_PARTS = re.compile(r"\\([;\\])|(;)|(\\|[^;\\]+)")


def parse(path: Path) -> CatalogBatch:
    """Read the CSV file at `path`: every row becomes an Award or a Rejection."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DocumentError(
            f"{path.name}: not UTF-8 text (byte {exc.start}); save it as “CSV UTF-8”",
            key="csv-not-utf8",
        ) from None
    rows = _rows(text, path.name)
    first = next(rows, None)
    if first is None:
        raise DocumentError(
            f"{path.name}: empty file; the first line must be the header",
            key="csv-empty",
            required=", ".join(REQUIRED),
        )
    header = _header(first[1], path.name)
    awards: list[Award] = []
    rejected: list[Rejection] = []
    for line, row in rows:
        where = f"{path.name} line {line}"
        if len(row) != len(header):
            reason = f"{len(row)} values, but the header has {len(header)} columns"
            counts = {"values": len(row), "columns": len(header)}
            rejected.append(
                Rejection(where=where, reason=reason, key="csv-row-length", params=counts)
            )
            continue
        cells = {name: unguard(value.strip()) for name, value in zip(header, row, strict=True)}
        empty = [name for name in REQUIRED if not cells[name]]
        if empty:
            named = ", ".join(empty)
            rejected.append(
                Rejection(
                    where=where,
                    reason=f"empty {named}",
                    key="csv-empty-cells",
                    params={"columns": named},
                )
            )
            continue
        try:
            awards.append(Award.model_validate(_record(cells)))
        except ValidationError as exc:
            problems = problems_of(exc, _column)
            rejected.append(Rejection(where=where, reason=in_english(problems), problems=problems))
    return CatalogBatch(awards=tuple(awards), rejected=tuple(rejected))


def _rows(text: str, origin: str) -> Iterator[tuple[int, list[str]]]:
    """The non-blank rows of `text`, each with the line it starts on."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    line = 1
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                yield line, row
            line = reader.line_num + 1
    except csv.Error as exc:
        raise DocumentError(
            f"{origin} line {line}: not readable as CSV: {exc}", key="csv-unreadable", line=line
        ) from None


def _header(row: list[str], origin: str) -> list[str]:
    names = [cell.strip().lower() for cell in row]
    unknown = [name or f"(unnamed column {i})" for i, name in enumerate(names, 1)]
    unknown = [name for name in unknown if name not in COLUMNS]
    missing = [name for name in REQUIRED if name not in names]
    twice = sorted({name for name in names if names.count(name) > 1})
    problems = [
        f"{label} {', '.join(found)}"
        for label, found in (
            ("unknown column(s)", unknown),
            ("missing column(s)", missing),
            ("column(s) given twice:", twice),
        )
        if found
    ]
    if problems:
        optional = ", ".join(name for name in COLUMNS if name not in REQUIRED)
        raise DocumentError(
            f"{origin}: {'; '.join(problems)}. The first line must be the header: "
            f"{', '.join(REQUIRED)} and any of {optional}",
            key="csv-header",
            columns=", ".join([*unknown, *missing, *twice])[:200],
            required=", ".join(REQUIRED),
        )
    return names


def _record(cells: dict[str, str]) -> dict[str, Any]:
    """The award a row describes, as the dict the model validates; empty cells are absent."""
    value = {name: cell for name, cell in cells.items() if cell}
    kind, track = value.get("kind", "").lower(), value.get("track")
    if not kind:
        derived, derived_track = classify_award(value["award"])
        kind, track = derived.value, track or derived_track
    paper: dict[str, Any] = {
        name: [part.strip() for part in split_list(value[name]) if part.strip()]
        for name in _LISTS
        if name in value
    }
    paper |= {name: value[name] for name in ("title", "arxiv", "doi", "abstract") if name in value}
    if "paper_year" in value:
        paper["year"] = value["paper_year"]
    if "authors_incomplete" in value:
        paper["authors_incomplete"] = value["authors_incomplete"]  # true/false, yes/no, 1/0
    paper["links"] = {link: value[f"{link}_url"] for link in _LINKS if f"{link}_url" in value}
    paper["summaries"] = {lang: value[col] for lang, col in _SUMMARIES.items() if col in value}
    record: dict[str, Any] = {
        "venue": value["venue"],
        "year": value["year"],
        "name": value["award"],
        "kind": kind,
        "track": track,
        "paper": paper,
    }
    if "source_url" in value:
        record["sources"] = [{"url": value["source_url"]}]
    return record


def _column(loc: tuple[int | str, ...]) -> str:
    match loc:
        case ("name", *_):
            return "award"
        case ("sources", *_):
            return "source_url"
        case ("paper",):
            return "arxiv"  # the paper's only whole-record check is its arXiv id
        case ("paper", "year", *_):
            return "paper_year"
        case ("paper", "links", str(link), *_):
            return f"{link}_url"
        case ("paper", "summaries", str(language), *_):
            return "summary_" + language.lower().replace("-", "_")
        case ("paper", "authors" | "affiliations" as name, int(index), *_):
            return f"{name} (#{index + 1})"
        case ("paper", str(name), *_):
            return name
        case (str(name), *_):
            return name
    return "row"


def guard(cell: str) -> str:
    """`cell` as a spreadsheet shows it as text (never runs it); `unguard` gives it back."""
    if cell.startswith(FORMULA_STARTS) or (
        cell.startswith(GUARD) and cell[1:2] and cell[1:2] in (*FORMULA_STARTS, GUARD)
    ):
        return GUARD + cell
    return cell


def unguard(cell: str) -> str:
    """`cell` without the "'" that `guard` (or a spreadsheet user) put before a formula."""
    if cell.startswith(GUARD) and cell[1:2] and cell[1:2] in (*FORMULA_STARTS, GUARD):
        return cell[1:]
    return cell


def join_list(items: tuple[str, ...]) -> str:
    return "; ".join(item.replace("\\", "\\\\").replace(";", "\\;") for item in items)


def split_list(cell: str) -> list[str]:
    """The names in a list cell: split at each ";" that is not escaped, escapes undone."""
    names: list[str] = []
    current: list[str] = []
    for escaped, separator, text in _LIST_PARTS.findall(cell):
        if separator:
            names.append("".join(current))
            current = []
        else:
            current.append(escaped or text)
    names.append("".join(current))
    return names


def write(batch: CatalogBatch) -> str:
    """The awards of `batch` as CSV with the full header (venues and editions are not written).

    Every value is written so that `parse` reads it back unchanged, and no cell is a formula.
    """
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for award in batch.awards:
        cells = _cells(award)
        writer.writerow([guard(cells[name]) for name in COLUMNS])
    return out.getvalue()


def _cells(award: Award) -> dict[str, str]:
    paper = award.paper
    cells = {
        "venue": award.venue,
        "year": str(award.year),
        "award": award.name,
        "kind": award.kind.value,
        "track": award.track or "",
        "title": paper.title,
        "authors": join_list(paper.authors),
        "affiliations": join_list(paper.affiliations),
        "paper_year": "" if paper.year is None else str(paper.year),
        "arxiv": str(paper.arxiv_id or ""),
        "doi": paper.doi or "",
        "abstract": paper.abstract or "",
        "source_url": next((s.url for s in award.sources if s.url), None) or "",
        "authors_incomplete": "true" if paper.authors_incomplete else "",
    }
    cells |= {f"{link}_url": getattr(paper.links, link) or "" for link in _LINKS}
    cells |= {column: paper.summaries.get(lang, "") for lang, column in _SUMMARIES.items()}
    return cells
