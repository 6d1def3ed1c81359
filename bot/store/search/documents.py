"""What the derived search index is built from: the catalogue's documents and its change sequence.

SQLite stays the truth. Every catalogue write leaves audit rows in the same transaction
(`catalog_writer`), and the audit table is append-only with increasing ids: its latest id is
the catalogue's *generation*. An index that reflects generation g catches up by reading the
audit rows after g, mapping them to the papers they touch (a paper's own rows; an award's
paper, whose filters changed) and reloading those papers as they are now. Nothing here is
in-process: any number of processes can each follow one store.

On PostgreSQL (issue 15) the same holds: ids come from a sequence, and sequence values can in
general commit out of order, but every write transaction there first takes one advisory lock
(`pg_advisory_xact_lock`, held to its commit): writes commit one after another, each with ids
above those of every write committed before it. A reader that sees audit row g sees every row
below g, so "the latest id" is a generation there too.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

import tantivy

from bot.domain.areas import AREA_NAMES, ResearchArea
from bot.domain.awards import standing
from bot.domain.paper_names import own_names
from bot.store.catalog_sql import ids_in, names_json
from bot.store.search.semantic import paper_text
from bot.store.search.text import exact_key, prefixes, stems, tokens
from bot.store.sql import Connection, Row

# Each award gives its paper one filter token per combination of venue, year and kind, so that
# one term answers "an award at this venue, in this year, of this kind" for any of them given.
ANY = "*"
# The long fields: a phrase there is read as its adjacent pairs of stems (text_pairs, pair_token).
TEXT_FIELDS = ("summaries", "abstract")


@dataclass(frozen=True, slots=True)
class SearchDocument:
    """One live paper as the index holds it: space-joined tokens per field."""

    id: int
    fields: dict[str, str]
    filters: tuple[str, ...]
    prior: int = 0  # documents.prior_code
    about: str = ""  # what its vector is made of (semantic.paper_text)

    def as_tantivy(self, vector: bytes | None = None) -> tantivy.Document:
        """As tantivy takes it, with its vector (semantic.py) where one was made."""
        document = tantivy.Document()
        document.add_integer("id", self.id)
        document.add_integer("prior", self.prior)
        if vector:
            document.add_bytes("vector", vector)
        for name, text in self.fields.items():
            if text:
                document.add_text(name, text)
        for token in self.filters:
            document.add_text("filters", token)
        return document


def _documents(dialect: str) -> str:
    if dialect == "postgresql":
        awards = """(SELECT CAST(coalesce(json_agg(json_build_array(e.venue, e.year, a.kind,
                    a.name, v.name, v.full_name)), '[]') AS TEXT)
                FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
                JOIN venues AS v ON v.key = e.venue
                WHERE a.paper_id = p.id)"""
    else:
        awards = """(SELECT json_group_array(json_array(e.venue, e.year, a.kind, a.name, v.name,
                    v.full_name))
                FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
                JOIN venues AS v ON v.key = e.venue
                WHERE a.paper_id = p.id)"""
    return f"""
        SELECT p.id, p.title, p.abstract, p.summaries, p.area, p.task, p.aliases,
            {names_json("paper_authors", dialect)} AS authors,
            {names_json("paper_affiliations", dialect)} AS affiliations,
            {awards} AS awards
        FROM live_papers AS p
        WHERE CAST(:ids AS TEXT) IS NULL OR {ids_in(":ids", dialect)}
        ORDER BY p.id
        """  # noqa: S608 (constant fragments)


# The live papers (those of the JSON array `:ids`, or all when it is NULL) as the index reads
# them; lists as JSON text.
_DOCUMENTS = {d: _documents(d) for d in ("sqlite", "postgresql")}


def filter_token(venue: str | None, year: int | None, kind: str | None) -> str:
    return f"{venue or ANY}|{year if year is not None else ANY}|{kind or ANY}"


def area_token(area: str) -> str:
    return f"area:{area}"


def task_token(task: str) -> str:
    return f"task:{task}"


def prior_code(awards: list[tuple[int, str, str]]) -> int:
    """The mild prior of a paper of these awards (year, kind, name), as one small number for
    the index's fast field: its best standing (bot.domain.awards.standing, 0-2) times four,
    plus how recent its latest award is (0-3). ranked.prior_bonus reads it."""
    if not awards:
        return 0
    best = max(standing(kind, name) for _, kind, name in awards)
    latest = max(year for year, _, _ in awards)
    recent = 3 if latest >= 2023 else 2 if latest >= 2020 else 1 if latest >= 2017 else 0
    return best * 4 + recent


def generation(conn: Connection) -> int:
    """The id of the latest audit row: which catalogue write the store is at."""
    return int(conn.execute("SELECT ifnull(max(id), 0) FROM audit").fetchone()[0])


def generation_mark(conn: Connection, generation: int) -> str | None:
    """What the audit row `generation` says: an index of another history is not followed."""
    row = conn.execute(
        "SELECT at, entity, entity_id FROM audit WHERE id = ?", (generation,)
    ).fetchone()
    return None if row is None else f"{row[0]}|{row[1]}|{row[2]}"


def changed_papers(conn: Connection, since: int, until: int) -> set[int]:
    """The papers whose document or filters changed after generation `since`, up to `until`."""
    found = conn.execute(
        """
        SELECT CAST(entity_id AS INTEGER) FROM audit
        WHERE id > :since AND id <= :until AND entity = 'paper'
        UNION
        SELECT a.paper_id FROM audit AS u JOIN awards AS a ON a.id = CAST(u.entity_id AS INTEGER)
        WHERE u.id > :since AND u.id <= :until AND u.entity = 'award'
        """,
        {"since": since, "until": until},
    )
    return {int(r[0]) for r in found}


def documents(conn: Connection, ids: Iterable[int] | None = None) -> Iterator[SearchDocument]:
    """The live papers (all, or those of `ids` that are live) as the index holds them."""
    wanted = None
    if ids is not None:
        wanted = json.dumps(sorted(ids))
        if wanted == "[]":
            return
    found = conn.execute(_DOCUMENTS[conn.dialect], {"ids": wanted})
    memo: dict[str, str] = {}
    for row in found:
        yield _document(row, memo)


def _document(row: Row, memo: dict[str, str]) -> SearchDocument:
    summaries = json.loads(row["summaries"] or "{}") or {}
    awards = json.loads(row["awards"])
    names = own_names(row["title"], row["abstract"])
    names += [name for name in json.loads(row["aliases"] or "[]") if name not in names]
    words = {
        "title": tokens(row["title"]),
        "aliases": tokens(" ; ".join([*names, *compound_parts(row["title"], *names)])),
        "authors": tokens(" ; ".join(json.loads(row["authors"]))),
        "affiliations": tokens(" ; ".join(json.loads(row["affiliations"]))),
        "summaries": tokens("\n".join(summaries.values())),
        "abstract": tokens(row["abstract"] or ""),
        "meta": tokens(" ; ".join(_described(row["area"], row["task"], awards))),
    }
    fields = {name: " ".join(found) for name, found in words.items()}
    texts = {name: stems(words[name]) for name in TEXT_FIELDS}  # each stemmed once
    fields |= {
        "title_prefix": prefixes(words["title"] + words["aliases"], memo),
        "authors_prefix": prefixes(words["authors"], memo),
        "affiliations_prefix": prefixes(words["affiliations"], memo),
        "text_prefix": prefixes(words["summaries"] + words["abstract"], memo),
        "title_stems": " ".join(stems(words["title"] + words["aliases"])),
        "text_stems": " ".join(texts["summaries"] + texts["abstract"]),
        "text_pairs": " ".join(pair for name in TEXT_FIELDS for pair in _pairs(texts[name])),
    }
    exact = {exact_key(row["title"]), *(exact_key(name) for name in names)}
    filters: set[str] = {f"exact:{key}" for key in exact if key}
    for venue, year, kind, *_ in awards:
        for v in (venue, None):
            for y in (year, None):
                for k in (kind, None):
                    if (v, y, k) != (None, None, None):
                        filters.add(filter_token(v, y, k))
    if row["area"]:
        filters.add(area_token(row["area"]))
    if row["task"]:
        filters.add(task_token(row["task"]))
    prior = prior_code([(year, kind, name) for _, year, kind, name, *_ in awards])
    about = paper_text(
        row["title"], summaries.get("en", ""), row["abstract"] or "", row["area"] or "",
        row["task"] or "",
    )  # fmt: skip
    return SearchDocument(int(row["id"]), fields, tuple(sorted(filters)), prior, about)


def pair_token(first: str, second: str) -> str:
    """Two adjacent stems of a summary or an abstract as text_pairs holds them."""
    return f"{first}_{second}"


def _pairs(stemmed: list[str]) -> Iterator[str]:
    """Each two adjacent English stems, as pair_token writes them."""
    for first, second in itertools.pairwise(stemmed):
        if first.isascii() and second.isascii():
            yield pair_token(first, second)


# A word written as several joined (SinGAN, KinyaBERT, pixelSplat, LLM2CLIP): its parts, where
# the case or the kind of character changes (an acronym's plural, VAEs, one part), each of
# PART_MIN characters or more (shorter ones, Gx of GxVAEs, Ne of NeRF, are no names).
_JOINED = re.compile(r"[^\W_]+")
_PART = re.compile(r"[A-Z]{2,}s(?![a-z])|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")
PART_MIN = 3


def compound_parts(*texts: str) -> list[str]:
    """The parts of the words of `texts` written as several joined, in the order found: a
    paper named SinGAN is found by GAN, one named KinyaBERT by BERT (as a name it gives
    itself, below the paper named BERT exactly)."""
    found: list[str] = []
    for text in texts:
        for word in _JOINED.findall(text):
            parts = [part for part in _PART.findall(word) if len(part) >= PART_MIN]
            if len(parts) > 1 or (parts and parts[0] != word):
                found += parts
    return list(dict.fromkeys(found))


def _described(area: str | None, task: str | None, awards: list[list[object]]) -> list[str]:
    """What the paper is filed under: its area's names (AREA_NAMES), its task's name (the
    taxonomy's), its venues' names and its awards' names."""
    found: list[str] = []
    if area is not None and area in ResearchArea._value2member_map_:
        found += [area, *AREA_NAMES[ResearchArea(area)]]
    if task:
        found.append(task)
    for _venue, _year, _kind, name, venue_name, full_name in awards:
        found += [str(name), str(venue_name), str(full_name or "")]
    return list(dict.fromkeys(found))
