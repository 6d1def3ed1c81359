"""Reading papers: by id, by search, with the awards each one holds."""

from __future__ import annotations

import json
from collections.abc import Callable
from itertools import islice
from typing import TypeVar

from bot.domain.areas import ResearchArea
from bot.domain.awards import TEST_OF_TIME_WORDS, is_main_award
from bot.domain.identifiers import parse_arxiv_id
from bot.domain.institutions import InstitutionAliases, load_institutions
from bot.domain.models import AwardKind, AwardRef, PaperChoice, StoredPaper
from bot.domain.vocabulary import load_vocabulary
from bot.errors import StoreError
from bot.store import rows
from bot.store.catalog_sql import ids_in, like_any_case, paper_columns
from bot.store.database import Database
from bot.store.model_cache import ModelCache
from bot.store.search.dictionary import Dictionary
from bot.store.search.fts5 import (
    CHOICE_COLUMNS,
    FTS_SIMILAR,
    Scope,
    choices,
    fts_count,
    fts_hits,
    fts_params,
)
from bot.store.search.glossary import Glossary, load_glossary
from bot.store.search.index import SearchIndex
from bot.store.search.similar import CANDIDATES, Topic, alike, close_enough, fts5_query, topic_of
from bot.store.search.text import match_query, parse
from bot.store.sql import Connection, Params

_PAPER_COLUMNS = {d: paper_columns(d) for d in ("sqlite", "postgresql")}
_BY_IDS = {
    d: f"SELECT {_PAPER_COLUMNS[d]} FROM live_papers AS p WHERE {ids_in('?', d)}"  # noqa: S608
    for d in _PAPER_COLUMNS
}
_CHOICES_BY_IDS = {
    d: f"SELECT {CHOICE_COLUMNS[d]} FROM live_papers AS p WHERE {ids_in('?', d)}"  # noqa: S608
    for d in _PAPER_COLUMNS
}
T = TypeVar("T")


