"""The one way into the catalogue.

The bundled data, every importer and every curator's command hand a `CatalogBatch` of validated
models, and the `WriteContext` of the write (who, which policy, which batch, when), to
`apply_batch` (by way of `CatalogRepository`), which runs inside the transaction
`Database.write` (or, for a dry run, `Database.rehearse`) opened. Each record is written under a
savepoint (`bot.store.catalog.record_writer`): it lands whole, with its audit row, or is
rejected with a reason and leaves nothing behind.

Three policies decide what happens when a record meets one already stored:
- `update` (our own documents and curators): the values it gives replace the stored ones;
- `fill` (foreign imports): it only fills what is missing, and where it disagrees with a stored
  value, its value is kept as an alternative with its source — both are kept, ours preferred;
- `bundle` (a new release's bundled catalogue meeting a database in use): like `update`, except
  that a field someone other than this actor ever changed (the audit says so) stays theirs, and
  a paper or award a curator removed stays removed (reported as unchanged, not rejected).
How values meet under each policy is `bot.domain.catalog_merge` (pure rules, no SQL).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from bot.domain.catalog_merge import latest, merge
from bot.domain.models import Award, CatalogBatch, Edition, Paper, Venue
from bot.domain.plan import Plan
from bot.domain.text import title_key
from bot.domain.writes import WriteContext
from bot.store import rows
from bot.store.catalog.curated import Carried, corrected_paper, rekinded_award, renamed_papers
from bot.store.catalog.record_writer import KeptRemoved, RecordWriter, Rejected
from bot.store.sql import Connection, Row


def apply_batch(
    conn: Connection,
    batch: CatalogBatch,
    context: WriteContext,
    progress: Callable[[int], object] | None = None,
) -> Plan:
    """Write every record of `batch`, venues first; `progress(n)` hears of each n done."""
    carried = Carried.of(batch.awards) if context.policy == "bundle" else None
    writer = CatalogWriter(conn, context, carried)
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
        changes=writer.changes,
        rejected=[*batch.rejected, *writer.rejected],
        batch=context.batch_id,
    )


class CatalogWriter(RecordWriter):
    """Venues, editions, awards and papers, each met with the record already stored (if any)
    under the write's policy."""

    def __init__(
        self, conn: Connection, context: WriteContext, carried: Carried | None = None
    ) -> None:
        super().__init__(conn, context)
        self._renamed: dict[str, list[int]] | None = None  # read once, when first needed
        self._carried = carried  # under `bundle`: what the release carries

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
        after = merge(self.context, before, incoming, None, curated)  # venues carry no sources
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
        after = merge(self.context, before, incoming, incoming["sources"], curated)
        self._update("editions", "id = ?", (row["id"],), before, after)
        self._note("change", "edition", str(row["id"]), label, before, after)

    def _edition_row(self, venue: str, year: int) -> Row | None:
        row: Row | None = self.conn.execute(
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
        if row is None and self._carried is not None:
            kinds = self._carried.awards.get(
                (award.venue, award.year, title_key(award.paper.title))
            )
            changed = rekinded_award(
                self.conn, self.context.actor, edition_id, paper_id, kinds or set()
            )
            if changed is not None:
                raise KeptRemoved(f"award #{changed} was removed by a curator; kept removed")
        if row is None:
            identity = {"edition_id": edition_id, "paper_id": paper_id, "kind": award.kind.value}
            row_id = self._insert("awards", {**identity, "track": award.track, **incoming})
            self._note("add", "award", str(row_id), label, None, {**identity, **incoming})
            return
        if row["removed_at"] is not None:
            if self.context.policy == "bundle":
                raise KeptRemoved(f"award #{row['id']} was removed by a curator; kept removed")
            raise Rejected(
                f"award #{row['id']} was removed by a curator; undo the removal",
                key="award-removed",
                id=row["id"],
            )
        before = rows.from_row(row, rows.AWARD_FIELDS)
        curated = self._curated("award", str(row["id"]))
        after = merge(self.context, before, incoming, incoming["sources"], curated)
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
        if self.context.new_papers_only:
            raise Rejected(
                f"the catalogue already has this paper as paper #{paper_id}",
                key="duplicate-paper",
                id=paper_id,
            )
        if self._one("SELECT id FROM papers WHERE id = ? AND removed_at IS NOT NULL", paper_id):
            if self.context.policy == "bundle":
                raise KeptRemoved(f"paper #{paper_id} was removed by a curator; kept removed")
            raise Rejected(
                f"paper #{paper_id} was removed by a curator; undo the removal",
                key="paper-removed",
                id=paper_id,
            )
        before = self._stored_paper(paper_id)
        curated = self._curated("paper", str(paper_id))
        after = merge(self.context, before, incoming, incoming["sources"], curated)
        after["arxiv_version"] = latest(before.get("arxiv_version"), incoming.get("arxiv_version"))
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
            return self._former_title(key, edition_id) if self.context.policy == "bundle" else None
        # A stored id that differs from the one given means two papers that share a title.
        if (paper.arxiv and row["arxiv"]) or (paper.doi and row["doi"]):
            return None
        return int(row["id"])

    def _former_title(self, key: str, edition_id: int) -> int | None:
        """A paper of the edition that a curator renamed from this title, or whose title this
        release corrected (under `bundle`: bot/store/catalog/curated.py)."""
        if self._renamed is None:
            self._renamed = renamed_papers(self.conn, self.context.actor)
        for paper_id in self._renamed.get(key, []):
            found = self.conn.execute(
                "SELECT 1 FROM awards WHERE paper_id = ? AND edition_id = ?", (paper_id, edition_id)
            ).fetchone()
            if found:
                return paper_id
        if self._carried is None:
            return None
        return corrected_paper(self.conn, self.context.actor, edition_id, key, self._carried)

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
