"""Search on PostgreSQL across a server restart (issue 22, item 10): the first search on the
searcher's stale connection answers as before (a read, asked again on a fresh connection);
while the server is down, the member is told the database is unavailable, not "something went
wrong"."""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator

import discord
import psycopg
import pytest

from bot.commands.errors import describe
from bot.render.i18n import Strings
from bot.store.catalog.papers import PaperRepository
from bot.store.catalog.repository import CatalogRepository
from bot.store.database import Database
from bot.store.search.index import SearchIndex
from bot.store.search.store import store_of
from tests.support.awards import award, batch
from tests.support.postgres import PostgresServer


@pytest.fixture
async def papers(db: Database, catalog: CatalogRepository) -> AsyncIterator[PaperRepository]:
    await catalog.apply(
        batch(award("Gated Attention for Large Language Models"), award("Scaling laws")),
        actor="test",
        policy="update",
    )
    index = SearchIndex(store_of(db), None)
    await index.start()
    db.on_catalog_write(index.catch_up)
    try:
        yield PaperRepository(db, index=index)
    finally:
        await index.close()


@pytest.mark.parametrize("backend", ["postgresql"])
async def test_the_first_search_after_a_restart_answers(
    papers: PaperRepository, postgres_server: PostgresServer
) -> None:
    before = [p.paper.title for p in await papers.search("attention")]
    assert before == ["Gated Attention for Large Language Models"]
    postgres_server.restart()  # every connection cut, the searchers' included
    for _ in range(3):  # each searcher thread's own connection was stale
        assert [p.paper.title for p in await papers.search("attention")] == before


def test_a_server_that_does_not_answer_is_said_as_the_database_unavailable() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(psycopg.OperationalError) as down:
        psycopg.connect(f"postgresql://u@127.0.0.1:{port}/d", connect_timeout=5)
    strings = Strings.load()
    text, outcome = describe(down.value, strings, discord.Locale.american_english)
    assert outcome == "fault"
    assert text.startswith("I can't use my database right now")
