"""The derived tantivy index: it follows the store's change sequence, survives crashes and
restarts, and answers any text. (Ranking and filters are shared with FTS5 in test_search.py.)"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import threading
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
import tantivy
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.domain.clock import SystemClock
from bot.domain.institutions import load_institutions
from bot.domain.models import AwardKind, Paper
from bot.errors import StoreError
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.search import documents as search_docs
from bot.store.search import index as search_index
from bot.store.search.documents import SearchDocument
from bot.store.search.index import SearchIndex
from bot.store.search.store import store_errors, store_of
from bot.store.search.text import parse
from bot.store.sql import Connection
from tests.support.awards import award, batch
from tests.support.backends import open_again


async def _titles(db: Database, index: SearchIndex, text: str, **filters: object) -> list[str]:
    found = await PaperRepository(db, index=index).search(text, **filters)  # type: ignore[arg-type]
    return [p.paper.title for p in found]


async def _add(catalog: CatalogRepository, *titles: str) -> None:
    await catalog.apply(batch(*(award(t) for t in titles)), actor="t", policy="update")


async def _paper_id(db: Database, title: str) -> int:
    row = await db.fetchone("SELECT id FROM papers WHERE title = ?", (title,))
    assert row is not None
    return int(row[0])


async def test_follows_every_kind_of_catalogue_write(
    db: Database, catalog: CatalogRepository
) -> None:
    index = SearchIndex(store_of(db), None)
    await index.start()
    db.on_catalog_write(index.catch_up)
    await _add(catalog, "Sparse routing for experts")
    assert await _titles(db, index, "sparse") == ["Sparse routing for experts"]
    paper_id = await _paper_id(db, "Sparse routing for experts")

    await catalog.replace_paper(paper_id, Paper(title="Dense mixtures"), actor="t")
    assert await _titles(db, index, "sparse") == []
    assert await _titles(db, index, "dense") == ["Dense mixtures"]

    plan = await catalog.remove("paper", paper_id, actor="t")
    assert plan.count("remove", "paper") == 1
    assert await _titles(db, index, "dense") == []
    (removal,) = await db.fetchall("SELECT max(id) FROM audit")
    await catalog.revert(int(removal[0]), actor="t")
    assert await _titles(db, index, "dense") == ["Dense mixtures"]
    await index.close()


async def test_an_award_removed_changes_what_the_filters_find(
    db: Database, catalog: CatalogRepository
) -> None:
    index = SearchIndex(store_of(db), None)
    await index.start()
    db.on_catalog_write(index.catch_up)
    await _add(catalog, "Graph kernels")
    assert await _titles(db, index, "graph", kind=AwardKind.OUTSTANDING) == ["Graph kernels"]
    (award_id,) = await db.fetchone("SELECT max(id) FROM awards") or (0,)
    await catalog.remove("award", int(award_id), actor="t")
    assert await _titles(db, index, "graph", kind=AwardKind.OUTSTANDING) == []
    assert await _titles(db, index, "graph") == ["Graph kernels"]  # the paper itself stays
    await index.close()


async def test_a_crash_between_commit_and_index_update_is_repaired_at_start(
    db: Database, catalog: CatalogRepository, tmp_path: Path
) -> None:
    where = tmp_path / "laurel.db.search"
    index = SearchIndex(store_of(db), where)
    await index.start()
    alive = True

    async def catch_up() -> None:
        if alive:
            await index.catch_up()

    db.on_catalog_write(catch_up)
    await _add(catalog, "Before the crash")
    alive = False  # the process dies between the store's commit and the index's update
    await _add(catalog, "Committed while the index died")  # the write stands
    assert await db.fetchone("SELECT id FROM papers WHERE title LIKE 'Committed%'")
    assert await _titles(db, index, "committed") == []  # the index missed it
    behind = index.generation
    await index.close()

    restarted = SearchIndex(store_of(db), where)
    await restarted.start()
    assert restarted.generation > behind
    assert await _titles(db, restarted, "committed") == ["Committed while the index died"]
    assert await _titles(db, restarted, "crash") == ["Before the crash"]
    await restarted.close()


async def test_another_process_writes_are_followed_by_catching_up(
    db: Database, catalog: CatalogRepository, tmp_path: Path
) -> None:
    index = SearchIndex(store_of(db), tmp_path / "one.search")
    await index.start()  # no listener: this process hears of nothing
    async with await open_again(db) as other:
        await CatalogRepository(other, SystemClock()).apply(
            batch(award("Written elsewhere")), actor="t", policy="update"
        )
    assert await _titles(db, index, "elsewhere") == []
    await index.catch_up()  # what `follow` does every few seconds
    assert await _titles(db, index, "elsewhere") == ["Written elsewhere"]
    await index.close()


@pytest.mark.parametrize("damage", ["missing", "garbage", "other history", "other format"])
async def test_an_index_that_cannot_be_trusted_is_rebuilt(
    db: Database, catalog: CatalogRepository, tmp_path: Path, damage: str
) -> None:
    where = tmp_path / "laurel.db.search"
    await _add(catalog, "Kept in the store")
    index = SearchIndex(store_of(db), where)
    await index.start()
    await index.close()
    marker = where / "laurel-generation.json"
    saved = json.loads(marker.read_text())
    if damage == "missing":
        marker.unlink()
    elif damage == "garbage":
        marker.write_text("{not json")
    elif damage == "other history":
        marker.write_text(json.dumps({**saved, "mark": "1999-01-01|paper|1"}))
    else:
        marker.write_text(json.dumps({**saved, "format": search_index.FORMAT + 1}))
    reopened = SearchIndex(store_of(db), where)
    await reopened.start()
    assert await _titles(db, reopened, "kept") == ["Kept in the store"]
    (stored,) = await db.fetchone("SELECT count(*) FROM live_papers") or (0,)
    assert reopened.count() == stored
    await reopened.close()


async def test_a_large_rebuild_runs_in_the_background_while_fts5_answers(
    db: Database, catalog: CatalogRepository
) -> None:
    await _add(catalog, "Background rebuild")
    index = SearchIndex(store_of(db), None)
    await index.start(background_over=0)
    papers = PaperRepository(db, index=index)
    assert [p.paper.title for p in await papers.search("background")] == ["Background rebuild"]
    assert index._background is not None
    # PostgreSQL has no FTS5: there the search waited for the rebuild to answer.
    assert index.ready or db.dialect == "sqlite"
    await index._background
    assert index.ready
    parsed = parse("background")
    assert parsed is not None
    assert (index.page_now(parsed, limit=5) or ([], 0))[0] != []
    await index.close()


async def test_pages_are_stable_when_scores_tie(db: Database, catalog: CatalogRepository) -> None:
    await _add(catalog, *(f"Graph paper {i}" for i in range(25)))
    index = SearchIndex(store_of(db), None)
    await index.start()
    papers = PaperRepository(db, index=index)
    pages = [await papers.search("graph paper", limit=7, offset=o) for o in range(0, 28, 7)]
    ids = [p.id for page in pages for p in page]
    assert ids == sorted(ids)  # equal scores: by id, no paper twice, none left out
    assert len(ids) == 25
    await index.close()


async def test_a_prefix_is_ranked_by_where_it_is_found(
    db: Database, catalog: CatalogRepository
) -> None:
    await catalog.apply(
        batch(
            award("Rolling dice", abstract="Transformers in a gated world."),
            award("Gated experts"),
            award("Gating networks", authors=["Ann Gatsby"]),
        ),
        actor="t",
        policy="update",
    )
    index = SearchIndex(store_of(db), None)
    await index.start()
    titles = await _titles(db, index, "gat")
    assert titles[-1] == "Rolling dice"  # in the abstract only: last
    assert titles[0] == "Gating networks"  # in the title and among the authors: first
    assert (await _titles(db, index, "gated"))[:1] == ["Gated experts"]
    await index.close()


@pytest.fixture(scope="module")
def small_index() -> SearchIndex:
    """An index of a few documents, searched synchronously (hypothesis runs no event loop)."""
    index = SearchIndex(Path("unused"), None)
    index._index = tantivy.Index(index.schema)
    index._writer = index._index.writer(search_index.WRITER_HEAP, 1)
    index._add(
        [
            SearchDocument(1, {"title": "gated attention", "summaries": "注 意 力"}, ("area:nlp",)),
            SearchDocument(2, {"title": "tsinghua routing"}, ("icml|2025|*",)),
        ]
    )
    index._writer.commit()
    index._index.reload()
    index.ready = True
    return index


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(max_size=200), st.integers(0, 30), st.integers(1, 100))
@example('"(( AND NOT title:x* 清华 THU', 0, 10)
@example("\x00" * 50, 5, 1)
def test_any_text_is_answered_without_raising(
    small_index: SearchIndex, text: str, offset: int, limit: int
) -> None:
    parsed = parse(text, load_institutions())
    if parsed is None:
        return
    found = small_index.page_now(parsed, kind="best", limit=limit, offset=offset)
    assert found is not None
    found = small_index.page_now(parsed, limit=limit, offset=offset)
    assert found is not None
    assert len(found[0]) <= limit


async def test_an_index_held_by_another_process_leaves_fts5_answering(
    db: Database, catalog: CatalogRepository, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    await _add(catalog, "Held elsewhere")
    where = tmp_path / "shared.search"
    first_index = SearchIndex(store_of(db), where)
    await first_index.start()
    second = SearchIndex(store_of(db), where)  # the same directory: tantivy's writer lock is held
    await second.start()
    assert not second.ready
    # Where FTS5 answers, a second process on one SQLite file is no fault: a warning, not an
    # ERROR (two bots on one file logged "LockBusy … FTS5 answers instead" as an error).
    held = [r for r in caplog.records if "search index at" in r.getMessage()]
    assert [r.levelname for r in held] == ["WARNING" if db.dialect == "sqlite" else "ERROR"]
    await second.catch_up()  # a no-op, not an error
    papers = PaperRepository(db, index=second)
    if db.dialect == "sqlite":
        assert [p.paper.title for p in await papers.search("held")] == ["Held elsewhere"]
    else:  # no FTS5 to answer: the search says why it cannot, in words
        with pytest.raises(StoreError, match="search index is not ready"):
            await papers.search("held")
    await second.close()
    await first_index.close()


async def test_a_write_during_a_rebuild_does_not_wait_for_it_and_is_caught_up_after(
    db: Database, catalog: CatalogRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _add(catalog, "Already there")
    gate = threading.Event()
    documents = search_docs.documents

    def held(conn: Connection, ids: Iterable[int] | None = None) -> Iterator[Any]:
        if ids is None:  # the rebuild: held until the write below is done
            gate.wait(10)
        yield from documents(conn, ids)

    monkeypatch.setattr(search_docs, "documents", held)
    index = SearchIndex(store_of(db), None)
    await index.start(background_over=0)
    db.on_catalog_write(index.catch_up)
    await asyncio.sleep(0.05)  # the rebuild has begun and waits on the gate
    await _add(catalog, "Written meanwhile")  # returns although the rebuild still runs
    assert index._rebuilding
    if db.dialect == "sqlite":  # FTS5 answers meanwhile (PostgreSQL's search waits for it)
        papers = PaperRepository(db, index=index)
        assert [p.paper.title for p in await papers.search("meanwhile")] == ["Written meanwhile"]
    gate.set()
    await index.wait_ready()
    assert index.ready
    assert await _titles(db, index, "meanwhile") == ["Written meanwhile"]  # caught up after
    await index.close()


async def test_a_rebuild_that_fails_half_way_leaves_nothing_half_applied(
    db: Database, catalog: CatalogRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _add(catalog, "First of two", "Second of two")
    index = SearchIndex(store_of(db), None)
    await index.start()
    documents = search_docs.documents

    def broken(conn: Connection, ids: Iterable[int] | None = None) -> Iterator[Any]:
        for number, document in enumerate(documents(conn, ids)):
            if number == 1:
                raise sqlite3.OperationalError("disk I/O error")
            yield document

    monkeypatch.setattr(search_docs, "documents", broken)
    with pytest.raises(sqlite3.OperationalError):
        await index.catch_up(rebuild=True)  # its "delete everything" must not linger
    monkeypatch.setattr(search_docs, "documents", documents)
    await _add(catalog, "Third of three")
    await index.catch_up()  # the next commit
    assert sorted(await _titles(db, index, "of")) == [
        "First of two",
        "Second of two",
        "Third of three",
    ]
    (stored,) = await db.fetchone("SELECT count(*) FROM live_papers") or (0,)
    assert index.count() == stored
    await index.close()


async def test_closing_stops_a_rebuild_under_way_and_the_next_start_rebuilds(
    db: Database, catalog: CatalogRepository, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await _add(catalog, "Indexed at last")
    documents = search_docs.documents

    def endless(conn: Connection, ids: Iterable[int] | None = None) -> Iterator[Any]:
        first = next(iter(documents(conn, ids)))
        while True:  # a catalogue that takes forever to index
            time.sleep(0.001)
            yield first

    monkeypatch.setattr(search_docs, "documents", endless)
    where = tmp_path / "laurel.db.search"
    index = SearchIndex(store_of(db), where)
    await index.start(background_over=0)
    await asyncio.sleep(0.05)
    await asyncio.wait_for(index.close(), timeout=5)  # does not wait for the rebuild
    assert not (where / "laurel-generation.json").exists()
    monkeypatch.setattr(search_docs, "documents", documents)
    again = SearchIndex(store_of(db), where)
    await again.start()
    assert await _titles(db, again, "indexed") == ["Indexed at last"]
    assert again.count() == 1
    await again.close()


async def test_an_answer_is_ranked_and_read_in_one_hop_off_the_loop(
    db: Database, catalog: CatalogRepository, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page of results (and autocomplete's choices) is read on the searcher thread that
    ranked it, with that thread's own read-only connection: the event loop's readers are not
    asked at all, the papers come with their awards, and closing closes those connections."""
    await _add(catalog, "Hop once for graphs", "Graphs hop twice")
    index = SearchIndex(store_of(db), None)
    await index.start()
    papers = PaperRepository(db, index=index)
    expected = await papers.by_ids([await _paper_id(db, t) for t in ("Hop once for graphs",)])

    async def no_reader(*args: object) -> None:
        raise AssertionError("an answer from the index asked the event loop's readers")

    monkeypatch.setattr(db, "fetchall", no_reader)
    monkeypatch.setattr(db, "fetchone", no_reader)
    found = await papers.search("hop once")
    assert found == expected
    assert found[0].awards  # with its awards, from the same query
    choices = await papers.titles("graph")
    assert sorted(c.title for c in choices) == ["Graphs hop twice", "Hop once for graphs"]
    assert all(c.venue_name for c in choices)
    opened = list(index._readers._opened)
    assert 1 <= len(opened) <= search_index.SEARCHERS
    await index.close()
    with pytest.raises(store_errors()):  # closed
        opened[0].execute("SELECT 1")
