"""The one way into the catalogue.

The bundled data, every importer and every curator's command hand a `CatalogBatch` of validated
models to `apply_batch`, which runs inside the transaction `Database.write` (or, for a dry run,
`Database.rehearse`) opened. Each record is written under a savepoint: it lands whole, with its
audit row, or is rejected with a reason and leaves nothing behind.

Three policies decide what happens when a record meets one already stored:
- `update` (our own documents and curators): the values it gives replace the stored ones;
- `fill` (foreign imports): it only fills what is missing, and where it disagrees with a stored
  value, its value is kept as an alternative with its source — both are kept, ours preferred;
- `bundle` (a new release's bundled catalogue meeting a database in use): like `update`, except
  that a field someone other than this actor ever changed (the audit says so) stays theirs, and
  a paper or award a curator removed stays removed (reported as unchanged, not rejected).
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Callable
from functools import partial
from typing import Any, Literal

from bot.domain.models import Award, CatalogBatch, Edition, Paper, Rejection, Source, Venue
from bot.domain.plan import Action, Change, Entity, Plan
from bot.domain.text import title_key
from bot.store import rows
from bot.store.curated import curated_fields, renamed_papers

Policy = Literal["update", "fill", "bundle"]
_UNION_FIELDS = frozenset({"aliases", "sources", "alternatives"})
_MAPPING_FIELDS = frozenset({"links", "summaries"})
# A field that describes another: it is taken with the value it describes, never on its own
# (a complete author list stays complete when a source with a cut-short one meets it).
_FOLLOWS = {"authors_incomplete": "authors"}


class Rejected(Exception):
    """A record that cannot be written as it is; the message says why (in English), and
    `key` and `params` name the message a member reads (`rejected-<key>`)."""

    def __init__(self, message: str, /, *, key: str, **params: str | int) -> None:
        super().__init__(message)
        self.key = key
        self.params = params


class KeptRemoved(Exception):
    """Under `bundle`: a record a curator removed, which the bundled catalogue still has."""


def apply_batch(
    conn: sqlite3.Connection,
    batch: CatalogBatch,
    *,
    actor: str,
    policy: Policy,
    batch_id: str,
    progress: Callable[[int], object] | None = None,
    new_papers_only: bool = False,
) -> Plan:
    """Write every record of `batch`, venues first; `progress(n)` hears of each n done.

    With `new_papers_only`, an award whose paper is already stored is rejected, not merged: a
    curator's confirmed addition must not turn into a change of another paper.
    """
    writer = _Writer(conn, actor=actor, policy=policy, batch_id=batch_id)
    writer.new_papers_only = new_papers_only
    for venue in batch.venues:
        writer.record(f"venue {venue.key}", partial(writer.venue, venue))
    for edition in batch.editions:
        writer.record(f"edition {edition.venue} {edition.year}", partial(writer.edition, edition))
    if progress:
        progress(len(batch.venues) + len(batch.editions))
    for index, award in enumerate(batch.awards, 1):
        where = f"award {award.venue} {award.year} “{award.paper.title[:80]}”"
        writer.record(where, partial(writer.award, award))
        if progress and index % 100 == 0:
            progress(100)
    if progress and len(batch.awards) % 100:
        progress(len(batch.awards) % 100)
    writer.flush_index()
    return Plan(
        changes=writer.changes, rejected=[*batch.rejected, *writer.rejected], batch=batch_id
    )


class _Writer:
    def __init__(self, conn: sqlite3.Connection, *, actor: str, policy: Policy, batch_id: str):
        self.conn = conn
        self.actor = actor
        self.policy = policy
        self.batch_id = batch_id
        self.now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
        self.new_papers_only = False
        self.changes: list[Change] = []
        self.rejected: list[Rejection] = []
        # Search-index rows are written once, after the last record: FTS5 flushes its pending
        # data at every savepoint, which made each record's savepoint ~4x dearer.
        self._to_index: list[tuple[int, dict[str, Any]]] = []
        self._renamed: dict[str, list[int]] | None = None

    def record(self, where: str, write: Callable[[], None]) -> None:
        """Write one record under a savepoint; on failure undo it alone and say why."""
        self.conn.execute("SAVEPOINT record")
        marks = len(self.changes), len(self._to_index)
        try:
            write()
        except (Rejected, sqlite3.IntegrityError, KeptRemoved) as exc:
            self.conn.execute("ROLLBACK TO record")
            del self.changes[marks[0] :]
            del self._to_index[marks[1] :]
            if isinstance(exc, KeptRemoved):
                self.changes.append(Change("unchanged", "award", f"{where}: {exc}"))
            else:
                key, params = (
                    (exc.key, exc.params) if isinstance(exc, Rejected) else ("conflict", {})
                )
                self.rejected.append(
                    Rejection(where=where, reason=str(exc), key=key, params=params)
                )
        self.conn.execute("RELEASE record")

    def flush_index(self) -> None:
        latest = dict(self._to_index)  # a paper written twice in one batch: its last version
        self.conn.executemany(
            "DELETE FROM paper_search WHERE rowid = ?", [(paper_id,) for paper_id in latest]
        )
        self.conn.executemany(
            """
            INSERT INTO paper_search (rowid, title, authors, affiliations, summaries, abstract)
            VALUES (?, ?, ?, ?, ?, ?)
            """,
            [(paper_id, *rows.search_document(paper)) for paper_id, paper in latest.items()],
        )
        self._to_index.clear()

    # -- venues and editions -------------------------------------------------------------

    def venue(self, venue: Venue) -> None:
        row = self.conn.execute("SELECT * FROM venues WHERE key = ?", (venue.key,)).fetchone()
        incoming = rows.values(venue, rows.VENUE_FIELDS)
        if row is None:
            self._insert("venues", {"key": venue.key, **incoming})
            self._note("add", "venue", venue.key, venue.name, None, incoming)
            return
        before = rows.from_row(row, rows.VENUE_FIELDS)
        curated = self._curated("venue", venue.key)
        after = self._merge(before, incoming, None, curated)  # venues carry no sources
        self._update("venues", "key = ?", (venue.key,), before, after)
        self._note("change", "venue", venue.key, venue.name, before, after)

    def edition(self, edition: Edition) -> None:
        self._require_venue(edition.venue)
        row = self._edition_row(edition.venue, edition.year)
        incoming = rows.values(edition, rows.EDITION_FIELDS)
        label = f"{edition.venue} {edition.year}"
        if row is None:
            row_id = self._insert(
                "editions", {"venue": edition.venue, "year": edition.year, **incoming}
            )
            self._note("add", "edition", str(row_id), label, None, incoming)
            return
        before = rows.from_row(row, rows.EDITION_FIELDS)
        curated = self._curated("edition", str(row["id"]))
        after = self._merge(before, incoming, incoming["sources"], curated)
        self._update("editions", "id = ?", (row["id"],), before, after)
        self._note("change", "edition", str(row["id"]), label, before, after)

    def _edition_row(self, venue: str, year: int) -> sqlite3.Row | None:
        row: sqlite3.Row | None = self.conn.execute(
            "SELECT * FROM editions WHERE venue = ? AND year = ?", (venue, year)
        ).fetchone()
        return row

    def _edition_id(self, venue: str, year: int) -> int:
        """The edition an award belongs to, made (with no statistics) if it is not there yet."""
        row = self._edition_row(venue, year)
        if row is not None:
            return int(row["id"])
        self.edition(Edition(venue=venue, year=year))
        return int(self._edition_row(venue, year)["id"])  # type: ignore[index]

    def _require_venue(self, key: str) -> None:
        if self.conn.execute("SELECT 1 FROM venues WHERE key = ?", (key,)).fetchone() is None:
            known = ", ".join(
                r[0] for r in self.conn.execute("SELECT key FROM venues ORDER BY key")
            )
            raise Rejected(
                f"unknown venue '{key}' (known: {known or 'none yet'})",
                key="unknown-venue",
                venue=key[:40],
            )

    # -- papers and awards ---------------------------------------------------------------

    def award(self, award: Award, paper_id: int | None = None) -> None:
        """Write `award`, to the paper it resolves to (or, given, to paper `paper_id`)."""
        self._require_venue(award.venue)
        edition_id = self._edition_id(award.venue, award.year)
        if paper_id is None:
            paper_id = self.paper(award.paper, edition_id)
        incoming = rows.values(award, rows.AWARD_FIELDS)
        label = f"{award.venue} {award.year} {award.kind.value}: {award.paper.title[:60]}"
        row = self.conn.execute(
            """
            SELECT * FROM awards
            WHERE edition_id = ? AND paper_id = ? AND kind = ? AND ifnull(track, '') = ?
            """,
            (edition_id, paper_id, award.kind.value, award.track or ""),
        ).fetchone()
        if row is None:
            identity = {"edition_id": edition_id, "paper_id": paper_id, "kind": award.kind.value}
            row_id = self._insert("awards", {**identity, "track": award.track, **incoming})
            self._note("add", "award", str(row_id), label, None, {**identity, **incoming})
            return
        if row["removed_at"] is not None:
            if self.policy == "bundle":
                raise KeptRemoved(f"award #{row['id']} was removed by a curator; kept removed")
            raise Rejected(
                f"award #{row['id']} was removed by a curator; undo the removal",
                key="award-removed",
                id=row["id"],
            )
        before = rows.from_row(row, rows.AWARD_FIELDS)
        curated = self._curated("award", str(row["id"]))
        after = self._merge(before, incoming, incoming["sources"], curated)
        self._update("awards", "id = ?", (row["id"],), before, after)
        self._note("change", "award", str(row["id"]), label, before, after)

    def paper(self, paper: Paper, edition_id: int) -> int:
        """Write `paper` as a new row or into the row it resolves to; return the row id."""
        incoming = rows.values(paper, rows.PAPER_FIELDS)
        label = f"“{paper.title[:60]}”" + (f" arXiv:{paper.arxiv}" if paper.arxiv else "")
        key = title_key(paper.title)
        paper_id = self._resolve(paper, key, edition_id)
        if paper_id is None:
            columns = {k: v for k, v in incoming.items() if k not in rows.LIST_TABLES}
            paper_id = self._insert("papers", {**columns, "title_key": key})
            self._write_lists(paper_id, incoming, None)
            self._index(paper_id, incoming)
            self._note("add", "paper", str(paper_id), label, None, incoming)
            return paper_id
        if self.new_papers_only:
            raise Rejected(
                f"the catalogue already has this paper as paper #{paper_id}",
                key="duplicate-paper",
                id=paper_id,
            )
        if self._one("SELECT id FROM papers WHERE id = ? AND removed_at IS NOT NULL", paper_id):
            if self.policy == "bundle":
                raise KeptRemoved(f"paper #{paper_id} was removed by a curator; kept removed")
            raise Rejected(
                f"paper #{paper_id} was removed by a curator; undo the removal",
                key="paper-removed",
                id=paper_id,
            )
        before = self._stored_paper(paper_id)
        curated = self._curated("paper", str(paper_id))
        after = self._merge(before, incoming, incoming["sources"], curated)
        after["arxiv_version"] = _latest(before.get("arxiv_version"), incoming.get("arxiv_version"))
        columns = {k: v for k, v in after.items() if k not in rows.LIST_TABLES}
        before_columns = {k: v for k, v in before.items() if k not in rows.LIST_TABLES}
        if columns != before_columns:
            columns["title_key"] = title_key(after["title"])
            self._update(
                "papers", "id = ?", (paper_id,), {**before_columns, "title_key": None}, columns
            )
        self._write_lists(paper_id, after, before)
        if after != before:
            self._index(paper_id, after)
        self._note("merge", "paper", str(paper_id), label, before, after)
        return paper_id

    def _resolve(self, paper: Paper, key: str, edition_id: int) -> int | None:
        """The stored paper this one is: same arXiv id, same DOI, or same title in the edition."""
        by_arxiv = self._one("SELECT id FROM papers WHERE arxiv = ?", paper.arxiv)
        by_doi = self._one("SELECT id FROM papers WHERE doi = ?", paper.doi)
        if by_arxiv and by_doi and by_arxiv != by_doi:
            raise Rejected(
                f"arXiv:{paper.arxiv} is paper #{by_arxiv} but DOI {paper.doi} is paper #{by_doi}",
                key="identifiers",
                arxiv=by_arxiv,
                doi=by_doi,
            )
        if by_arxiv or by_doi:
            return by_arxiv or by_doi
        # Written so that SQLite starts from papers_by_title_key; joining from awards made it
        # walk every award of the edition, and imports slowed down as editions grew.
        row = self.conn.execute(
            """
            SELECT p.id, p.arxiv, p.doi
            FROM papers AS p
            WHERE p.title_key = ?
              AND EXISTS (SELECT 1 FROM awards AS a WHERE a.paper_id = p.id AND a.edition_id = ?)
            LIMIT 1
            """,
            (key, edition_id),
        ).fetchone()
        if row is None:
            return self._former_title(key, edition_id) if self.policy == "bundle" else None
        # A stored id that differs from the one given means two papers that share a title.
        if (paper.arxiv and row["arxiv"]) or (paper.doi and row["doi"]):
            return None
        return int(row["id"])

    def _former_title(self, key: str, edition_id: int) -> int | None:
        """A paper of the edition that a curator renamed from this title (under `bundle`)."""
        if self._renamed is None:
            self._renamed = renamed_papers(self.conn, self.actor)
        for paper_id in self._renamed.get(key, []):
            found = self.conn.execute(
                "SELECT 1 FROM awards WHERE paper_id = ? AND edition_id = ?", (paper_id, edition_id)
            ).fetchone()
            if found:
                return paper_id
        return None

    def _curated(self, entity: Entity, entity_id: str) -> frozenset[str]:
        if self.policy != "bundle":
            return frozenset()
        return curated_fields(self.conn, entity, entity_id, self.actor)

    def _one(self, sql: str, value: str | int | None) -> int | None:
        if value is None:
            return None
        row = self.conn.execute(sql, (value,)).fetchone()
        return None if row is None else int(row[0])

    def _stored_paper(self, paper_id: int) -> dict[str, Any]:
        row = self.conn.execute("SELECT * FROM papers WHERE id = ?", (paper_id,)).fetchone()
        stored = rows.from_row(row, rows.PAPER_FIELDS)
        for field, table in rows.LIST_TABLES.items():
            names = self.conn.execute(
                f"SELECT name FROM {table} WHERE paper_id = ? ORDER BY position",  # noqa: S608
                (paper_id,),
            )
            stored[field] = [r[0] for r in names] or None
        return stored

    def _write_lists(
        self, paper_id: int, after: dict[str, Any], before: dict[str, Any] | None
    ) -> None:
        for field, table in rows.LIST_TABLES.items():
            names = after.get(field) or []
            if before is not None:
                if (before.get(field) or []) == names:
                    continue
                self.conn.execute(f"DELETE FROM {table} WHERE paper_id = ?", (paper_id,))  # noqa: S608
            self.conn.executemany(
                f"INSERT INTO {table} (paper_id, position, name) VALUES (?, ?, ?)",  # noqa: S608
                [(paper_id, i, name) for i, name in enumerate(names)],
            )

    def _index(self, paper_id: int, paper: dict[str, Any]) -> None:
        self._to_index.append((paper_id, paper))

    # -- merging, writing, auditing ------------------------------------------------------

    def _merge(
        self,
        before: dict[str, Any],
        incoming: dict[str, Any],
        sources: list[Any] | None,
        curated: frozenset[str] = frozenset(),
    ) -> dict[str, Any]:
        after = dict(before)
        for field, new in incoming.items():
            old = before.get(field)
            if new in (None, [], {}) or field in _FOLLOWS or field in curated:
                continue
            if field in _UNION_FIELDS:
                after[field] = list(old or []) + [x for x in new if x not in (old or [])]
            elif field in _MAPPING_FIELDS:
                after[field] = self._merge_mapping(field, old or {}, new, sources, after)
            elif old in (None, [], {}) or self.policy != "fill":
                after[field] = new
            elif old != new:
                self._keep_alternative(after, field, new, sources)
        for field, leader in _FOLLOWS.items():
            if field in curated or field not in incoming or not incoming.get(leader):
                continue
            if after.get(leader) == incoming[leader]:
                after[field] = incoming[field]
        return after

    def _merge_mapping(
        self,
        field: str,
        old: dict[str, Any],
        new: dict[str, Any],
        sources: list[Any] | None,
        after: dict[str, Any],
    ) -> dict[str, Any]:
        merged = dict(old)
        for key, value in new.items():
            if key not in old or self.policy != "fill":
                merged[key] = value
            elif old[key] != value:
                self._keep_alternative(after, f"{field}.{key}", value, sources)
        return merged

    def _keep_alternative(
        self, after: dict[str, Any], field: str, value: Any, sources: list[Any] | None
    ) -> None:
        if "alternatives" not in after:
            return  # venues keep no alternatives: the stored value stands
        source = (sources or [None])[0] or Source(document=f"import by {self.actor}").model_dump(
            mode="json", exclude_none=True
        )
        alternative = {
            "field": field,
            "value": value,
            "source": source,
            "reason": "given by a later import; the value already in the catalogue is kept",
        }
        existing = after.get("alternatives") or []
        if not any(a["field"] == field and a["value"] == value for a in existing):
            after["alternatives"] = [*existing, alternative]

    def _insert(self, table: str, values: dict[str, Any]) -> int:
        columns = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        cursor = self.conn.execute(
            f"INSERT INTO {table} ({columns}) VALUES ({marks})",  # noqa: S608
            [rows.to_column(k, v) for k, v in values.items()],
        )
        return int(cursor.lastrowid or 0)

    def _update(
        self,
        table: str,
        where: str,
        key: tuple[Any, ...],
        before: dict[str, Any],
        after: dict[str, Any],
    ) -> None:
        changed = {k: v for k, v in after.items() if before.get(k) != v}
        if not changed:
            return
        assignments = ", ".join(f"{column} = ?" for column in changed)
        self.conn.execute(
            f"UPDATE {table} SET {assignments} WHERE {where}",  # noqa: S608
            [*(rows.to_column(k, v) for k, v in changed.items()), *key],
        )

    def _note(
        self,
        action: Action,
        entity: Entity,
        entity_id: str,
        label: str,
        before: dict[str, Any] | None,
        after: dict[str, Any],
    ) -> None:
        if before is not None:
            fields = tuple(k for k in after if before.get(k) != after[k])
            if not fields:
                self.changes.append(Change("unchanged", entity, label))
                return
        else:
            fields = ()
        self.changes.append(Change(action, entity, label, fields))
        self.conn.execute(
            """
            INSERT INTO audit (at, actor, batch, action, entity, entity_id, before, after)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            (
                self.now,
                self.actor,
                self.batch_id,
                action,
                entity,
                entity_id,
                None if before is None else json.dumps(before, ensure_ascii=False),
                json.dumps(after, ensure_ascii=False),
            ),
        )


def _latest(old: int | None, new: int | None) -> int | None:
    return max((v for v in (old, new) if v is not None), default=None)