class PaperRepository:
    def __init__(
        self,
        db: Database,
        institutions: InstitutionAliases | None = None,
        index: SearchIndex | None = None,
        glossary: Glossary | None = None,
    ) -> None:
        self._db = db
        self._index = index
        self._models: ModelCache[StoredPaper] = ModelCache()
        self._institutions = institutions or load_institutions()
        self._vocabulary = load_vocabulary()
        self._glossary = load_glossary() if glossary is None else glossary
        self._columns = _PAPER_COLUMNS[db.dialect]

    async def get(self, paper_id: int) -> StoredPaper | None:
        found = await self._load(
            f"SELECT {self._columns} FROM live_papers AS p WHERE p.id = ?",  # noqa: S608
            (paper_id,),
        )
        return found[0] if found else None

    async def by_arxiv(self, arxiv_id: str) -> StoredPaper | None:
        """The paper with this arXiv id, whatever version the id names."""
        found = await self._load(
            f"SELECT {self._columns} FROM live_papers AS p WHERE p.arxiv = ?",  # noqa: S608
            (parse_arxiv_id(arxiv_id).id,),
        )
        return found[0] if found else None

    async def holder(
        self, *, arxiv: str | None = None, doi: str | None = None
    ) -> tuple[int, bool] | None:
        """The paper, removed ones too, with this arXiv id (any version) or DOI, and whether
        it was removed: what a new paper with these ids would duplicate."""
        row = await self._db.fetchone(
            """
            SELECT id, removed_at IS NOT NULL AS removed FROM papers
            WHERE arxiv = :arxiv OR doi = :doi
            ORDER BY id LIMIT 1
            """,
            {"arxiv": parse_arxiv_id(arxiv).id if arxiv else None, "doi": doi},
        )
        return None if row is None else (int(row["id"]), bool(row["removed"]))

    async def awarded_at(
        self, venue: str, year: int, kind: AwardKind | None = None
    ) -> list[StoredPaper]:
        """The papers awarded at one edition (optionally one kind), in the order awarded."""
        return await self._load(
            f"""
            SELECT {self._columns}
            FROM live_papers AS p
            WHERE p.id IN (
                SELECT a.paper_id FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
                WHERE e.venue = :venue AND e.year = :year
                  AND (CAST(:kind AS TEXT) IS NULL OR a.kind = :kind))
            ORDER BY (SELECT min(a.id) FROM live_awards AS a WHERE a.paper_id = p.id)
            """,  # noqa: S608
            {"venue": venue, "year": year, "kind": kind.value if kind else None},
        )

    async def with_award(
        self, kind: AwardKind, *, venue: str | None = None, limit: int = 500
    ) -> list[StoredPaper]:
        """Papers holding an award of `kind` (optionally at `venue`), latest award first."""
        return await self._load(
            f"""
            SELECT {self._columns}
            FROM live_papers AS p
            JOIN (
                SELECT a.paper_id, max(e.year) AS latest
                FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
                WHERE a.kind = :kind AND (CAST(:venue AS TEXT) IS NULL OR e.venue = :venue)
                GROUP BY a.paper_id
            ) AS won ON won.paper_id = p.id
            ORDER BY won.latest DESC, p.id
            LIMIT :limit
            """,  # noqa: S608
            {"kind": kind.value, "venue": venue, "limit": max(1, limit)},
        )

    async def test_of_time(
        self, *, venue: str | None = None, limit: int = 500
    ) -> list[StoredPaper]:
        """Papers holding a test-of-time award, or a runner-up or honorable mention whose name
        or track may read as one, latest first; `standing_in_test_of_time` tells which exactly."""
        dialect = self._db.dialect
        words = " OR ".join(like_any_case("marks", f"'%{w}%'", dialect) for w in TEST_OF_TIME_WORDS)
        return await self._load(
            f"""
            SELECT {self._columns}
            FROM live_papers AS p
            JOIN (
                SELECT paper_id, max(year) AS latest FROM (
                    SELECT a.paper_id, e.year, a.kind,
                           a.name || ' ' || coalesce(a.track, '') AS marks
                    FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
                    WHERE (CAST(:venue AS TEXT) IS NULL OR e.venue = :venue)
                ) AS marked
                WHERE kind = 'test-of-time'
                   OR (kind IN ('runner-up', 'honorable-mention') AND ({words}))
                GROUP BY paper_id
            ) AS won ON won.paper_id = p.id
            ORDER BY won.latest DESC, p.id
            LIMIT :limit
            """,  # noqa: S608 (constant words, no input)
            {"venue": venue, "limit": max(1, limit)},
        )

    def read_chinese_with(self, dictionary: Dictionary) -> None:
        """Read a Chinese query's words in English through `dictionary` too (bot/store/search/
        dictionary.py), beside the learned glossary: the bot loads it as it starts."""
        self._glossary = self._glossary.with_dictionary(dictionary)

    async def search(
        self,
        text: str,
        *,
        venue: str | None = None,
        year: int | None = None,
        kind: AwardKind | None = None,
        area: ResearchArea | None = None,
        limit: int = 10,
        offset: int = 0,
        every_word: bool = False,
    ) -> list[StoredPaper]:
        """Papers matching `text`, best first; any text at all finds results or none.
        `every_word`: only papers with every word typed (or within a typo of it), never the
        papers with some of them that a member's search falls back to."""
        found, _, _ = await self.search_page(
            text, venue=venue, year=year, kind=kind, area=area, limit=limit, offset=offset,
            every_word=every_word,
        )  # fmt: skip
        return found

    async def search_page(
        self,
        text: str,
        *,
        venue: str | None = None,
        year: int | None = None,
        kind: AwardKind | None = None,
        area: ResearchArea | None = None,
        limit: int = 10,
        offset: int = 0,
        every_word: bool = False,
        close: int = 0,
    ) -> tuple[list[StoredPaper], int, list[StoredPaper]]:
        """A page of the papers matching `text`, best first, and how many matched in all: by
        the derived index when it is ready, else FTS5 (the same words, the same weights); and
        on a first page of fewer than `close` matches (at most `limit`), papers close to the
        query to go after them, up to `close` in all (readings.page: within a typo, some of
        the words): the index only, FTS5 gives the matches alone."""
        scope = Scope(venue, year, kind.value if kind else None, area.value if area else None)
        limit, offset = max(1, min(limit, 100)), max(0, offset)
        found = await self._from_index(
            text, scope, limit, offset, self._papers_now, any_word=not every_word,
            close=0 if every_word else max(0, close),
        )  # fmt: skip
        if found is not None:
            return found
        query = match_query(text, self._institutions, self._vocabulary)
        if query is None:
            return [], 0, []
        params = fts_params(query, scope, limit, offset)
        page = await self._load(fts_hits(f"SELECT {self._columns}"), params)
        if offset == 0 and len(page) < limit:
            return page, len(page), []
        row = await self._db.fetchone(fts_count(), params)
        return page, int(row[0]) if row else len(page), []

    async def titles(self, text: str, *, limit: int = 25) -> list[PaperChoice]:
        """What autocomplete shows for `text`: ids, titles and latest awards, best first.

        Ranked as `search` ranks, over what names a paper only (query.NAMING: not its
        summaries or abstract), never falling back to papers with some of the words, and
        without loading and validating whole papers.
        """
        scope = Scope(None, None, None, None)
        limit = max(1, min(limit, 100))
        found = await self._from_index(
            text, scope, limit, 0, _choices_now, count=False, naming=True
        )
        if found is not None:
            return found[0]
        query = match_query(text, self._institutions, self._vocabulary)
        if query is None:
            return []
        sql = fts_hits(f"SELECT {CHOICE_COLUMNS['sqlite']}")
        return choices(await self._db.fetchall(sql, fts_params(query, scope, limit, 0)))

    async def _from_index(
        self,
        text: str,
        scope: Scope,
        limit: int,
        offset: int,
        load: Callable[[Connection, list[int]], list[T]],
        *,
        count: bool = True,
        any_word: bool = True,
        naming: bool = False,
        close: int = 0,
    ) -> tuple[list[T], int, list[T]] | None:
        """What `load` reads for the ids the derived index ranks first, in one hop to a
        searcher thread, how many matched, and with `close` what it reads for the papers
        close to the query (SearchIndex.page_then); None when FTS5 is to answer (SQLite only:
        PostgreSQL has no FTS5, and waits for an index being built)."""
        if self._db.dialect == "sqlite":
            if self._index is None or not self._index.ready:
                return None
            index = self._index
        else:
            index = await self._ready_index()
        parsed = parse(text, self._institutions, self._vocabulary, self._glossary.read)
        if parsed is None:
            return [], 0, []
        found = await index.page_then(
            parsed, load, venue=scope.venue, year=scope.year, kind=scope.kind, area=scope.area,
            limit=limit, offset=offset, count=count, any_word=any_word, naming=naming,
            close=close,
        )  # fmt: skip
        if found is None and self._db.dialect != "sqlite":
            # The index failed just now (FTS5 would answer on SQLite): it is being rebuilt
            # from the store, which is PostgreSQL's own answer; asked again once it is.
            index = await self._ready_index()
            found = await index.page_then(
                parsed, load, venue=scope.venue, year=scope.year, kind=scope.kind,
                area=scope.area, limit=limit, offset=offset, count=count, any_word=any_word,
                naming=naming, close=close,
            )  # fmt: skip
            if found is None:
                raise _no_index()
        if found is None:
            return None
        page, total, nearby = found
        return page, total, nearby or []

    async def _ready_index(self) -> SearchIndex:
        """The derived index, once a rebuild under way is done (PostgreSQL's only search)."""
        if self._index is None:
            raise _no_index()
        await self._index.wait_ready()
        if not self._index.ready:
            raise _no_index()
        return self._index

    async def by_ids(self, paper_ids: list[int]) -> list[StoredPaper]:
        """These papers, in this order, those still live; one query with their awards."""
        if not paper_ids:
            return []
        found = await self._load(_BY_IDS[self._db.dialect], (json.dumps(paper_ids),))
        by_id = {paper.id: paper for paper in found}
        return [by_id[i] for i in paper_ids if i in by_id]

    def _papers_now(self, conn: Connection, paper_ids: list[int]) -> list[StoredPaper]:
        """`by_ids` on a connection of the calling thread's (a searcher thread's)."""
        if not paper_ids:
            return []
        found = conn.execute(_BY_IDS[conn.dialect], (json.dumps(paper_ids),)).fetchall()
        by_id = {r["id"]: self._models.get(r, rows.stored_paper) for r in found}
        return [by_id[i] for i in paper_ids if i in by_id]

    async def ids(
        self,
        *,
        venue: str | None = None,
        year: int | None = None,
        kind: AwardKind | None = None,
        area: ResearchArea | None = None,
        first: int | None = None,
        last: int | None = None,
    ) -> list[int]:
        """The ids of every awarded paper (optionally at a venue, in a year or from `first` to
        `last`, of a kind, in an area), ascending."""
        found = await self._db.fetchall(
            """
            SELECT DISTINCT a.paper_id
            FROM live_awards AS a JOIN editions AS e ON e.id = a.edition_id
            WHERE (CAST(:venue AS TEXT) IS NULL OR e.venue = :venue)
              AND (CAST(:year AS INTEGER) IS NULL OR e.year = :year)
              AND (CAST(:first AS INTEGER) IS NULL OR e.year >= :first)
              AND (CAST(:last AS INTEGER) IS NULL OR e.year <= :last)
              AND (CAST(:kind AS TEXT) IS NULL OR a.kind = :kind)
              AND (CAST(:area AS TEXT) IS NULL
                   OR a.paper_id IN (SELECT id FROM papers WHERE area = :area))
            ORDER BY a.paper_id
            """,
            {
                "venue": venue,
                "year": year,
                "kind": kind.value if kind else None,
                "area": area.value if area else None,
                "first": first,
                "last": last,
            },
        )
        return [int(r[0]) for r in found]

    async def main_award_ids(self) -> list[int]:
        """The ids of the papers holding a main paper award (awards.is_main_award), ascending."""
        found = await self._db.fetchall("SELECT paper_id, kind, name FROM live_awards")
        return sorted({int(r[0]) for r in found if is_main_award(r[1], r[2])})

    async def similar(
        self,
        paper_id: int,
        *,
        limit: int = 5,
        venue: str | None = None,
        year: int | None = None,
        kind: AwardKind | None = None,
        area: ResearchArea | None = None,
    ) -> list[StoredPaper]:
        """Papers about what this one is about (bot/store/search/similar.py), best first, not
        itself, within the filters given; none below the relevance floor, so fewer than
        `limit`, or none at all, rather than unrelated ones."""
        stored = await self.get(paper_id)
        if stored is None:
            return []
        topic = topic_of(stored)
        found: list[StoredPaper] | None = None
        scope = (venue, year, kind.value if kind else None, area.value if area else None)
        if self._db.dialect == "postgresql" or (self._index is not None and self._index.ready):
            index = self._index if self._db.dialect == "sqlite" else await self._ready_index()
            assert index is not None
            answer = await index.similar_then(
                topic, self._papers_now, limit=CANDIDATES * max(1, limit), scope=scope
            )
            if answer is None and self._db.dialect == "postgresql":
                # It failed just now: PostgreSQL has no other search, so asked again once the
                # index is rebuilt from the store.
                index = await self._ready_index()
                answer = await index.similar_then(
                    topic, self._papers_now, limit=CANDIDATES * max(1, limit), scope=scope
                )
                if answer is None:
                    raise _no_index()
            found = answer
        if found is None:
            found = await self._similar_fts5(topic, Scope(*scope), CANDIDATES * max(1, limit))
        # `alike` reads each paper's words: asked of the best first, until `limit` pass.
        return list(islice((paper for paper in found if alike(topic, paper)), max(1, limit)))

    async def _similar_fts5(self, topic: Topic, scope: Scope, limit: int) -> list[StoredPaper]:
        """Similar by FTS5 (SQLite, while the index is rebuilt), with the same floor."""
        query = fts5_query(topic)
        if query is None:
            return []
        params = fts_params(query, scope, limit + 1, 0) | {"paper_id": topic.paper_id}
        rows = await self._db.fetchall(FTS_SIMILAR, params)
        scored = [(-float(r["score"]), int(r["id"])) for r in rows]  # bm25: lower is better
        itself = next((score for score, i in scored if i == topic.paper_id), 0.0)
        others = [(score, i) for score, i in scored if i != topic.paper_id]
        return await self.by_ids(close_enough(others, itself, limit))

    async def awards_of(self, paper_ids: list[int]) -> list[tuple[int, int, AwardRef]]:
        """Each live award of these papers: its id, its paper's id, and the award."""
        if not paper_ids:
            return []
        marks = ", ".join("?" for _ in paper_ids)
        found = await self._db.fetchall(
            f"""
            SELECT a.id, a.paper_id, e.venue, v.name AS venue_name, e.year, a.name, a.kind,
                   a.track
            FROM live_awards AS a
            JOIN editions AS e ON e.id = a.edition_id
            JOIN venues AS v ON v.key = e.venue
            WHERE a.paper_id IN ({marks})
            ORDER BY a.paper_id, e.year DESC, a.id
            """,  # noqa: S608
            paper_ids,
        )
        return [(int(r["id"]), int(r["paper_id"]), rows.award_ref(r)) for r in found]

    async def count(self) -> int:
        row = await self._db.fetchone("SELECT count(*) FROM live_papers")
        return int(row[0]) if row else 0

    async def _load(self, sql: str, params: Params) -> list[StoredPaper]:
        """Papers with their awards (the `award_list` column): one round trip to the store."""
        found = await self._db.fetchall(sql, params)
        return [self._models.get(r, rows.stored_paper) for r in found]


def _no_index() -> StoreError:
    """On PostgreSQL search is the derived index alone: there is no FTS5 to answer meanwhile."""
    return StoreError("search is not available: the search index is not ready (see the log)")


def _choices_now(conn: Connection, paper_ids: list[int]) -> list[PaperChoice]:
    """Autocomplete's choices for these ids, in this order, on the calling thread's connection."""
    if not paper_ids:
        return []
    found = conn.execute(_CHOICES_BY_IDS[conn.dialect], (json.dumps(paper_ids),)).fetchall()
    by_id = {choice.id: choice for choice in choices(found)}
    return [by_id[i] for i in paper_ids if i in by_id]
